package bench

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
)

// TestBackground: padding records are the generator's, after its
// hand-written seed records, with ids no list uses; padding below the
// list's size is refused.
func TestBackground(t *testing.T) {
	bg := Background(50, 3)
	g := gen.New(3)
	for i, r := range bg {
		want := g.Record(gen.SeedCount() + i)
		if r.ID != "bg-"+want.ID || r.Name != want.Name {
			t.Fatalf("background %d: %s %q, want bg-%s %q", i, r.ID, r.Name, want.ID, want.Name)
		}
	}
	if got := Generated(5, 3); got[4].ID != g.Record(4).ID || got[4].Name != g.Record(4).Name {
		t.Errorf("Generated(5) ends with %s, want the generator's record 4", got[4].ID)
	}
	list := Generated(20, 1)
	if pad, err := PadTo(list, 30, 1); err != nil || len(pad) != 10 {
		t.Errorf("PadTo 20 to 30: %d records, %v", len(pad), err)
	}
	if _, err := PadTo(list, 19, 1); err == nil {
		t.Error("padding 20 records to 19 gave no error")
	}
}

// TestQualityAlertsGrowWithTheDatabase: a clean name that shares its words
// only with a padding record alerts against the padded database and not
// against the list alone; probes come from the list alone, the customers
// that are a listed name word for word count as alerted.
func TestQualityAlertsGrowWithTheDatabase(t *testing.T) {
	smallNameLists(t)
	recs := loadFixture(t)
	bg := Background(300, 1)
	clean := []string{"Zebulon Quillfeather", bg[7].Name + " Quillfeather", recs[0].Name}
	cfg := QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{2}, Mode: ModeScored, MinScore: 0.3, Sweep: true, CleanNames: clean}
	alone, err := Quality(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Background = bg
	padded, err := Quality(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if padded.Records != len(recs)+len(bg) || padded.Background != len(bg) || alone.Records != len(recs) {
		t.Errorf("records %d (background %d), alone %d", padded.Records, padded.Background, alone.Records)
	}
	la, lp := alone.Levels[0], padded.Levels[0]
	if a, p := la.Class(ClassLeaveOneOut).Queries, lp.Class(ClassLeaveOneOut).Queries; a != p {
		t.Errorf("leave-one-out: %d queries alone, %d padded; padding must not be probed", a, p)
	}
	ca, cp := la.Class(ClassFalseClean), lp.Class(ClassFalseClean)
	if ca.WithHits != 0 || cp.WithHits != 1 {
		t.Errorf("clean names with a hit: %d alone, %d padded; want 0 and 1", ca.WithHits, cp.WithHits)
	}
	if padded.CleanNames != 3 || padded.CleanListed != 1 {
		t.Errorf("clean names %d, listed %d; want 3 and 1", padded.CleanNames, padded.CleanListed)
	}
	want := 1000 * (1.0/3 + 2.0/3**cp.FalseHitRate)
	if got := padded.CleanAlerts(*cp.FalseHitRate); math.Abs(got-want) > 1e-9 {
		t.Errorf("alerts per 1,000: %v, want %v", got, want)
	}
	for _, p := range lp.Sweep {
		if math.Abs(p.CleanAlerts-padded.CleanAlerts(p.FalseHitRate[ClassFalseClean])) > 1e-9 {
			t.Errorf("sweep at %v: %v alerts per 1,000", p.MinScore, p.CleanAlerts)
		}
	}
	var buf bytes.Buffer
	if err := padded.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"clean customers alerted per 1,000, leave-one-out recall", "per 1,000 customers, counting the 1 of 3 that are a listed name"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestCasesAlertsPerThousand: the cases that must find nothing are
// counted as alerts per 1,000, and padding the list can only add alerts.
func TestCasesAlertsPerThousand(t *testing.T) {
	recs, cases := loadCasesFixture(t)
	bg := Background(200, 1)
	cases = append(cases, Case{Line: 999, Name: bg[3].Name, Kind: 0})
	cfg := CasesConfig{Records: recs, Cases: cases, Fuzzy: []int{2}}
	alone, err := Cases(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Background = bg
	padded, err := Cases(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range padded.Levels {
		if l.AlertsPer1000 != 1000*l.FalseHitShare {
			t.Errorf("%s/%d: %v alerts per 1,000 at false-hit share %v", l.Match, l.Fuzzy, l.AlertsPer1000, l.FalseHitShare)
		}
		// The added case names a padding record word for word; other
		// cases may find padding records too.
		if l.FalseHits < alone.Levels[i].FalseHits+1 {
			t.Errorf("%s/%d: %d false hits padded, %d alone; want at least one more", l.Match, l.Fuzzy, l.FalseHits, alone.Levels[i].FalseHits)
		}
	}
	var buf bytes.Buffer
	if err := padded.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "alerts per 1,000") || !strings.Contains(buf.String(), "(200 of the records generated)") {
		t.Errorf("table lacks alerts per 1,000 or the padding:\n%s", buf.String())
	}
}

// TestRefused: the engine's refusal of a check with too many candidates
// is told apart from other parameter errors, so that the benchmarks count
// it as an alert instead of stopping.
func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&query.ParamError{Param: "names", Msg: "more than 200000 name strings could score above min_score 0.05: add words, or raise min_score"}, true},
		{fmt.Errorf("query: %w", &query.ParamError{Param: "names", Msg: "more than 200000 name strings could score"}), true},
		{&query.ParamError{Param: "names", Msg: "one of names or search_all is required"}, false},
		{&query.ParamError{Param: "min_score", Msg: "more than"}, false},
		{nil, false},
	} {
		if got := refused(tc.err); got != tc.want {
			t.Errorf("refused(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
