package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ResolveIncludes turns the includes parameter (SERVICE.md 4.1) into a
// source set: the union of the listed source ids and, for the selector
// "included", the sources included by default. An empty list means the
// default. A source id that known does not recognise is a *ParamError
// naming it (the first few, each cut short). A list of more than
// MaxIncludes entries is refused before any is looked up.
func ResolveIncludes(list string, known func(id string) bool, included []string) (map[string]bool, error) {
	if n := strings.Count(list, ",") + 1; n > MaxIncludes {
		return nil, &ParamError{Param: "includes", Msg: fmt.Sprintf("%d entries, more than the %d allowed", n, MaxIncludes)}
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
			names = append(names, QuoteValue(id))
		}
		msg := "unknown source id " + strings.Join(names, ", ")
		if len(unknown) > shown {
			msg += fmt.Sprintf(" and %d more", len(unknown)-shown)
		}
		return nil, &ParamError{Param: "includes", Msg: msg}
	}
	return set, nil
}

// SourceTypes returns, for every source id the index has seen, the
// source_type of its first record, so that callers can tell default sources
// from OTHER ones. It costs one entry per source, not a scan of records.
func (ix *Index) SourceTypes() map[string]string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]string, len(ix.sources))
	for i, id := range ix.sources {
		out[id] = ix.srcTypes[i]
	}
	return out
}
