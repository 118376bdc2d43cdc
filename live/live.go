// Package live keeps an in-memory screening index current with a store:
// it loads every record of the store's version at start and then applies
// each change set the store commits, so that check, batch, the server and
// monitoring answer from the newest version without a rebuild.
//
// It is the one place that knows both the engine and the store; neither of
// those knows the other.
package live

import (
	"fmt"
	"sync"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Index is the screening index a process answers from, kept current with
// a store: the engine's index, the version it is at and the source
// catalogue. It is safe for concurrent use.
type Index struct {
	// applyMu serialises Apply, so that a compaction sees every change set
	// before it and none is applied to an index being replaced.
	applyMu sync.Mutex
	mu      sync.RWMutex
	ix      *engine.Index
	version string
	sources []record.Source
}

// New returns an Index over records that come from elsewhere than a store (data
// files, the embedded sample).
func New(recs []*record.Record, sources []record.Source, version string) *Index {
	return &Index{ix: engine.NewIndex(recs), sources: sources, version: version}
}

// Load builds an Index from the current version of st, records and version read
// in one transaction. Records are indexed as they are decoded, so reading
// the store overlaps building the index.
func Load(st *store.Store) (*Index, error) {
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
	return &Index{ix: ix, sources: srcs, version: v.ID}, nil
}

// Index returns the current index. After a full import it is a new one:
// callers take it per query rather than keeping it.
func (d *Index) Index() *engine.Index {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.ix
}

// Version returns the File-Version the index is at.
func (d *Index) Version() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.version
}

// Sources returns the source catalogue (which may not list every source of
// the records; access.NewCatalog adds those of the index).
func (d *Index) Sources() []record.Source {
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

// Apply brings the index to the version st committed as a. A change set is
// applied to the index in place; a full import, whose changes may be
// unknown, reloads the index from st and swaps it in whole. Queries see the
// old or the new version, never a mix.
func (d *Index) Apply(st *store.Store, a *store.Applied) error {
	if a == nil {
		return nil
	}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()
	if a.Full {
		fresh, err := Load(st)
		if err != nil {
			return err
		}
		d.mu.Lock()
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
