package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/amlscreen/amlscreen/decision"
)

// TestSampleBanner: while Config.Sample says the database is the
// embedded sample, every page (signed in or not, errors too) shows the
// banner; when it says otherwise, none does.
func TestSampleBanner(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	var sample atomic.Bool
	h := Handler(Config{Now: b.clock.now, Sample: sample.Load, Backend: NewBackend(Deps{
		API: b.srv.Handler(), Keys: b.srv, DB: b.db, Store: b.st, Monitor: b.mon,
		Decisions: decision.New(b.st, decision.Options{}), Deliveries: b.deliveries,
	})})
	mux := http.NewServeMux()
	mux.Handle(Prefix, h)
	mux.Handle("/", b.srv.Handler())
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	pages := []string{"/ui/signin", "/ui/screen", "/ui/screen?type=individual&names=Nobody+Anywhere", "/ui/monitoring", "/ui/data", "/ui/record/no-such-id"}
	banner := `id="sample-banner"`
	for _, on := range []bool{true, false} {
		sample.Store(on)
		c := b.client(t)
		c.base = ts.URL
		if page := c.get(pages[0]); strings.Contains(page.body, banner) != on {
			t.Errorf("sample %v: %s shows the banner: %v", on, pages[0], !on)
		}
		if r := c.signIn(keyA); r.status != http.StatusSeeOther {
			t.Fatalf("sign-in: %d %s", r.status, r.body)
		}
		for _, p := range pages[1:] {
			r := c.get(p)
			if r.status == 0 || strings.Contains(r.body, banner) != on {
				t.Errorf("sample %v: %s (%d) shows the banner: %v", on, p, r.status, !on)
			}
			if on && !strings.Contains(r.body, "SAMPLE DATA — not a screening.") {
				t.Errorf("%s: the banner does not say what it is", p)
			}
		}
	}
}
