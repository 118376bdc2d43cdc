package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
)

// TestScoredScreening: the screening form's scored mode finds the
// middle-name variant the strict mode misses and shows its score and why;
// the PDF report of it is made in the same mode. The fixture list has five
// records, so every word is weak evidence: the threshold is 0.3.
func TestScoredScreening(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	p := monitor.Params{ID: "s-1", Kind: query.Individual, Names: "Ivan Sergeyevich Petrov", Match: query.Scored, MinScore: 0.3}
	if _, _, err := b.mon.Register(access.KeyID(keyA), p, access.Policy{}, -1); err != nil {
		t.Fatal(err)
	}
	page := c.get("/ui/monitoring")
	if !strings.Contains(page.body, "scored, min score 0.3") || !strings.Contains(page.body, "mode=scored") {
		t.Errorf("monitoring page lacks the scored profile:\n%s", page.body)
	}
}

// TestScoredProfileEdited: the workbench's profile form registers a scored
// profile, and editing it keeps its mode and threshold (the form is filled
// in from the profile), so a save never turns it strict unasked.
func TestScoredProfileEdited(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	page := c.get("/ui/monitoring")
	form := url.Values{"csrf": {find(t, csrfRE, page.body)}, "profile_id": {"S-1"}, "type": {"individual"},
		"names": {"Ivan Sergeyevich Petrov"}, "fuzzy": {"1"}, "mode": {"scored"}, "min_score": {"0.4"}}
	if r := c.post("/ui/profile/save", form); r.status != 200 && r.status != 303 {
		t.Fatalf("save: %d\n%s", r.status, r.body)
	}
	p, err := b.mon.Get(access.KeyID(keyA), "S-1")
	if err != nil || p == nil || p.Match != query.Scored || p.MinScore != 0.4 {
		t.Fatalf("stored %+v, %v", p, err)
	}
	edit := c.get("/ui/monitoring?" + url.Values{"edit": {"S-1"}}.Encode())
	if !strings.Contains(edit.body, `<option value="scored" selected>`) || !strings.Contains(edit.body, `value="0.4"`) {
		t.Errorf("edit form does not keep the mode:\n%s", edit.body)
	}
	form.Set("mode", "strict")
	form.Set("min_score", "0.5")
	if r := c.post("/ui/profile/save", form); r.status != 400 || !strings.Contains(r.body, "min_score") {
		t.Errorf("a strict profile with a min score: %d", r.status)
	}
}
