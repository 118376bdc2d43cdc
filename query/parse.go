package query

import (
	"fmt"

	"github.com/amlscreen/amlscreen/normalize"
)

// Parsed is a query that passed every rule, with its filters read. The
// matcher searches with it, so a rule checked here holds for every search.
type Parsed struct {
	Query
	// Text is Names or SearchAll, whichever is set.
	Text      string
	SearchAll bool
	// DOB is the dob filter; HasDOB is false when the query gives none.
	DOB    Date
	HasDOB bool
	// Gender is MALE, FEMALE or "" for no filter.
	Gender string
	// Citizenship is an upper-case ISO code or "" for no filter.
	Citizenship string
	// Limit is the cap on returned hits, DefaultLimit filled in.
	Limit int
	// MinScore is scored mode's threshold, the default filled in; 0 in
	// strict mode.
	MinScore float64
	// Raw and Legal are the query's token lists, one per spelling: Raw
	// for individuals, Legal with legal forms canonicalised for every
	// other record type.
	Raw, Legal [][]string
}

// Parse checks q against the rules of docs/MATCHING.md and reads its
// filters. Every error is a *ParamError naming the parameter.
func Parse(q Query) (*Parsed, error) {
	p := &Parsed{Query: q}
	switch {
	case q.Names != "" && q.SearchAll != "":
		return nil, &ParamError{Param: "names", Msg: "names and search_all cannot be combined"}
	case q.Names == "" && q.SearchAll == "":
		return nil, &ParamError{Param: "names", Msg: "one of names or search_all is required"}
	case q.Names != "":
		p.Text = q.Names
	default:
		p.Text, p.SearchAll = q.SearchAll, true
	}
	if err := checkText(p.SearchAll, p.Text); err != nil {
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
		p.DOB, p.HasDOB = d, true
	}
	var err error
	if p.Gender, err = ParseGender(q.Gender); err != nil {
		return nil, err
	}
	if p.Citizenship, err = ParseCitizenship(q.Citizenship); err != nil {
		return nil, err
	}
	p.Limit = q.Limit
	if p.Limit <= 0 {
		p.Limit = DefaultLimit
	}
	if p.MinScore, err = q.Threshold(); err != nil {
		return nil, err
	}
	p.Raw, p.Legal = normalize.QueryVariants(p.Text, false), normalize.QueryVariants(p.Text, true)
	param := "names"
	if p.SearchAll {
		param = "search_all"
	}
	if len(p.Raw) == 0 || len(p.Raw[0]) == 0 {
		return nil, &ParamError{Param: param, Msg: fmt.Sprintf("%s contains no word to search for", QuoteValue(p.Text))}
	}
	for _, v := range p.Raw {
		// countWords mirrors the tokenizer; this catches what folding
		// might split further, so the limit holds for the words searched.
		if len(v) > MaxTextWords {
			return nil, &ParamError{Param: param, Msg: fmt.Sprintf("%d words, more than the %d allowed", len(v), MaxTextWords)}
		}
	}
	return p, nil
}

// Validate checks q against the rules of docs/MATCHING.md without
// searching: it returns the *ParamError a search would.
func Validate(q Query) error {
	_, err := Parse(q)
	return err
}
