package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MatchMode is how a check compares names: Strict (the /v1 rule, the
// default) or Scored.
type MatchMode uint8

const (
	// Strict is the rule of docs/MATCHING.md "Name matching".
	Strict MatchMode = iota
	// Scored scores partial and variant matches (docs/MATCHING.md
	// "Scored mode").
	Scored
)

// ParseMatch reads the match parameter: "strict" (or empty) or "scored",
// in any case.
func ParseMatch(s string) (MatchMode, error) {
	switch strings.ToLower(s) {
	case "", "strict":
		return Strict, nil
	case "scored":
		return Scored, nil
	}
	return Strict, &ParamError{Param: "match", Msg: fmt.Sprintf("%s is not strict or scored", QuoteValue(s))}
}

// String returns the name ParseMatch reads back.
func (m MatchMode) String() string {
	if m == Scored {
		return "scored"
	}
	return "strict"
}

// DefaultMinScore is the threshold of scored mode when a query gives none.
// It is the lowest threshold at which, at fuzzy 2 on the OFAC SDN list of
// 2021, at most 0.5 % of clean names get a hit: 0.46 % of 7,597 names
// pooled (common personal names of twelve naming cultures, company names,
// and Wikidata people's names), where 0.80 gives 0.59 %. bench/README.md,
// "Scored mode", has the sweep and the curve it was read from.
const DefaultMinScore = 0.82

// ParseMinScore reads the min_score parameter: a number in (0, 1]. The
// empty string means the default and gives 0.
func ParseMinScore(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !validMinScore(v) {
		return 0, &ParamError{Param: "min_score", Msg: fmt.Sprintf("%s is not a number in (0, 1]", QuoteValue(s))}
	}
	return v, nil
}

func validMinScore(v float64) bool { return v > 0 && v <= 1 && !math.IsNaN(v) }

// Threshold validates the scored-mode fields of q and returns the
// threshold to use: 0 in strict mode, where a min_score is an error, and
// DefaultMinScore in scored mode when q gives none. It is the one place
// of the rule "min_score only with match=scored".
func (q *Query) Threshold() (float64, error) {
	switch q.Match {
	case Strict:
		if q.MinScore != 0 {
			return 0, &ParamError{Param: "min_score", Msg: "applies only with match=scored"}
		}
		return 0, nil
	case Scored:
	default:
		return 0, &ParamError{Param: "match", Msg: fmt.Sprintf("unknown match mode %d", q.Match)}
	}
	if q.SearchAll != "" {
		return 0, &ParamError{Param: "match", Msg: "scored matching compares names and cannot be combined with search_all"}
	}
	if q.MinScore == 0 {
		return DefaultMinScore, nil
	}
	if !validMinScore(q.MinScore) {
		return 0, &ParamError{Param: "min_score", Msg: fmt.Sprintf("%v is not in (0, 1]", q.MinScore)}
	}
	return q.MinScore, nil
}
