package screen

import (
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Caller is whose default sources a check applies (the rule of
// access.Sources): an API key's, kept per key and catalogue, when Key is
// set; else Sources, the command line's --include-other.
type Caller struct {
	Key     *access.Key
	Sources access.Sources
}

// ResolveIncludes turns an includes parameter into a source set: the union
// of the listed source ids and, for the selector "included", the sources
// included by default. An empty list means the default. A source id that
// known does not recognise is an *query.ParamError naming it (the first
// few, each cut short). A list of more than query.MaxIncludes entries is
// refused before any is looked up.
func ResolveIncludes(list string, known func(id string) bool, included []string) (map[string]bool, error) {
	if n := strings.Count(list, ",") + 1; n > query.MaxIncludes {
		return nil, &query.ParamError{Param: "includes", Msg: fmt.Sprintf("%d entries, more than the %d allowed", n, query.MaxIncludes)}
	}
	set := make(map[string]bool)
	if strings.TrimSpace(list) == "" {
		list = "included"
	}
	var unknown []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
		case s == "included":
			for _, id := range included {
				set[id] = true
			}
		case known(s):
			set[s] = true
		default:
			unknown = append(unknown, s)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		unknown = slices.Compact(unknown)
		const shown = 5
		names := make([]string, 0, shown)
		for _, id := range unknown[:min(len(unknown), shown)] {
			names = append(names, query.QuoteValue(id))
		}
		msg := "unknown source id " + strings.Join(names, ", ")
		if len(unknown) > shown {
			msg += fmt.Sprintf(" and %d more", len(unknown)-shown)
		}
		return nil, &query.ParamError{Param: "includes", Msg: msg}
	}
	return set, nil
}

// Catalog is what the default-source rule knows of one database version:
// every source id, of the records and of the stored source catalogue, with
// its type. A Database builds one per version (it costs a map of the
// sources) and shares it; it is safe for concurrent use and keeps each
// key's defaults, so that resolving a request's sources takes no lock and
// no sort.
type Catalog struct {
	types map[string]string
	keys  sync.Map // *access.Key → *Defaults

	// version and ix are what the catalogue was built from: a Database
	// builds the next one when either moved.
	version string
	ix      *engine.Index
	// entries is the catalogue as getSourceList serves it, made when first
	// asked: counting the sizes walks every record's source.
	entries func() []record.Source
}

// Defaults are the sources a key includes by default, as a set and as a
// sorted list. Both are shared: read only.
type Defaults struct {
	Set  map[string]bool
	List []string
}

// NewCatalog returns the catalogue of the sources of records (id → type
// of the records, upper case, as engine.Index.SourceTypes and a walk of
// the records give it) and of the stored catalogue listed, whose entries
// fill in the sources no record has yet. recordTypes is kept: the caller
// must not change it afterwards.
func NewCatalog(recordTypes map[string]string, listed []record.Source) *Catalog {
	if recordTypes == nil {
		recordTypes = map[string]string{}
	}
	for _, s := range listed {
		if s.Source == "" {
			continue
		}
		if _, ok := recordTypes[s.Source]; !ok {
			recordTypes[s.Source] = strings.ToUpper(s.SourceType)
		}
	}
	return &Catalog{types: recordTypes, entries: func() []record.Source { return nil }}
}

// Known reports whether id is a source of the catalogue.
func (c *Catalog) Known(id string) bool {
	_, ok := c.types[id]
	return ok
}

// Type returns the source type of id (upper case), "" when unknown.
func (c *Catalog) Type(id string) string { return c.types[id] }

// Types returns every source id with its type: the catalogue's own map,
// shared, so read only.
func (c *Catalog) Types() map[string]string { return c.types }

// Len returns the number of sources.
func (c *Catalog) Len() int { return len(c.types) }

// Included lists, sorted, the sources s includes by default.
func (c *Catalog) Included(s access.Sources) []string { return s.IncludedIn(c.types) }

// Defaults returns the sources k includes by default, computed once per
// key and catalogue.
func (c *Catalog) Defaults(k *access.Key) *Defaults {
	if d, ok := c.keys.Load(k); ok {
		return d.(*Defaults)
	}
	d := newDefaults(c.Included(k.Sources()))
	got, _ := c.keys.LoadOrStore(k, d)
	return got.(*Defaults)
}

func newDefaults(list []string) *Defaults {
	d := &Defaults{List: list, Set: make(map[string]bool, len(list))}
	for _, id := range list {
		d.Set[id] = true
	}
	return d
}

// Resolve resolves an includes parameter for who by the default-source
// rule. For a key, an empty one is the key's defaults (the shared set, not
// a copy); without a key nothing is kept. An unknown id is an
// *query.ParamError naming it.
func (c *Catalog) Resolve(who Caller, includes string) (map[string]bool, error) {
	if who.Key == nil {
		return ResolveIncludes(includes, c.Known, c.Included(who.Sources))
	}
	d := c.Defaults(who.Key)
	if strings.TrimSpace(includes) == "" {
		return d.Set, nil
	}
	return ResolveIncludes(includes, c.Known, d.List)
}

// Entries returns the catalogue as getSourceList serves it, sorted by id:
// the stored catalogue with sizes counted from the records, plus a derived
// entry for every source of the records it lacks. Shared: read only.
func (c *Catalog) Entries() []record.Source { return c.entries() }

// Describe returns the catalogue entries of the selected sources, sorted
// by id, for a report's list of sources searched.
func (c *Catalog) Describe(sel map[string]bool) []record.Source {
	out := make([]record.Source, 0, len(sel))
	for _, e := range c.Entries() {
		if sel[e.Source] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b record.Source) int { return strings.Compare(a.Source, b.Source) })
	return out
}

// buildCatalog returns the catalogue of ix at version, with stored the
// store's source catalogue; st (nil for a database in memory) gives the
// derived entries their last_modified.
func buildCatalog(version string, ix *engine.Index, stored []record.Source, st *store.Store, log *slog.Logger) *Catalog {
	c := NewCatalog(ix.SourceTypes(), stored)
	c.version, c.ix = version, ix
	c.entries = sync.OnceValue(func() []record.Source { return sourceEntries(c, ix, stored, st, log) })
	return c
}

// sourceEntries lists the sources of c for getSourceList: the stored
// entries first, sized from ix, then one derived from the records for
// every source the store does not list.
func sourceEntries(c *Catalog, ix *engine.Index, stored []record.Source, st *store.Store, log *slog.Logger) []record.Source {
	var out []record.Source
	sizes := ix.SourceCounts()
	listed := map[string]bool{}
	for _, e := range stored {
		if e.Source == "" || listed[e.Source] {
			continue
		}
		listed[e.Source] = true
		e.Size = sizes[e.Source]
		e.IncludedForAPIKey = nil
		out = append(out, e)
	}
	// Derived entries take last_modified from the store, which stamps the
	// sources of every import and change set in its transaction, so the
	// time survives restarts. Without a store (a data file) there is none.
	var changed map[string]time.Time
	if st != nil {
		var err error
		if changed, err = st.SourcesChanged(); err != nil {
			log.Warn("source change times", "err", err)
		}
	}
	for id, n := range sizes {
		if listed[id] {
			continue
		}
		e := record.Source{Source: id, SourceType: strings.ToLower(c.Type(id)), Size: n}
		if t, ok := changed[id]; ok {
			e.LastModified = t.UTC().Format(time.RFC3339)
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b record.Source) int { return strings.Compare(a.Source, b.Source) })
	return out
}
