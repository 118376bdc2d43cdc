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
// default) and, with query.Query.Match set to query.Scored, scored mode (scored.go),
// which scores partial and variant matches and returns those at or above
// a threshold, each with its score and reason.
//
// Every front end reads query values with package query's parsers and
// the same limits, and every check's work is bounded: the
// pairing of words is polynomial (assign.go), a search honours its
// context (SearchContext), and heavy queries share a few engine-wide slots
// (admit.go) so that they cannot take every core from normal checks.
//
// The engine knows no storage and no HTTP: records come in as
// record.Record values and change sets.
package engine

import (
	"github.com/amlscreen/amlscreen/query"
)

// compiled is a validated query with its filters parsed.
type compiled struct {
	query.Query
	text      string // Names or SearchAll
	searchAll bool
	dob       query.Date
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

// compile validates q with query.Parse, so Index and Brute share every
// rule with the front ends.
func compile(q query.Query) (*compiled, error) {
	p, err := query.Parse(q)
	if err != nil {
		return nil, err
	}
	return &compiled{
		Query: q, text: p.Text, searchAll: p.SearchAll,
		dob: p.DOB, hasDOB: p.HasDOB, gender: p.Gender, cit: p.Citizenship,
		limit: p.Limit, raw: p.Raw, legal: p.Legal,
		onlyLegal: allLegal(p.Legal), minScore: p.MinScore,
	}, nil
}

// usesLegalForms reports whether names of a record of entity type et have
// their legal forms canonicalised: every record that is not an individual.
func usesLegalForms(et string) bool { return et != "INDIVIDUAL" }
