package access

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Sources is a caller's default-source rule: every source that is not of
// type OTHER, OTHER ones only with IncludeOther, plus Extra, minus Excluded.
// Its JSON form is the keys file's.
type Sources struct {
	IncludeOther bool     `json:"include_other,omitempty"`
	Extra        []string `json:"extra_sources,omitempty"`
	Excluded     []string `json:"excluded_sources,omitempty"`
}

// Includes reports whether a record of sourceID, whose source is of
// sourceType (upper case, as records carry it), is among the defaults.
// Excluded wins over Extra.
func (s Sources) Includes(sourceID, sourceType string) bool {
	if slices.Contains(s.Excluded, sourceID) {
		return false
	}
	if slices.Contains(s.Extra, sourceID) {
		return true
	}
	return s.IncludeOther || sourceType != record.SourceOther
}

// IncludedIn lists, sorted, the source ids of types (id → source type)
// that s includes, and the extra sources not excluded even when types does
// not know them: a key may name a source before its first record arrives.
func (s Sources) IncludedIn(types map[string]string) []string {
	set := make(map[string]bool, len(types)+len(s.Extra))
	for id, t := range types {
		if s.Includes(id, t) {
			set[id] = true
		}
	}
	for _, id := range s.Extra {
		if !slices.Contains(s.Excluded, id) {
			set[id] = true
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Policy is what a key lets a caller see: its default sources and the
// attributes its feature flags enable. Monitoring stores one with every
// search profile (its JSON is flat: the fields of Sources and Features),
// so that a change set is matched by the rule the key's checks use, also
// where no keys file is at hand.
type Policy struct {
	Sources
	Features
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
// its type. Build one per version (it costs a map of the sources) and
// share it; it is safe for concurrent use and keeps each key's defaults,
// so that resolving a request's sources takes no lock and no sort.
type Catalog struct {
	types map[string]string
	keys  sync.Map // *Key → *Defaults
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
	return &Catalog{types: recordTypes}
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
func (c *Catalog) Included(s Sources) []string { return s.IncludedIn(c.types) }

// Defaults returns the sources k includes by default, computed once per
// key and catalogue.
func (c *Catalog) Defaults(k *Key) *Defaults {
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

// Resolve resolves an includes parameter for k: the key's defaults when
// empty (the shared set, not a copy), else ResolveIncludes over this
// catalogue. An unknown id is an *query.ParamError naming it.
func (c *Catalog) Resolve(k *Key, includes string) (map[string]bool, error) {
	d := c.Defaults(k)
	if strings.TrimSpace(includes) == "" {
		return d.Set, nil
	}
	return ResolveIncludes(includes, c.Known, d.List)
}

// ResolveFor resolves an includes parameter for a caller without a key
// (the command line, whose --include-other sets s.IncludeOther): nothing
// is cached.
func (c *Catalog) ResolveFor(s Sources, includes string) (map[string]bool, error) {
	return ResolveIncludes(includes, c.Known, c.Included(s))
}
