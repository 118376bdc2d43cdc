package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// database is what screening commands answer from: an index, the source
// catalogue and the version it was built from.
type database struct {
	*screen.Index
	index   *engine.Index
	catalog *access.Catalog
	sources []record.Source // catalogue; may not list every source of the records
	version string
	origin  string        // "embedded sample", "store PATH" or the data files
	sample  bool          // the database is the embedded sample (sampledata.Is)
	store   *store.Store  // the store the index reads hit records from; nil for data files
	opened  time.Duration // how long the store's index took to open
	shared  bool          // the index is the process's sample index: left open
}

// Close releases the index and closes the store it reads from.
func (db *database) Close() {
	if !db.shared {
		db.Index.Close()
	}
	if db.store != nil {
		db.store.Close()
	}
}

func newDatabase(d *screen.Index, origin string) *database {
	ix, sources := d.Index(), d.Sources()
	return &database{Index: d, index: ix, catalog: access.NewCatalog(ix.SourceTypes(), sources),
		sources: sources, version: d.Version(), origin: origin, sample: sampledata.Is(d.Version())}
}

// sampleIndex is the embedded sample's index, built once per process and
// never changed: a process that runs several commands (the tests run them
// in process) builds it once.
var sampleIndex = sync.OnceValues(func() (*screen.Index, error) {
	recs, err := sampledata.Records()
	if err != nil {
		return nil, fmt.Errorf("embedded sample: %w", err)
	}
	srcs, err := sampledata.Sources()
	if err != nil {
		return nil, fmt.Errorf("embedded sample sources: %w", err)
	}
	return screen.New(recs, srcs, sampledata.Version), nil
})

// openSource loads the database from a store (opened read-only, so a sync
// may run alongside), from --data files, or from the embedded sample.
func openSource(dataFiles []string, storePath string) (*database, error) {
	if storePath != "" {
		if len(dataFiles) > 0 {
			return nil, usagef("--store and --data exclude each other")
		}
		return openStore(storePath)
	}
	if len(dataFiles) == 0 {
		d, err := sampleIndex()
		if err != nil {
			return nil, err
		}
		db := newDatabase(d, "embedded sample")
		db.shared = true
		return db, nil
	}
	var recs []*record.Record
	for _, name := range dataFiles {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err) // unreadable input: exit 1
		}
		r, err := record.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("--data %s: %w", name, err)
		}
		recs = append(recs, r...)
	}
	return newDatabase(screen.New(recs, nil, ""), strings.Join(dataFiles, ", ")), nil
}

// sourceSet resolves --includes against the database by the rule of
// package access: the default is every source that is not of type OTHER,
// plus OTHER ones when includeOther is set.
func (db *database) sourceSet(includes string, includeOther bool) (map[string]bool, error) {
	return db.catalog.ResolveFor(access.Sources{IncludeOther: includeOther}, includes)
}

// openStore opens the store's screening index (persisted beside it, and
// caught up or rebuilt when stale) with the store's source catalogue. The
// store stays open for the rest of the command: the index reads the
// records of its hits from it.
func openStore(path string) (*database, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	start := time.Now()
	d, err := screen.Load(db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if d.Version() == "" {
		db.Close()
		return nil, fmt.Errorf("store %s is empty: run amlscreen sync or amlscreen import first", path)
	}
	out := newDatabase(d, "store "+path)
	out.store, out.opened = db, time.Since(start)
	return out, nil
}
