package engine

import (
	"strings"

	"github.com/amlscreen/amlscreen/record"
)

// nameStringAt returns name string slot of r, as NameStrings(r)[slot],
// building that one alone: a scored check explains up to a thousand hits,
// each by one name string, and building every name string of each record
// (labels, joined given names) was a fifth of explaining them (pprof of
// the slowest checks at a million records). ok is false past the last.
func nameStringAt(r *record.Record, slot int) (ns NameString, ok bool) {
	k := 0
	// at reports whether the next non-blank name string is the one asked.
	at := func(blank bool) bool {
		if blank {
			return false
		}
		if k == slot {
			return true
		}
		k++
		return false
	}
	if at(blank(r.Name)) {
		return NameString{Field: "name", Text: r.Name}, true
	}
	if at(blank(r.TLName)) {
		return NameString{Field: "tl_name", Text: r.TLName}, true
	}
	for i, a := range r.AliasNames {
		if at(blank(a)) {
			return NameString{Field: indexed("alias_names", i), Text: a}, true
		}
	}
	if r.EntityType == record.EntityIndividual {
		last := strings.Join(r.LastNames, " ")
		if len(r.GivenNames) > 0 || last != "" {
			givenBlank := true
			for _, g := range r.GivenNames {
				givenBlank = givenBlank && blank(g)
			}
			if at(givenBlank && blank(last)) {
				return NameString{Field: "given_names+last_names", Text: strings.TrimSpace(strings.Join(r.GivenNames, " ") + " " + last)}, true
			}
		}
		for i, g := range r.AliasGivenNames {
			if at(blank(g) && blank(last)) {
				return NameString{Field: indexed("alias_given_names", i) + "+last_names", Text: strings.TrimSpace(g + " " + last)}, true
			}
		}
	}
	alternativeNames(r, func(field func() string, text string) {
		if !ok && at(blank(text)) {
			ns, ok = NameString{Field: field(), Text: text}, true
		}
	})
	return ns, ok
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }
