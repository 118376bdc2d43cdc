package access

import (
	"slices"
	"sort"

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
