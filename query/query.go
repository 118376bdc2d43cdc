// Package query is the request vocabulary of a check: the Query a front
// end builds, its Kind and match mode, the parsers of every parameter,
// the limits, and the filter rules on dob, gender and citizenship.
//
// It is apart from the matcher so that front ends (the server, the CLI,
// batch, monitoring) can read and check parameters without importing the
// search engine. Every front end reads values with these parsers, so a
// value is accepted or refused the same way wherever it is given.
package query

import (
	"fmt"
	"strings"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/record"
)

// Kind selects the check: which entity types a query may return.
type Kind uint8

const (
	// Any is checkName: every entity type.
	Any Kind = iota
	// Individual is checkIndividual: INDIVIDUAL and UNKNOWN.
	Individual
	// Entity is checkEntity: ENTITY and UNKNOWN.
	Entity
)

// ParseKind reads "individual", "entity" or "any" (the CLI's --type).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(s) {
	case "", "any", "name":
		return Any, nil
	case "individual":
		return Individual, nil
	case "entity":
		return Entity, nil
	}
	return Any, &ParamError{Param: "type", Msg: fmt.Sprintf("%s is not individual, entity or any", QuoteValue(s))}
}

// String returns the name ParseKind reads back.
func (k Kind) String() string {
	switch k {
	case Individual:
		return "individual"
	case Entity:
		return "entity"
	}
	return "any"
}

// DefaultLimit is the most records a check returns (docs/API.md "Limits").
const DefaultLimit = 1000

// Query is one check. Exactly one of Names and SearchAll is set.
type Query struct {
	Kind      Kind
	Names     string // matched against name strings only
	SearchAll string // matched against all text fields of a record
	Fuzzy     int    // 0, 1 or 2: edits allowed per token (capped by length)
	DOB       string // dd/mm/yyyy with 00 for unknown parts; "" for none
	Gender    string // male, female, m or f, any case; "" for none (ParseGender)
	// Citizenship is an ISO 3166-1 alpha-2 code or alias, any case; ""
	// for none (ParseCitizenship).
	Citizenship string
	// Sources restricts hits to these source ids; nil means every source.
	Sources map[string]bool
	// Limit caps the returned hits; 0 means DefaultLimit. Total counts all.
	Limit int
	// Match chooses the strict rule (the default) or scored mode.
	Match MatchMode
	// MinScore is scored mode's threshold in (0, 1]; 0 means
	// DefaultMinScore. It must be 0 in strict mode.
	MinScore float64
}

// ParamError is a query parameter that breaks the rules of docs/MATCHING.md.
// The server answers it with 400, the CLI with exit code 2.
type ParamError struct {
	Param string // the API parameter name, e.g. "dob"
	Msg   string
}

func (e *ParamError) Error() string { return e.Param + ": " + e.Msg }

// KindAllows reports whether a record of entity type et may be returned by
// a check of kind k. An empty entity type counts as UNKNOWN. The matcher
// and monitoring's prefilter both apply it, so they cannot disagree.
func KindAllows(k Kind, et string) bool {
	switch k {
	case Individual:
		return et == record.EntityIndividual || et == record.EntityUnknown || et == ""
	case Entity:
		return et == record.EntityEntity || et == record.EntityUnknown || et == ""
	}
	return true
}

// GenderAllows reports whether a record of gender got passes the filter
// want (as ParseGender returns it). Records of the asked gender, UNKNOWN
// and without gender pass: a list that does not say is no evidence.
func GenderAllows(want, got string) bool {
	if want == "" {
		return true
	}
	switch got {
	case "MALE", "FEMALE":
		return got == want
	}
	return true
}

// CitizenshipAllows reports whether a record with citizenship entries got
// passes the filter want (as ParseCitizenship returns it). Records whose
// citizenship holds the code or a country name that maps to it pass, and
// so do records without citizenship.
func CitizenshipAllows(want string, got []string) bool {
	if want == "" || len(got) == 0 {
		return true
	}
	for _, g := range got {
		if c, ok := country.Code(g); ok && c == want {
			return true
		}
	}
	return false
}
