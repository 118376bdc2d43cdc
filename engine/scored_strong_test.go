package engine

import (
	"math"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// strongRecords are listed names of the labelled pairs marked STRONG
// (../shared/quality/name_bench_cases.csv) and others that show the same
// rules, among generated people.
var strongRecords = []struct{ id, et, name string }{
	{"S-WB", "ENTITY", "World Bank"},
	{"S-SUNRISE", "ENTITY", "THE SUNRISE TRUST"},
	{"S-BMW", "ENTITY", "Bayerische Motoren Werke Aktiengesellschaft"},
	{"S-SPORKS", "ENTITY", "Sporks Business Corporation"},
	{"S-CASTLE", "ENTITY", "Castle Investment Holding Company"},
	{"S-STAR", "VESSEL", "GOLDEN STAR"},
	{"S-VUCIC", "INDIVIDUAL", "Aleksandar Vučić"},
	{"S-KAZEM", "INDIVIDUAL", "CHAGHAZARDY, Mohammad Kazem"},
}

// strongCases: each query finds its record at the default threshold, or
// (want "") none of strongRecords.
var strongCases = []ruleCase{
	// "the" is optional, as a legal form is.
	{"The World Bank", "S-WB", "a leading the the list lacks"},
	{"World Bank", "S-WB", "the very same words"},
	{"Sunrise Trust", "S-SUNRISE", "a the the query lacks"},
	// A company's distinctive word swapped for another is another
	// company; a word missing on one side only is not a swap.
	{"Berliner Motoren Werke Aktiengesellschaft", "", "Berliner for Bayerische: another company"},
	{"Bayerische Motoren Werke AG", "S-BMW", "the same name, the legal form abbreviated"},
	{"Sparkles Business Corporation", "", "Sparkles for Sporks"},
	{"Castle Investment Holding Co", "S-CASTLE", "another spelling of the legal form"},
	{"Silver Star", "", "a vessel's distinctive word swapped"},
	// People's names keep their rules.
	{"Aleksandar Vucic", "S-VUCIC", "diacritics stripped"},
	{"Aleksandar Vukić", "S-VUCIC", "one letter of the family name"},
	{"Mohammad Chaghazardy", "S-KAZEM", "a middle name left out"},
}

// strongWorld is strongIndexRecords with their index, built once.
func strongWorld() *searched { return sharedWorld("strong", strongIndexRecords) }

func strongIndexRecords() []*record.Record {
	recs := generated(600, 23)
	for _, s := range strongRecords {
		recs = append(recs, &record.Record{ID: s.id, SourceID: "test", SourceType: "SANCTION", EntityType: s.et, Name: s.name})
	}
	return recs
}

// TestSwapInTheReason: what a swapped word costs shows in match_reason, as
// part of the unpaired record word's contribution, so the contributions
// still add up to the logit.
func TestSwapInTheReason(t *testing.T) {
	ix := strongWorld().ix
	h, ok, err := ix.ScoreRecord(query.Query{Kind: query.Any, Names: "Berliner Motoren Werke Aktiengesellschaft", Fuzzy: 2, Match: query.Scored, MinScore: 0.01}, "S-BMW")
	if err != nil || !ok {
		t.Fatalf("no score: %v", err)
	}
	r := h.Reason
	sum := r.Complete + r.Prior + r.Offset + r.Script
	for _, p := range r.Pairs {
		sum += p.Contribution
	}
	for _, u := range r.UnpairedQuery {
		sum += u.Contribution
	}
	for _, u := range r.UnpairedRecord {
		sum += u.Contribution
	}
	if math.Abs(sum-r.Logit) > 1e-3 {
		t.Errorf("contributions add up to %v, logit %v: %+v", sum, r.Logit, r)
	}
	if len(r.UnpairedRecord) != 1 || r.UnpairedRecord[0].Contribution > -2 {
		t.Errorf("unpaired record words %+v, want bayerische with its miss and the swap", r.UnpairedRecord)
	}
}

func TestScoredStrongPairRules(t *testing.T) {
	var ours []string
	for _, s := range strongRecords {
		ours = append(ours, s.id)
	}
	checkRuleCases(t, strongWorld().ix, ours, strongCases)
}

// TestScoredStrongPairRulesAgreeWithBrute: the index and the brute-force
// reference answer the cases alike at the fuzzy levels and low
// thresholds of ruleCaseQueries, where the swapped names show.
func TestScoredStrongPairRulesAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	w := strongWorld()
	queries := ruleCaseQueries(strongCases)
	if hits := scoredAgreesWithBrute(t, w.ix, w.recs, queries); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestSubstitutedWord pins the cost of a word swapped in a name that is
// not an individual's: Substitute times the cheaper side's miss, only
// when each side leaves exactly one word that is not optional unpaired.
func TestSubstitutedWord(t *testing.T) {
	logit := func(person bool, m, n int, kOpt uint64) float64 {
		sh := nameShape{m: m, n: n, lambda: 5, person: person, kOpt: kOpt}
		for range m {
			sh.qMiss = append(sh.qMiss, 1.5)
		}
		for range n {
			sh.kMiss = append(sh.kMiss, 0.7)
		}
		edges := []edge{
			{q0: 0, q1: -1, k0: 0, k1: -1, kind: kindExact, sim: 1, value: 4},
			{q0: 1, q1: -1, k0: 1, k1: -1, kind: kindExact, sim: 1, value: 4},
		}
		return assignmentLogit(&sh, edges).logit
	}
	for _, c := range []struct {
		why  string
		m, n int
		kOpt uint64
		cost float64
	}{
		{"one word swapped", 3, 3, 0, model.Substitute * 0.7},
		{"two query words against one record word", 4, 3, 0, 0},
		{"two words against two", 4, 4, 0, 0},
		{"a word only the query has", 3, 2, 0, 0},
		{"two words only the record has", 2, 4, 0, 0},
		{"a legal form against a word", 3, 3, 1 << 2, 0},
	} {
		if d := logit(true, c.m, c.n, c.kOpt) - logit(false, c.m, c.n, c.kOpt); math.Abs(d-c.cost) > 1e-9 {
			t.Errorf("%s: a company's name pays %v more than a person's, want %v", c.why, d, c.cost)
		}
	}
}
