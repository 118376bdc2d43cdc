package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/monitor"
)

// TestScoredScreening: the screening form's scored mode finds the
// middle-name variant the strict mode misses and shows its score and why;
// the PDF report of it is made in the same mode. The fixture list has five
// records, so every word is weak evidence: the threshold is 0.3.
func TestScoredScreening(t *testing.T) {
	b := newBench(t)
	c := b.signedIn(t, keyA)
	strict := c.screen("ivan sergeyevich petrov")
	if strict.status != 200 || strings.Contains(strict.body, "R1 ·") {
		t.Fatalf("strict: %d, R1 found:\n%s", strict.status, strict.body)
	}
	r := c.screen("ivan sergeyevich petrov", "mode", "scored", "min_score", "0.3")
	if r.status != 200 {
		t.Fatalf("scored: %d\n%s", r.status, r.body)
	}
	for _, want := range []string{"R1 ·", `<th scope="col">Score</th>`, `<td class="score">0.`, "unpaired query: sergeyevich",
		"scored, min score 0.3", `<option value="scored" selected>`, `value="0.3"`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("scored page lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("page:\n%s", r.body)
	}
	rep := c.get("/ui/report?" + url.Values{"names": {"ivan sergeyevich petrov"}, "type": {"individual"}, "mode": {"scored"}, "min_score": {"0.3"}}.Encode())
	if rep.status != 200 || !strings.HasPrefix(rep.body, "%PDF-") {
		t.Errorf("scored report: %d", rep.status)
	}
}

// TestScoredProfileListed: a profile registered with match=scored is
// listed as scored, and its "Screen now" screens in scored mode at its
// threshold.
func TestScoredProfileListed(t *testing.T) {
	b := newBench(t)
	c := b.signedIn(t, keyA)
	p := monitor.Params{ID: "s-1", Kind: engine.Individual, Names: "Ivan Sergeyevich Petrov", Match: engine.Scored, MinScore: 0.3}
	if _, _, err := b.mon.Register(access.KeyID(keyA), p, access.Policy{}, -1); err != nil {
		t.Fatal(err)
	}
	page := c.get("/ui/monitoring")
	if !strings.Contains(page.body, "scored, min score 0.3") || !strings.Contains(page.body, "mode=scored") {
		t.Errorf("monitoring page lacks the scored profile:\n%s", page.body)
	}
}
