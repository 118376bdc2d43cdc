package book

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/live"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	bolt "go.etcd.io/bbolt"
)

// Match is one customer a changed record matches.
type Match struct {
	CustomerID string   `json:"customer_id"`
	RecordID   string   `json:"record_id"`
	Reason     string   `json:"reason"`
	Field      string   `json:"matched_field"`
	Name       string   `json:"matched_name"`
	Score      *float64 `json:"score,omitempty"` // scored mode only
}

// MatchChanged returns the matches of the changed records (the records a
// change set added or updated, as they are after it) against customers in
// the book's configuration, sorted by customer id and record id. sources
// is the store's catalogue and version its version.
//
// It builds an engine index over the changed records, as batch --since
// does, and screens customers against it with batch's per-customer rules,
// in parallel: the matches are by construction those of batch restricted
// to the changed records, in strict and scored mode (scored mode's word
// statistics are those of the changed records, as there). In strict mode
// only the customers an index of the customers' names finds for the
// changed records are screened (candidates: the reverse direction, which
// loses no match); in scored mode, whose word pairs (name variants, sound
// keys, joined words) have no such index yet, every customer is. The cost
// does not depend on the size of the database.
func MatchChanged(customers []Customer, cfg Config, changed []*record.Record, sources []record.Source, version string) ([]Match, error) {
	return matchWith(customers, cfg, nil, changed, sources, version)
}

// matchWith is MatchChanged with the customers' reverse index rv built
// already (nil to build it when strict mode needs it).
func matchWith(customers []Customer, cfg Config, rv *reverse, changed []*record.Record, sources []record.Source, version string) ([]Match, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(changed) == 0 || len(customers) == 0 {
		return nil, nil
	}
	sc, err := cfg.Screener(live.New(changed, sources, version).Index())
	if err != nil {
		return nil, err
	}
	// The customers to screen: in strict mode only those the reverse
	// index finds (candidates), in scored mode all of them.
	all := sc.Match != engine.Strict
	var todo []int
	n := len(customers)
	if !all {
		if rv == nil {
			rv = newReverse(customers, cfg.Fuzzy)
		}
		todo = rv.candidates(changed)
		n = len(todo)
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	parts := make([][]Match, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < n; k += workers {
				i := k
				if !all {
					i = todo[k]
				}
				c := &customers[i]
				s, err := sc.Screen(c.Row())
				if err != nil {
					errs[w] = fmt.Errorf("customer %s: %w", c.ID, err)
					return
				}
				if s.Reject != nil {
					errs[w] = fmt.Errorf("customer %s: %s: %s", c.ID, s.Reject.Field, s.Reject.Reason)
					return
				}
				for _, h := range s.Hits {
					parts[w] = append(parts[w], Match{CustomerID: c.ID, RecordID: h.RecordID, Reason: h.Reason,
						Field: h.MatchedField, Name: h.MatchedName, Score: h.Score})
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var out []Match
	for _, p := range parts {
		out = append(out, p...)
	}
	slices.SortFunc(out, func(a, b Match) int {
		return cmp.Or(cmp.Compare(a.CustomerID, b.CustomerID), cmp.Compare(a.RecordID, b.RecordID))
	})
	return out, nil
}

// MatchApplied returns the matches of a committed change set against the
// book, reading the book with tx: the function a store change hook
// (store.TxHook) calls to raise alerts in the transaction of the change,
// so that a kill leaves book, alerts and records agreeing. The changed
// records are those the change set added or updated, as they are after
// it; deletions match nothing. A first import into an empty store lists no
// changes and matches nothing here: screen the whole book with batch.
func MatchApplied(tx *bolt.Tx, a *store.Applied) ([]Match, error) {
	return new(watcher).match(tx, a)
}

// watcher matches change sets against the book, keeping the customers and
// their reverse index from one change set to the next while the book stays
// as it was (its bucket's sequence, which every import and removal
// advances, is the same). Change sets are applied one at a time, but the
// lock keeps it safe however it is called.
type watcher struct {
	mu        sync.Mutex
	seq       uint64
	loaded    bool
	customers []Customer
	cfg       Config
	rv        *reverse // built on first use in strict mode
	shard     Shard    // the customers screened: the whole book when zero (shard.go)
}

func (w *watcher) match(tx *bolt.Tx, a *store.Applied) ([]Match, error) {
	var changed []*record.Record
	for i := range a.Changes {
		if c := &a.Changes[i]; c.After != nil && (c.Effect == store.EffectAdd || c.Effect == store.EffectUpdate) {
			changed = append(changed, c.After)
		}
	}
	b := tx.Bucket(BucketCustomers)
	if len(changed) == 0 || b == nil {
		return nil, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.loaded || w.seq != b.Sequence() {
		customers, cfg, err := LoadTx(tx)
		if err != nil {
			return nil, err
		}
		for i := range customers {
			customers[i].Extra = nil // not screened; the alerts read the stored customer
		}
		w.seq, w.loaded, w.customers, w.cfg, w.rv = b.Sequence(), true, w.shard.keep(customers), cfg, nil
	}
	if w.rv == nil && len(w.customers) > 0 {
		w.rv = newReverse(w.customers, w.cfg.Fuzzy)
	}
	out, err := matchWith(w.customers, w.cfg, w.rv, changed, nil, a.Version)
	if err != nil || w.cfg.Match == "strict" {
		return out, err
	}
	// Scored mode weighs words by how common they are among the records
	// it screens, here only the change set's: a small change set can leave
	// an identical name below the threshold. The strict rule at the book's
	// fuzziness needs no weights, so its matches are kept too: a scored
	// book never misses what a strict one finds.
	strict, err := matchWith(w.customers, Config{Match: "strict", Fuzzy: w.cfg.Fuzzy}, w.rv, changed, nil, a.Version)
	if err != nil {
		return nil, err
	}
	return unionMatches(out, strict), nil
}

// unionMatches adds to a the matches of b on a (customer, record) pair a
// lacks, sorted as MatchChanged sorts.
func unionMatches(a, b []Match) []Match {
	type pair struct{ customer, record string }
	seen := make(map[pair]bool, len(a))
	for _, m := range a {
		seen[pair{m.CustomerID, m.RecordID}] = true
	}
	for _, m := range b {
		if !seen[pair{m.CustomerID, m.RecordID}] {
			a = append(a, m)
		}
	}
	slices.SortFunc(a, func(x, y Match) int {
		return cmp.Or(cmp.Compare(x.CustomerID, y.CustomerID), cmp.Compare(x.RecordID, y.RecordID))
	})
	return a
}
