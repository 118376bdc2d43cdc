package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/sign"
)

func TestMonitoringPage(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	save := func(form url.Values) response {
		form.Set("csrf", c.csrf())
		return c.post("/ui/profile/save", form)
	}
	r := save(url.Values{"profile_id": {"C-1001"}, "type": {"individual"}, "names": {"Ivan Petrov"}, "dob": {"12/03/1960"}, "fuzzy": {"1"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("register: %d\n%s", r.status, r.body)
	}
	page := c.get("/ui/monitoring")
	if !strings.Contains(page.body, "Registered profile C-1001.") || !strings.Contains(page.body, "born 12/03/1960") {
		t.Errorf("profile not listed:\n%s", page.body)
	}
	// The API's rules and messages.
	r = save(url.Values{"profile_id": {"C-1002"}, "type": {"individual"}, "names": {"Maria"}, "dob": {"1975"}})
	if r.status != http.StatusBadRequest || !strings.Contains(r.body, "dob:") || !strings.Contains(r.body, `value="Maria"`) {
		t.Errorf("bad dob: %d", r.status)
	}
	r = save(url.Values{"profile_id": {"C-1003"}, "type": {"entity"}, "names": {"Acme"}, "dob": {"01/01/2000"}})
	if r.status != http.StatusBadRequest || !strings.Contains(r.body, "An entity profile takes no date of birth") {
		t.Errorf("entity with dob: %d", r.status)
	}
	// Edit: the form comes filled, the save updates.
	edit := c.get("/ui/monitoring?edit=C-1001")
	if !strings.Contains(edit.body, "Edit profile C-1001") || !strings.Contains(edit.body, `value="Ivan Petrov"`) {
		t.Errorf("edit form not filled")
	}
	r = save(url.Values{"editing": {"1"}, "profile_id": {"C-1001"}, "type": {"individual"}, "names": {"Ivan Petrovich Petrov"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("update: %d", r.status)
	}
	ps, _ := b.mon.Profiles(access.KeyID(keyA))
	if len(ps) != 1 || ps[0].Names != "Ivan Petrovich Petrov" || ps[0].DOB != "" {
		t.Errorf("profiles after edit: %+v", ps)
	}
	if r := c.get("/ui/monitoring?edit=nope"); r.status != http.StatusNotFound {
		t.Errorf("edit of an unknown profile: %d", r.status)
	}

	// A test notification waits in the queue, then is delivered.
	var fail atomic.Bool
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if fail.Load() {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer rc.Close()
	r = c.post("/ui/profile/test", url.Values{"csrf": {c.csrf()}, "profile_id": {"C-1001"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("test webhook: %d\n%s", r.status, r.body)
	}
	if p := c.get("/ui/monitoring").body; !strings.Contains(p, "<strong>1</strong> pending") {
		t.Errorf("the test notification is not pending:\n%s", p)
	}
	b.send(t, rc.URL, time.Hour)
	p := c.get("/ui/monitoring").body
	if !strings.Contains(p, "<strong>0</strong> pending") || !strings.Contains(p, "<strong>1</strong> delivered") || !strings.Contains(p, "SAMPLE0000000001") {
		t.Errorf("not delivered:\n%s", p)
	}
	// Key B has no webhook: the API's message.
	other := b.signedIn(t, keyB)
	if r := other.post("/ui/profile/test", url.Values{"csrf": {other.csrf()}, "profile_id": {"x"}}); r.status != http.StatusBadRequest || !strings.Contains(r.body, "no webhook_url") {
		t.Errorf("test webhook without a webhook: %d", r.status)
	}

	// A notification given up becomes a dead letter; requeue sends it
	// again. Key B cannot requeue it.
	fail.Store(true)
	c.post("/ui/profile/test", url.Values{"csrf": {c.csrf()}, "profile_id": {"C-1001"}})
	b.send(t, rc.URL, time.Nanosecond)
	p = c.get("/ui/monitoring").body
	if !strings.Contains(p, "<strong>1</strong> dead letter") || !strings.Contains(p, "HTTP 500") {
		t.Fatalf("no dead letter:\n%s", p)
	}
	seq := regexp.MustCompile(`name="seq" value="(\d+)"`).FindStringSubmatch(p)[1]
	if r := other.post("/ui/outbox/requeue", url.Values{"csrf": {other.csrf()}, "seq": {seq}}); r.status != http.StatusNotFound {
		t.Errorf("key B requeues key A's dead letter: %d", r.status)
	}
	if r := other.post("/ui/outbox/requeue", url.Values{"csrf": {other.csrf()}, "seq": {"all"}}); r.status != http.StatusSeeOther {
		t.Errorf("key B's requeue all: %d", r.status)
	}
	if st, _ := monitor.NewOutbox(b.st).Stats(); st.Dead != 1 {
		t.Fatalf("key B's requeue all moved key A's dead letter: %+v", st)
	}
	if r := c.post("/ui/outbox/requeue", url.Values{"csrf": {c.csrf()}, "seq": {"x"}}); r.status != http.StatusBadRequest {
		t.Errorf("requeue of a bad number: %d", r.status)
	}
	if r := c.post("/ui/outbox/requeue", url.Values{"csrf": {c.csrf()}, "seq": {seq}}); r.status != http.StatusSeeOther {
		t.Fatalf("requeue: %d\n%s", r.status, r.body)
	}
	if p := c.get("/ui/monitoring").body; !strings.Contains(p, "Requeued 1 dead letter") || !strings.Contains(p, "<strong>1</strong> pending") {
		t.Errorf("not requeued:\n%s", p)
	}

	// Remove.
	if r := c.post("/ui/profile/remove", url.Values{"csrf": {c.csrf()}, "profile_id": {"C-1001"}}); r.status != http.StatusSeeOther {
		t.Fatalf("remove: %d", r.status)
	}
	if p := c.get("/ui/monitoring").body; !strings.Contains(p, "Removed profile C-1001.") || !strings.Contains(p, "No profiles yet") {
		t.Errorf("not removed")
	}
}

// send delivers what is queued once, to url, giving notifications up
// after giveUp.
func (b *bench) send(t *testing.T, url string, giveUp time.Duration) {
	t.Helper()
	ring, err := sign.OpenKeyring(filepath.Join(t.TempDir(), "signing"))
	if err != nil {
		t.Fatal(err)
	}
	s := &monitor.Sender{Store: monitor.SharedStore(b.st), Signer: ring, Backoff: monitor.Backoff{GiveUp: giveUp},
		Recipients: func(string) (monitor.Recipient, error) { return monitor.Recipient{URL: url, APIKey: keyA}, nil },
		OnAttempt:  b.deliveries.Note}
	if err := s.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestDataPage(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	c.screen("ivan petrov")
	p := c.get("/ui/data")
	for _, want := range []string{v0, "OFAC Specially Designated Nationals", "pep_es", "Billed calls</dt><dd>1</dd>", "never synced"} {
		if !strings.Contains(p.body, want) {
			t.Errorf("data page lacks %q", want)
		}
	}
	// Both sources are of the key's defaults; a key that excludes one
	// sees it marked so.
	if got := strings.Count(p.body, "<td>yes</td>"); got != 2 {
		t.Errorf("%d sources marked in the defaults, want 2", got)
	}
	keys := testKeys()
	keys[1].ExcludedSources = []string{"pep_es"}
	if err := b.srv.SetKeys(keys); err != nil {
		t.Fatal(err)
	}
	p = b.signedIn(t, keyB).get("/ui/data")
	for _, want := range []string{"<td>yes</td>", `<span class="muted">no</span>`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("data page lacks %q", want)
		}
	}
}
