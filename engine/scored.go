package engine

import (
	"math"
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

// ScoreReason says why a record scored what it did in scored mode: the
// name string that scored best, the word pairs and what each brought, and
// the words left without a partner. Contributions are in the model's log
// units (nats); they add up to Logit, and Score = 1/(1+e^(−Logit/2))
// (1 for the very same words). It is written as the record's match_reason.
// The hits of one check whose name strings have the same words and
// pairing share their Pairs, UnpairedQuery and UnpairedRecord: read them,
// do not change them in place.
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
