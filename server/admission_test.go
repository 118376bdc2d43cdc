package server

import (
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/media"
)

// underAdmission makes the fixture's database search under g, whose
// slots the test then takes.
func underAdmission(g *engine.Admitter) func(*Config) {
	return func(c *Config) { c.DB.Index().SetAdmitter(g) }
}

// TestScoredBusyIs503: a scored check heavy by its postings that finds no
// admission slot in time is answered 503 with Retry-After, not a 500 from
// a panic.
func TestScoredBusyIs503(t *testing.T) {
	g := engine.NewAdmitter(engine.Admission{Slots: 1, MidSlots: -1, MinCost: 1, MaxWait: 20 * time.Millisecond})
	f := newFixture(t, underAdmission(g))
	release, err := g.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	a := f.get(keyBasic, "/v1/checkName?names=vladimir+putin&match=scored")
	msg := a.errorMessage(t, 503)
	if a.Header.Get("Retry-After") != "1" || !strings.Contains(msg, "try again") {
		t.Errorf("503 %q, Retry-After %q", msg, a.Header.Get("Retry-After"))
	}
	release()
	if got := f.check(keyBasic, "/v1/checkName?names=vladimir+putin&match=scored").ids(); len(got) == 0 {
		t.Error("with the slot free the scored check finds nothing")
	}
}

// TestMediaBusyIs503: media checks and searches share the admission slots
// of heavy checks: with the only slot taken and every query heavy, they
// are answered 503 with Retry-After; with it free, in full.
func TestMediaBusyIs503(t *testing.T) {
	g := engine.NewAdmitter(engine.Admission{Slots: 1, MidSlots: -1, MinCost: 1, MaxWait: 20 * time.Millisecond})
	corpus := mediaCorpusWith(t, media.Options{Admitter: g})
	f := newFixture(t, underAdmission(g), func(c *Config) { c.Endpoints = MediaEndpoints(corpus) })
	release, err := g.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/media/checkIndividual?search_all=ivan+petrov", "/v1/media/search?search_all=ivan+petrov"} {
		a := f.get(keyBasic, path)
		msg := a.errorMessage(t, 503)
		if a.Header.Get("Retry-After") != "1" || !strings.Contains(msg, "try again") {
			t.Errorf("%s: 503 %q, Retry-After %q", path, msg, a.Header.Get("Retry-After"))
		}
	}
	release()
	for _, path := range []string{"/v1/media/checkIndividual?search_all=ivan+petrov", "/v1/media/search?search_all=ivan+petrov"} {
		if a := f.get(keyBasic, path); a.StatusCode != 200 {
			t.Errorf("%s with the slot free: %d %s", path, a.StatusCode, a.Body)
		}
	}
}

// TestReportBusyIs503: a long report waits for an admission slot of heavy
// checks before it is rendered: with the only slot taken it is answered
// 503 with Retry-After; a short one is rendered regardless.
func TestReportBusyIs503(t *testing.T) {
	g := engine.NewAdmitter(engine.Admission{Slots: 1, MidSlots: -1, MaxWait: 20 * time.Millisecond})
	defer func(n int) { reportHeavyHits = n }(reportHeavyHits)
	reportHeavyHits = 1
	f := newFixture(t, underAdmission(g))
	release, err := g.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	a := f.get(keyBasic, "/v1/generateIndividualReport?names=vladimir+putin")
	msg := a.errorMessage(t, 503)
	if a.Header.Get("Retry-After") != "1" || !strings.Contains(msg, "try again") {
		t.Errorf("503 %q, Retry-After %q", msg, a.Header.Get("Retry-After"))
	}
	if a := f.get(keyBasic, "/v1/generateIndividualReport?names=nobody+at+all"); a.StatusCode != 200 {
		t.Errorf("report without hits while the slot is taken: %d %s", a.StatusCode, a.body)
	}
}
