package screen

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/store"
)

// OpenStore opens the store at path with opts and its screening index
// (Load). The Database owns the store, which stays open while it does:
// hits read their records from it; Close closes both. A store without
// records opens with an empty Version; whether to answer from it is the
// caller's call.
func OpenStore(path string, opts store.Options) (*Database, error) {
	st, err := store.Open(path, opts)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	start := time.Now()
	d, err := Load(st)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	d.ownStore, d.opened, d.origin = true, time.Since(start), "store "+path
	return d, nil
}

// FileError is a record file OpenFiles could open but not read: the
// file's name, and why.
type FileError struct {
	Name string
	Err  error
}

// Error names the file and the reason.
func (e *FileError) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *FileError) Unwrap() error { return e.Err }

// OpenFiles returns a Database in memory over the records of the JSON
// Lines files names, in order, with no source catalogue and no version.
// A file that does not open is the *os.PathError; one that does not read
// is a *FileError.
func OpenFiles(names []string) (*Database, error) {
	var recs []*record.Record
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		r, err := record.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, &FileError{Name: name, Err: err}
		}
		recs = append(recs, r...)
	}
	d := New(recs, nil, "")
	d.origin = strings.Join(names, ", ")
	return d, nil
}

// OpenSample returns the embedded sample database (package sampledata),
// built once per process and never changed, so that a process that runs
// several commands builds it once. Close leaves it open.
func OpenSample() (*Database, error) { return sample() }

var sample = sync.OnceValues(func() (*Database, error) {
	recs, err := sampledata.Records()
	if err != nil {
		return nil, fmt.Errorf("embedded sample: %w", err)
	}
	srcs, err := sampledata.Sources()
	if err != nil {
		return nil, fmt.Errorf("embedded sample sources: %w", err)
	}
	d := New(recs, srcs, sampledata.Version)
	d.origin, d.shared = "embedded sample", true
	return d, nil
})

// Origin says where the database came from: "embedded sample", "store
// PATH", the data files, or what SetOrigin set.
func (d *Database) Origin() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.origin
}

// SetOrigin replaces what Origin says, for a database that is a part of
// its source (the records of a store changed since a version).
func (d *Database) SetOrigin(origin string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.origin = origin
}

// Store returns the store the database reads hit records from; nil for
// one in memory.
func (d *Database) Store() *store.Store { return d.st }

// Opened returns how long OpenStore took to open the store's index; 0
// for other databases.
func (d *Database) Opened() time.Duration { return d.opened }

// Catalog returns the source catalogue of the current version, building
// it when the version moved. The version and index are read together, so
// a catalogue always describes the index it names.
func (d *Database) Catalog() *Catalog {
	d.mu.RLock()
	v, ix, stored := d.version, d.ix, d.sources
	d.mu.RUnlock()
	if c := d.cat.Load(); c != nil && c.version == v && c.ix == ix {
		return c
	}
	d.catMu.Lock()
	defer d.catMu.Unlock()
	if c := d.cat.Load(); c != nil && c.version == v && c.ix == ix {
		return c
	}
	c := buildCatalog(v, ix, stored, d.st, d.log)
	d.cat.Store(c)
	return c
}

// Checked is the answer to one check: the engine's result, the query as
// searched (its Sources resolved) and the version it was answered from.
type Checked struct {
	Query   query.Query
	Result  *engine.Result
	Version string
}

// Check resolves includes for who by the default-source rule (an unknown
// source is an *query.ParamError) and searches the current version with
// q, which the engine validates; ctx stops a search whose caller went
// away. It is the one call a check of any front end makes.
func (d *Database) Check(ctx context.Context, q query.Query, who Caller, includes string) (Checked, error) {
	c := d.Catalog()
	var err error
	if q.Sources, err = c.Resolve(who, includes); err != nil {
		return Checked{Query: q}, err
	}
	res, err := c.ix.SearchContext(ctx, q)
	return Checked{Query: q, Result: res, Version: c.version}, err
}
