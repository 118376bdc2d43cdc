package decision

import (
	"slices"
	"strings"

	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
)

// QueryPrefix starts every query subject.
const QueryPrefix = "q:"

// QuerySubject is the subject of a screening that names no customer or
// profile: the query itself, normalised so that the same person screened
// again finds the decisions made before.
//
//	q:KIND:FIELD=WORDS[;dob=DD/MM/YYYY][;gender=male|female][;citizenship=CC]
//
// KIND is individual, entity or any; FIELD is names or search_all; WORDS
// are the query's words as the engine matches them (case, accents and
// punctuation folded, see package normalize), sorted, since word order
// does not change what a check finds ("Putin Vladimir" and "vladimir
// PUTIN" are one subject). The filters follow in that order when given,
// in their canonical forms (gender in lower case, citizenship as the
// upper-case ISO code); checkEntity takes none, so an entity subject has
// none. fuzzy_search and includes are not part of it: they change how
// widely a check looks, not whom it looks for.
//
// The query must be valid (query.Validate); its error is returned
// otherwise.
func QuerySubject(q query.Query) (string, error) {
	if err := query.Validate(q); err != nil {
		return "", err
	}
	field, text := "names", q.Names
	if text == "" {
		field, text = "search_all", q.SearchAll
	}
	words := normalize.Words(text)
	slices.Sort(words)
	var b strings.Builder
	b.WriteString(QueryPrefix)
	b.WriteString(q.Kind.String())
	b.WriteByte(':')
	b.WriteString(field)
	b.WriteByte('=')
	b.WriteString(strings.Join(words, " "))
	if q.Kind != query.Entity {
		if dob := strings.TrimSpace(q.DOB); dob != "" {
			b.WriteString(";dob=" + dob)
		}
		if g, _ := query.ParseGender(q.Gender); g != "" {
			b.WriteString(";gender=" + strings.ToLower(g))
		}
		if c, _ := query.ParseCitizenship(q.Citizenship); c != "" {
			b.WriteString(";citizenship=" + c)
		}
	}
	s := b.String()
	if err := ValidSubject(s); err != nil {
		return "", err
	}
	return s, nil
}

// IsQuerySubject reports whether s is a query subject rather than a
// customer or profile id.
func IsQuerySubject(s string) bool { return strings.HasPrefix(s, QueryPrefix) }
