package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Scored mode (docs/MATCHING.md "Scored mode") is the opt-in alternative to
// the strict rule. Strict mode answers yes or no: every query word pairs
// with a different word of one name string, within the fuzzy radius.
// Scored mode scores every name string that shares evidence with the query
// and returns the records whose best name string scores at least the
// threshold:
//
//   - a query word without a partner lowers the score instead of
//     rejecting the record (John Michael Smith finds John Smith);
//   - rare words weigh more than common ones, so al, company or muhammad
//     alone never make a hit;
//   - words pair when they are the same, two spellings of one given name
//     (Mohammed, Muhammad), within the fuzzy edit radius, or at fuzzy 1 and
//     2 when they sound alike or share their consonants (Mikhaylovich,
//     Mikhailovich; Oleksandr, Aleksandr); a word also pairs with two
//     adjacent words joined (Aliakbar, Ali Akbar);
//   - a different legal form costs a little (Ltd against LLC); the order
//     of the words does not matter;
//   - the query's dob, gender and citizenship raise or lower the score of
//     a record that has them (scored_evidence.go).
//
// The model is in scored_model.go, the word pairs in scored_sim.go.

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

// checkScored validates the scored-mode fields of q and returns the
// threshold to use.
func checkScored(q *Query) (float64, error) {
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

// ScoreReason says why a record scored what it did in scored mode: the
// name string that scored best, the word pairs and what each brought, and
// the words left without a partner. Contributions are in the model's log
// units (nats); they add up to Logit, and Score = 1/(1+e^(−Logit/2))
// (1 for the very same words). It is written as the record's match_reason.
type ScoreReason struct {
	// Field names the name string ("alias_names[1]"), Name is its text.
	Field string      `json:"field"`
	Name  string      `json:"name"`
	Pairs []ScorePair `json:"pairs"`
	// UnpairedQuery and UnpairedRecord are the words without a partner,
	// each with what it cost.
	UnpairedQuery  []ScoreWord `json:"unpaired_query,omitempty"`
	UnpairedRecord []ScoreWord `json:"unpaired_record,omitempty"`
	// Complete is what a match of every word on both sides earns back of
	// the prior; Prior is minus the log of the list size (one record
	// among N is the one asked about); Offset is the model's constant.
	Complete float64 `json:"complete"`
	Prior    float64 `json:"prior"`
	Offset   float64 `json:"offset"`
	// NameScore is the score of the name alone and Evidence the query's
	// dob, gender and citizenship against the record's, when the two
	// sides give any (scored_evidence.go); their contributions are in
	// Logit too.
	NameScore float64         `json:"name_score,omitempty"`
	Evidence  []ScoreEvidence `json:"evidence,omitempty"`
	// Script is what comparing the query and the name in the script both
	// are written in took off (a different family-name character, letters
	// that romanise alike but differ); absent when nothing.
	Script float64 `json:"script,omitempty"`
	Logit  float64 `json:"logit"`
	Score  float64 `json:"score"`
}

// ScorePair is one query word (or two, joined) paired with one record word
// (or two). Kind is exact, variant, edit, sound, skeleton or joined; Edits counts the letters that differ (optimal string
// alignment); Similarity is in [0, 1]; Weight is how rare the query word
// is in the list; Contribution is what the pair added to the logit.
type ScorePair struct {
	Query        string  `json:"query"`
	Record       string  `json:"record"`
	Kind         string  `json:"kind"`
	Edits        int     `json:"edits"`
	Similarity   float64 `json:"similarity"`
	Weight       float64 `json:"weight"`
	Contribution float64 `json:"contribution"`
}

// ScoreWord is a word without a partner and what it cost (negative).
type ScoreWord struct {
	Word         string  `json:"word"`
	Contribution float64 `json:"contribution"`
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
