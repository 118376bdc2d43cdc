// Package engine answers checkIndividual, checkEntity and checkName over an
// in-memory consolidated database, with the rules of docs/MATCHING.md "Name
// matching" and "Filters".
//
// Two matchers share one contract: Index, built for speed (a token
// dictionary with posting lists, an n-gram index over the dictionary for
// fuzzy look-ups, per-name-string token sets for the exact pairing rule),
// and Brute, written for clarity, which checks every record in turn. Tests
// and benchmarks hold them to identical answers.
//
// Both answer two match modes: the strict rule of docs/MATCHING.md (the
// default) and, with Query.Match set to Scored, scored mode (scored.go),
// which scores partial and variant matches and returns those at or above
// a threshold, each with its score and reason.
//
// Every front end reads query values with this package's parsers
// (params.go) and the same limits, and every check's work is bounded: the
// pairing of words is polynomial (assign.go), a search honours its
// context (SearchContext), and heavy queries share a few engine-wide slots
// (admit.go) so that they cannot take every core from normal checks.
//
// The engine knows no storage and no HTTP: records come in as
// record.Record values and change sets.
package engine

import (
	"fmt"
	"strings"

	"github.com/amlscreen/amlscreen/country"
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

// compiled is a validated query with its filters parsed.
type compiled struct {
	Query
	text      string // Names or SearchAll
	searchAll bool
	dob       date
	hasDOB    bool
	gender    string // MALE, FEMALE or ""
	cit       string // upper-case code or ""
	limit     int
	// variants are the query's token lists: raw for individuals, with
	// legal forms canonicalised for every other record type.
	raw, legal [][]string
	// onlyLegal: the query is nothing but legal forms and matches nothing.
	onlyLegal bool
	// minScore is scored mode's threshold, the default filled in.
	minScore float64
}

// compile validates q. Every rule here is shared by Index and Brute.
func compile(q Query) (*compiled, error) {
	c := &compiled{Query: q}
	switch {
	case q.Names != "" && q.SearchAll != "":
		return nil, &ParamError{Param: "names", Msg: "names and search_all cannot be combined"}
	case q.Names == "" && q.SearchAll == "":
		return nil, &ParamError{Param: "names", Msg: "one of names or search_all is required"}
	case q.Names != "":
		c.text = q.Names
	default:
		c.text, c.searchAll = q.SearchAll, true
	}
	if err := checkText(c.searchAll, c.text); err != nil {
		return nil, err
	}
	if q.Fuzzy < 0 || q.Fuzzy > 2 {
		return nil, &ParamError{Param: "fuzzy_search", Msg: fmt.Sprintf("%d is not 0, 1 or 2", q.Fuzzy)}
	}
	if q.DOB != "" {
		d, err := ParseQueryDate(q.DOB)
		if err != nil {
			return nil, &ParamError{Param: "dob", Msg: err.Error()}
		}
		c.dob, c.hasDOB = d, true
	}
	var err error
	if c.gender, err = ParseGender(q.Gender); err != nil {
		return nil, err
	}
	if c.cit, err = ParseCitizenship(q.Citizenship); err != nil {
		return nil, err
	}
	c.limit = q.Limit
	if c.limit <= 0 {
		c.limit = DefaultLimit
	}
	ms, err := checkScored(&q)
	if err != nil {
		return nil, err
	}
	c.minScore = ms
	c.raw, c.legal = queryVariants(c.text)
	param := "names"
	if c.searchAll {
		param = "search_all"
	}
	if len(c.raw) == 0 || len(c.raw[0]) == 0 {
		return nil, &ParamError{Param: param, Msg: fmt.Sprintf("%s contains no word to search for", QuoteValue(c.text))}
	}
	for _, v := range c.raw {
		// countWords mirrors the tokenizer; this catches what folding
		// might split further, so the limit holds for the words searched.
		if len(v) > MaxTextWords {
			return nil, &ParamError{Param: param, Msg: fmt.Sprintf("%d words, more than the %d allowed", len(v), MaxTextWords)}
		}
	}
	c.onlyLegal = allLegal(c.legal)
	return c, nil
}

// kindAllows reports whether a record of entity type et may be returned by
// a check of kind k. An empty entity type counts as UNKNOWN.
func kindAllows(k Kind, et string) bool {
	switch k {
	case Individual:
		return et == "INDIVIDUAL" || et == "UNKNOWN" || et == ""
	case Entity:
		return et == "ENTITY" || et == "UNKNOWN" || et == ""
	}
	return true
}

// usesLegalForms reports whether names of a record of entity type et have
// their legal forms canonicalised: every record that is not an individual.
func usesLegalForms(et string) bool { return et != "INDIVIDUAL" }

// genderAllows: records of the asked gender, UNKNOWN and without gender
// pass.
func genderAllows(want, got string) bool {
	if want == "" {
		return true
	}
	switch got {
	case "MALE", "FEMALE":
		return got == want
	}
	return true
}

// citizenshipAllows: records whose citizenship holds the code or a
// country name that maps to it, and records without citizenship, pass.
func citizenshipAllows(want string, got []string) bool {
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

// Validate checks q against the rules of docs/MATCHING.md without searching:
// it returns the *ParamError a search would.
func Validate(q Query) error {
	_, err := compile(q)
	return err
}
