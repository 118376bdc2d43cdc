package engine

import (
	"math"
	"testing"
)

// TestRelate pins which word pairs scored mode accepts, and as what, at
// each fuzzy level.
func TestRelate(t *testing.T) {
	for _, tc := range []struct {
		q, t string
		kind [3]string // at fuzzy 0, 1, 2; "" when they do not pair
	}{
		{"putin", "putin", [3]string{"exact", "exact", "exact"}},
		{"mohamed", "muhammad", [3]string{"variant", "variant", "variant"}},
		{"oleksandr", "alexander", [3]string{"variant", "variant", "variant"}},
		{"youssef", "yusuf", [3]string{"variant", "variant", "variant"}},
		{"hassan", "hussein", [3]string{"", "", ""}},   // two classes: two names
		{"mahmoud", "muhammad", [3]string{"", "", ""}}, // share their skeleton
		{"soleimany", "soleimani", [3]string{"", "edit", "edit"}},
		{"pasichnyk", "pasechnik", [3]string{"", "sound", "edit"}},
		{"poutine", "putin", [3]string{"", "skeleton", "skeleton"}},
		{"khalil", "halil", [3]string{"variant", "variant", "variant"}},
		{"khaled", "haled", [3]string{"", "edit", "edit"}},
		{"schmidt", "shmidt", [3]string{"", "edit", "edit"}},
		{"karim", "akram", [3]string{"", "", ""}},       // a leading vowel counts
		{"li", "lu", [3]string{"", "", ""}},             // too short to differ
		{"1980", "1981", [3]string{"", "edit", "edit"}}, // numbers within the edit radius
		{"2094977", "2904977", [3]string{"", "edit", "edit"}},
		{"12", "13", [3]string{"", "", ""}},     // too short to differ
		{"~llc", "~ltd", [3]string{"", "", ""}}, // legal forms only exactly
		{"~llc", "~llc", [3]string{"exact", "exact", "exact"}},
	} {
		q, r := newTokInfo(tc.q), newTokInfo(tc.t)
		for f := 0; f <= 2; f++ {
			p, ok := relate(&q, &r, f)
			got := ""
			if ok {
				got = kindName(p.kind)
				if p.sim <= 0 || p.sim > 1 {
					t.Errorf("%s~%s fuzzy %d: similarity %v", tc.q, tc.t, f, p.sim)
				}
			}
			if got != tc.kind[f] {
				t.Errorf("%s~%s at fuzzy %d: %q, want %q", tc.q, tc.t, f, got, tc.kind[f])
			}
		}
	}
}

// TestWeightedSim: transliteration edits cost less than arbitrary ones,
// and the similarity is symmetric and 1 only for equal words.
func TestWeightedSim(t *testing.T) {
	sim := func(a, b string) float64 { return weightedSim([]rune(a), []rune(b)) }
	for _, tc := range []struct {
		a, b     string
		min, max float64
	}{
		{"putin", "putin", 1, 1},
		{"mikhaylovich", "mikhailovich", 0.97, 0.99}, // y/i
		{"hassan", "hasan", 0.95, 0.98},              // a doubled letter
		{"khalil", "halil", 0.92, 0.95},              // kh/h
		{"vladimir", "wladimir", 0.97, 0.99},         // v/w
		{"pasichnyk", "pasechnik", 0.9, 0.95},
		{"abdulrahman", "abdurrahman", 0.9, 0.97}, // l/r, a doubled letter
		{"wagner", "karner", 0.6, 0.7},            // two arbitrary letters
		{"zeng", "peng", 0.7, 0.8},
		{"abc", "", 0, 0},
	} {
		s := sim(tc.a, tc.b)
		if s < tc.min || s > tc.max || math.Abs(s-sim(tc.b, tc.a)) > 1e-12 {
			t.Errorf("%s, %s: %v (reversed %v), want %v to %v", tc.a, tc.b, s, sim(tc.b, tc.a), tc.min, tc.max)
		}
	}
	if sim("schmidt", "schmitd") <= sim("schmidt", "schmixx") {
		t.Error("a swap of adjacent letters costs as much as two substitutions")
	}
}

// TestSplitPieces: a word splits into two pieces of two runes or more.
func TestSplitPieces(t *testing.T) {
	var got []string
	splitPieces("aliakbar", func(a, b string) { got = append(got, a+"|"+b) })
	want := []string{"al|iakbar", "ali|akbar", "alia|kbar", "aliak|bar", "aliakb|ar"}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%v, want %v", got, want)
		}
	}
	splitPieces("abc", func(a, b string) { t.Errorf("abc split into %s|%s", a, b) })
}

// TestLogitFloor: a score reaches the threshold exactly when its logit
// reaches the floor, so bounds built on the floor drop nothing.
func TestLogitFloor(t *testing.T) {
	for _, ms := range []float64{0.05, 0.3, 0.5, 0.7, 0.81, 0.99, 1} {
		f := logitFloor(ms)
		for _, d := range []float64{-1e-3, -1e-7, 0, 1e-7, 1e-3} {
			ev := evaluation{logit: f + d}
			if scoreOf(ev) >= ms && d < -1e-6 {
				t.Errorf("min %v: logit %v below the floor scores %v", ms, f+d, scoreOf(ev))
			}
		}
	}
}

// TestCompleteSim: a pair within the edit radius counts towards the
// completeness term at 1 − CompleteEditCost per edit at least; others at
// their similarity.
func TestCompleteSim(t *testing.T) {
	if model.CompleteEditCost <= 0 || model.CompleteEditCost >= 0.5 {
		t.Fatalf("CompleteEditCost %v: not set", model.CompleteEditCost)
	}
	for _, tc := range []struct {
		e    edge
		want float64
	}{
		{edge{kind: kindEdit, edits: 1, sim: 0.75}, 1 - model.CompleteEditCost},
		{edge{kind: kindEdit, edits: 1, sim: 0.98}, 0.98},
		{edge{kind: kindSkeleton, edits: 3, sim: 0.8}, 0.8},
		{edge{kind: kindExact, sim: 1}, 1},
	} {
		if got := completeSim(&tc.e); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v: %v, want %v", tc.e, got, tc.want)
		}
	}
}
