// Package screen is what a check answers from: the database of one
// process, opened from a store, from record files or from the embedded
// sample, with the default-source rule applied to every caller and the
// index kept current with its store. The front ends (the command line,
// the HTTP server and the workbench) reach the engine index through it,
// so a check crosses front end → query → screen → engine.
//
// A database over a store keeps its index persisted beside it
// (PATH.index/, persist.go) and keeps no records: the hits a search
// returns read theirs from the store. Load opens it, and catches it up
// when the store is ahead (catchup.go): by replaying the store's change
// log, or by rebuilding it from the records, with one log line saying
// why. One over data files or the embedded sample (New) lives in memory
// with its records.
//
// The store commits a change set first; the index applies it from the
// commit's OnCommit hook, so an index is never ahead of its store. A kill
// between the store's commit and the index's MANIFEST leaves the index
// behind, and the next Load catches it up.
//
// applyMu serialises what changes the index: one change set, merge or
// catch-up at a time. mu guards only the swap of the index, version and
// catalogue fields. Searches take neither lock: they hold one published
// segment list and read hit records from the store at the version that
// list reflects. A server merges segments in a goroutine after Apply; a
// command (Follower) merges them before it writes its MANIFEST.
//
// A full import that would leave the index to be built again (a first
// import, or an index that is not current) builds it while the store
// reads the file instead (build.go): the store hands every record to a
// store.ImportTap, the index is built in parts of bounded memory merged
// at the end, and installed after the commit. Rebuilds use the same
// parts.
//
// The default-source rule over one version is a Catalog (catalog.go):
// every source with its type, and each key's defaults. Check resolves a
// request's includes with it and searches.
//
// It is the one place that knows both the engine and the store; neither of
// those knows the other.
package screen

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Database is what a process screens against: the engine index of the
// current version, that version, the source catalogue and, when opened
// from a store, the store, kept current with it. It is named Database, not
// Index, because it is more than the engine's index, which Index returns.
// It is safe for concurrent use.
//
// A Database over a store (Load, OpenStore) is persisted beside it
// (persist.go): it keeps no records, reading those of the hits it returns
// from the store, at the version it reflects. One in memory (New,
// OpenFiles, OpenSample) keeps its records.
type Database struct {
	// applyMu serialises Apply, and with it the writes of the persisted
	// index: one change set at a time, merges included.
	applyMu sync.Mutex
	mu      sync.RWMutex
	ix      *engine.Index
	version string
	sources []record.Source

	// The persisted index; st is nil for an index in memory.
	st    *store.Store
	dir   string
	seq   uint64 // the store's sequence number the index reflects
	write bool   // the store is writable: keep the files current
	log   *slog.Logger
	state string              // how it was opened (IndexState.State)
	tombs map[string]tombFile // tombstone files written, by segment file
	// kicking is set while a catch-up a search asked for runs.
	kicking atomic.Bool
	// background: merges run in a goroutine (mergeSoon), for an index
	// that outlives the change set; merging is set while one runs, bg
	// counts them, closing stops the next.
	background bool
	merging    atomic.Bool
	closing    atomic.Bool
	bg         sync.WaitGroup

	// catMu serialises building the catalogue of a new version; cat is the
	// one of the version last asked for.
	catMu sync.Mutex
	cat   atomic.Pointer[Catalog]

	// origin says where the database came from, for reports and tables.
	origin string
	// ownStore: the store was opened by OpenStore, and Close closes it.
	ownStore bool
	// shared: the process's embedded sample, which Close leaves open.
	shared bool
	// opened is how long the store's index took to open (OpenStore).
	opened time.Duration
	// adm is the admission every index the database installs searches
	// under; nil leaves them under engine.DefaultAdmitter.
	adm *engine.Admitter
}

// New returns a Database in memory over records that come from elsewhere
// than a store (data files, the embedded sample, a subset of a store).
func New(recs []*record.Record, sources []record.Source, version string) *Database {
	return &Database{ix: engine.NewIndex(recs), sources: sources, version: version}
}

// Load opens the screening index of st: the persisted one beside it when
// it reflects the store's current version; caught up by replaying the
// store's change log when the store is ahead and the log covers the gap;
// otherwise (missing, damaged, of another format, or a gap the log does
// not cover) rebuilt from the store's records, with one log line saying
// why. A writable store gets the files written and a change hook that
// keeps them current after every commit, whoever writes; a read-only one
// gets a stale index caught up in memory, nothing written.
func Load(st *store.Store) (*Database, error) {
	return Open(st, Options{})
}

// Options are what Open is given; the zero value is Load's.
type Options struct {
	// Log takes the index's lines; nil means slog.Default.
	Log *slog.Logger
	// Admitter is the admission of heavy queries the database's searches
	// run under, shared with the heavy work of its caller (long reports,
	// media calls); nil means engine.DefaultAdmitter.
	Admitter *engine.Admitter
}

// Open is Load with options.
func Open(st *store.Store, opts Options) (*Database, error) {
	d, err := open(st, opts.Log, nil)
	if err != nil {
		return nil, err
	}
	if opts.Admitter != nil {
		d.mu.Lock()
		d.adm = opts.Admitter
		d.ix.SetAdmitter(d.adm)
		d.mu.Unlock()
	}
	if d.write {
		d.background = true
		st.OnApply(d.hook)
		st.OnImport(d.startImport)
	}
	return d, nil
}

// open opens the index of st; a full import's build, when given, is
// installed instead of what the files hold.
func open(st *store.Store, log *slog.Logger, b *importBuild) (*Database, error) {
	if log == nil {
		log = slog.Default()
	}
	d := &Database{st: st, dir: IndexDir(st.Path()), write: !st.ReadOnly(), log: log, tombs: map[string]tombFile{}}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()
	if d.write {
		removeStaleBuilds(d.dir)
	}
	first := true
	if b != nil {
		ok, err := d.installImport(b)
		if err != nil {
			log.Warn("the screening index built during the import was not used; building it from the store", "err", err)
		}
		first = !ok
	}
	if err := d.catchUp(first); err != nil {
		return nil, fmt.Errorf("screening index: %w", err)
	}
	why, err := d.countAgrees()
	if err == nil && why != "" {
		err = d.rebuild(why)
	}
	if err != nil {
		d.ix.Close()
		return nil, fmt.Errorf("screening index: %w", err)
	}
	return d, nil
}

// Follower keeps the persisted index of a store current for a process
// that writes the store without answering from it (import, apply, sync):
// the index is opened when first needed and brought to every version the
// store commits, and a full import builds it from the records as the
// store reads them.
type Follower struct {
	st  *store.Store
	log *slog.Logger
	mu  sync.Mutex
	d   *Database // nil until first needed
}

// Follow returns the Follower of st, a store opened to write; register it
// once, where the store is opened. A read-only store gets one that does
// nothing but open the index on demand.
func Follow(st *store.Store, log *slog.Logger) *Follower {
	if log == nil {
		log = slog.Default()
	}
	f := &Follower{st: st, log: log}
	if st.ReadOnly() {
		return f
	}
	st.OnImport(f.startImport)
	st.OnApply(func(tx *store.Tx, a *store.Applied) error {
		tx.OnCommit(func() { f.committed(a) })
		return nil
	})
	return f
}

// Index returns the index at the store's current version, opening it
// when first needed: monitoring scores changed records with it. Inside a
// write transaction, that is the version before the change set.
func (f *Follower) Index() (*engine.Index, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.d == nil {
		d, err := open(f.st, f.log, nil)
		if err != nil {
			return nil, err
		}
		f.d = d
	}
	return f.d.Index(), nil
}

// committed brings the index to the version a committed.
func (f *Follower) committed(a *store.Applied) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var err error
	if f.d == nil {
		f.d, err = open(f.st, f.log, ownBuild(a, IndexDir(f.st.Path())))
	} else {
		err = f.d.Apply(f.st, a)
	}
	if err != nil {
		f.log.Error("screening index not updated; the next open catches it up", "err", err)
	}
}

// startImport decides whether a full import builds the index as it is
// read (store.OnImport): unless the index on disk is current with a
// store that holds records, in which case the import's change set is
// applied to it afterwards.
func (f *Follower) startImport(version string) store.ImportTap {
	f.mu.Lock()
	d := f.d
	f.mu.Unlock()
	if d != nil {
		return d.startImport(version)
	}
	dir := IndexDir(f.st.Path())
	if m, err := readManifest(dir); err == nil && m.Records > 0 && m.StoreID == f.st.ID() {
		if cur, seq, err := f.st.Current(); err == nil && cur.ID == m.StoreVersion && seq == m.StoreSeq {
			return nil
		}
	}
	return startImportBuild(dir, version)
}

// startImport is the Database's store.OnImport function: see
// Follower.startImport.
func (d *Database) startImport(version string) store.ImportTap {
	cur, seq, err := d.st.Current()
	d.mu.RLock()
	current := err == nil && d.ix != nil && d.ix.Len() > 0 && cur.ID == d.version && seq == d.seq
	d.mu.RUnlock()
	if current {
		return nil
	}
	return startImportBuild(d.dir, version)
}

// ownBuild returns the import build that followed a, if it is one of the
// index in dir.
func ownBuild(a *store.Applied, dir string) *importBuild {
	if a == nil {
		return nil
	}
	if b, ok := a.Import.(*importBuild); ok && b != nil && b.dir == dir {
		return b
	}
	return nil
}

// hook runs inside every transaction that changes the store's records and
// brings the index to the new version once it commits.
func (d *Database) hook(tx *store.Tx, a *store.Applied) error {
	tx.OnCommit(func() {
		if err := d.Apply(d.st, a); err != nil {
			d.log.Error("screening index not updated; the next change or open catches it up", "err", err)
		}
	})
	return nil
}

// Close releases the index's segments once no search holds them, after
// a merge under way ended, and closes the store OpenStore opened. The
// embedded sample (OpenSample) stays open for the rest of the process.
func (d *Database) Close() {
	if d.shared {
		return
	}
	d.closing.Store(true)
	d.bg.Wait()
	d.mu.RLock()
	if d.ix != nil {
		d.ix.Close()
	}
	d.mu.RUnlock()
	if d.ownStore {
		d.st.Close()
	}
}

// WaitMerges waits for a merge of segments running in the background
// (a server's index merges after the change set that made segments pile
// up): what status and metrics say afterwards is the merged state.
func (d *Database) WaitMerges() { d.bg.Wait() }

// Index returns the current index. After a full import it is a new one:
// callers take it per query rather than keeping it.
func (d *Database) Index() *engine.Index {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix
}

// Admitter returns the admission the database's searches run under:
// heavy work of its caller (a long report) takes its slots with Acquire.
func (d *Database) Admitter() *engine.Admitter { return d.Index().Admitter() }

// Version returns the File-Version the index is at.
func (d *Database) Version() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.version
}

// Sources returns the source catalogue (which may not list every source of
// the records; Catalog adds those of the index).
func (d *Database) Sources() []record.Source {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.sources
}

// Changes turns what the store applied into the change set for the index.
// Effects count, not types: an UPDATE of an unknown id was an ADD.
func Changes(a *store.Applied) []record.Change {
	out := make([]record.Change, 0, len(a.Changes))
	for _, c := range a.Changes {
		switch c.Effect {
		case store.EffectAdd, store.EffectUpdate:
			out = append(out, record.Change{Type: c.Effect, Record: *c.After})
		case store.EffectDelete:
			out = append(out, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: c.ID}})
		}
	}
	return out
}

// Apply brings the index to the version st committed as a. For an index
// in memory a change set is applied in place and a full import reloads
// it; a persisted index is caught up with the store (the change set as a
// new segment, or a replay of the change log, or a rebuild) and its files
// written. Queries see the old or the new version, never a mix. Applying
// a change set the index already holds does nothing.
func (d *Database) Apply(st *store.Store, a *store.Applied) error {
	if a == nil {
		return nil
	}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()
	if d.closing.Load() {
		// Closed while still registered on its store: nothing to keep
		// current. An import's build is dropped.
		if b := ownBuild(a, d.dir); b != nil {
			b.Abort(nil)
		}
		return nil
	}
	if d.st != nil {
		if b := ownBuild(a, d.dir); b != nil {
			if _, err := d.installImport(b); err != nil {
				d.log.Warn("the screening index built during the import was not used; building it from the store", "err", err)
			}
		}
		return d.catchUp(false)
	}
	if a.Full {
		fresh, err := loadInMemory(st)
		if err != nil {
			return err
		}
		d.mu.Lock()
		if d.adm != nil {
			fresh.ix.SetAdmitter(d.adm)
		}
		d.ix, d.version, d.sources = fresh.ix, fresh.version, fresh.sources
		d.mu.Unlock()
		return nil
	}
	// The index merges its segments as they pile up (engine.PlanMerge).
	ix := d.Index()
	ix.Apply(Changes(a))
	srcs, err := st.Sources()
	if err != nil {
		return fmt.Errorf("load sources: %w", err)
	}
	d.mu.Lock()
	d.ix, d.version, d.sources = ix, a.Version, srcs
	d.mu.Unlock()
	return nil
}

// loadInMemory builds an index in memory, records kept, from the current
// version of st.
func loadInMemory(st *store.Store) (*Database, error) {
	n, err := st.Count()
	if err != nil {
		return nil, fmt.Errorf("load store: %w", err)
	}
	bl := engine.NewBuilder(n)
	v, err := st.LoadAll(func(r *record.Record) error {
		bl.Add(r)
		return nil
	})
	ix := bl.Finish()
	if err != nil {
		return nil, fmt.Errorf("load store: %w", err)
	}
	srcs, err := st.Sources()
	if err != nil {
		return nil, fmt.Errorf("load sources: %w", err)
	}
	return &Database{ix: ix, sources: srcs, version: v.ID}, nil
}
