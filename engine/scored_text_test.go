package engine

import "testing"

func TestScoreReasonSummary(t *testing.T) {
	for _, tc := range []struct {
		r    *ScoreReason
		want string
	}{
		{nil, ""},
		{&ScoreReason{Pairs: []ScorePair{{Query: "john", Record: "john", Kind: "exact"}, {Query: "smith", Record: "smyth", Kind: "edit", Edits: 1}},
			UnpairedQuery: []ScoreWord{{Word: "michael"}}}, "john, smith~smyth (edit, 1 edit); unpaired query: michael"},
		{&ScoreReason{Pairs: []ScorePair{{Query: "LLC", Record: "LTD", Kind: "variant"}, {Query: "aliakbar", Record: "ali akbar", Kind: "joined"}},
			UnpairedRecord: []ScoreWord{{Word: "a"}, {Word: "b"}}}, "LLC~LTD (variant), aliakbar~ali akbar (joined); unpaired record: a, b"},
		{&ScoreReason{Pairs: []ScorePair{{Query: "muhammad", Record: "mohammed", Kind: "exact"}}}, "muhammad=mohammed"},
	} {
		if got := tc.r.Summary(); got != tc.want {
			t.Errorf("Summary() = %q, want %q", got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    float64
		want string
	}{{1, "1.00"}, {0.8299, "0.82"}, {0.8251, "0.82"}, {0.5, "0.50"}, {0.29, "0.29"}, {0.57, "0.57"}} {
		if got := FormatScore(tc.s); got != tc.want {
			t.Errorf("FormatScore(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
