package ui

import (
	"net/url"
	"strings"
	"testing"
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
