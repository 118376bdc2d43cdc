package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// openStoreForAlerts is openStore with the store opened for writing, as
// batch --alerts needs to add to its alert queue: held for the whole run,
// which keeps sync and import out until it ends.
func openStoreForAlerts(path string) (*screen.Database, error) {
	return openStoreWith(path, store.Options{})
}

// batchAlerts is the alert queue of one batch --alerts run.
type batchAlerts struct {
	sink  *casework.BatchSink
	st    *store.Store
	owned bool // st was opened here (a --since run), and is closed here
	done  bool
}

// startBatchAlerts starts the sink that raises the run's hits as alerts in
// st (nil: open the store at path for writing), owned by the key's id or
// the site.
func startBatchAlerts(st *store.Store, path string, db *screen.Database, f *batchFlags, owner string) (*batchAlerts, error) {
	a := &batchAlerts{st: st}
	if st == nil {
		var err error
		if a.st, err = store.Open(path, store.Options{}); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		a.owned = true
	}
	a.sink = casework.New(a.st, casework.Options{}).NewBatchSink(casework.BatchOptions{
		Actor:       cliOperator().String() + " (batch " + filepath.Base(f.in) + ")",
		Owner:       owner,
		Version:     db.Version(),
		DefaultKind: f.kind,
		Record:      db.Index().Get,
	})
	return a, nil
}

// close ends the sink of a run that stopped before screening; a no-op
// after finish.
func (a *batchAlerts) close() {
	if a != nil && !a.done {
		a.finish(io.Discard)
	}
}

// finish closes the sink and says what it raised.
func (a *batchAlerts) finish(stdout io.Writer) error {
	a.done = true
	res, err := a.sink.Close()
	if a.owned {
		if cerr := a.st.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	fmt.Fprintf(stdout, "alerts         %d raised, %d reopened (record changed), %d already in the queue", res.Raised, res.Reopened, res.Unchanged)
	if n := a.sink.Skipped(); n > 0 {
		fmt.Fprintf(stdout, ", %d hits without a customer id", n)
	}
	fmt.Fprintln(stdout)
	return nil
}
