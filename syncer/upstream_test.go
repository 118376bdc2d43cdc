package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

func TestNormalizeUpstream(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"https://api.example.com", "https://api.example.com", ""},
		{"https://api.example.com/", "https://api.example.com", ""},
		{"https://api.example.com/v1", "https://api.example.com", ""},
		{"https://api.example.com/v1/", "https://api.example.com", ""},
		{"http://primary:8080/aml/v1", "http://primary:8080/aml", ""},
		{"http://primary:8080/v1x", "http://primary:8080/v1x", ""},
		{"", "", "no upstream"},
		{"api.example.com", "", "http:// or https://"},
		{"ftp://api.example.com", "", "http:// or https://"},
		{"https://", "", "no host"},
		{"https://api.example.com/?x=1", "", "query"},
		{"https://user:secret@api.example.com", "", "AMLSCREEN_API_KEY"},
	} {
		got, err := NormalizeUpstream(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %q, %v; want an error about %s", c.in, got, err, c.err)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("%q: the error shows the password: %v", c.in, err)
		}
	}
}

// TestSyncUpstreamEndingInV1: a base URL given with /v1 syncs, asking for
// /v1/..., not /v1/v1/...
func TestSyncUpstreamEndingInV1(t *testing.T) {
	up, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	c := testClient(srv, &logs, &sleeps, nil)
	c.Upstream = srv.URL + "/v1/"
	res, err := c.Sync(context.Background(), openStore(t))
	if err != nil || !res.Full || res.Sources != 2 {
		t.Fatalf("%+v, %v\n%s", res, err, logs.String())
	}
	for _, call := range up.calls {
		if strings.HasPrefix(call, "v1/") {
			t.Errorf("asked for /v1/%s", call)
		}
	}
}

// TestSyncWrongBaseURL: a base URL under which the upstream has no API
// fails at once with a message that says what to fix.
func TestSyncWrongBaseURL(t *testing.T) {
	_, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	c := testClient(srv, &logs, &sleeps, nil)
	c.Upstream = srv.URL + "/api"
	_, err := c.Sync(context.Background(), openStore(t))
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "--upstream must be the base URL") {
		t.Fatalf("got %v", err)
	}
	if len(sleeps) != 0 {
		t.Errorf("retried %d times", len(sleeps))
	}
}

// TestSyncFollowsAnnouncedLimit: the client counts downloads against the
// limit the upstream announces (0: none) instead of the service's 50, keeps
// counting every poll, remembers the limit between runs, and forgets it
// for another upstream or an answer that announces none.
func TestSyncFollowsAnnouncedLimit(t *testing.T) {
	up, srv := newUpstream(t)
	up.limit = "0"
	var logs bytes.Buffer
	var sleeps []time.Duration
	now := time.Date(2025, 2, 3, 1, 0, 0, 0, time.UTC)
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, &now)
	const polls = store.DailyDownloadLimit + 10
	for i := range polls {
		res, err := c.Sync(context.Background(), db)
		if err != nil {
			t.Fatalf("poll %d: %v", i+1, err)
		}
		if res.DownloadLimit == nil || *res.DownloadLimit != 0 {
			t.Fatalf("poll %d: limit %v", i+1, res.DownloadLimit)
		}
	}
	if n, _ := db.DownloadsToday(now); n != polls {
		t.Errorf("%d downloads counted for %d polls", n, polls)
	}
	if st, _ := db.SyncState(); st.DownloadLimit == nil || *st.DownloadLimit != 0 {
		t.Errorf("sync state limit %v", st.DownloadLimit)
	}

	// The next day the upstream allows 3: the first poll learns it.
	now = now.Add(24 * time.Hour)
	up.limit = "3"
	for i := range 3 {
		if _, err := c.Sync(context.Background(), db); err != nil {
			t.Fatalf("poll %d of 3: %v", i+1, err)
		}
	}
	calls := len(up.calls)
	if _, err := c.Sync(context.Background(), db); !errors.Is(err, store.ErrDownloadLimit) || !strings.Contains(err.Error(), "3 of 3") {
		t.Fatalf("fourth poll: %v", err)
	}
	if got := up.calls[calls:]; slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "getConsolidated") }) {
		t.Errorf("downloads past the announced limit: %v", got)
	}

	// Another upstream, which announces nothing: the service's 50 apply.
	_, other := newUpstream(t)
	c.Upstream = other.URL
	res, err := c.Sync(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if res.DownloadLimit != nil {
		t.Errorf("limit %d kept for another upstream", *res.DownloadLimit)
	}
	if st, _ := db.SyncState(); st.DownloadLimit != nil {
		t.Errorf("sync state keeps limit %d", *st.DownloadLimit)
	}
}

func TestMinInterval(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, c := range []struct {
		limit *int
		want  time.Duration
	}{
		{nil, 32 * time.Minute},
		{n(50), 32 * time.Minute},
		{n(0), 0},
		{n(1), 24 * time.Hour},
		{n(10), 2*time.Hour + 40*time.Minute},
		{n(1000), 2 * time.Minute},
	} {
		if got := MinInterval(c.limit); got != c.want {
			label := "nil"
			if c.limit != nil {
				label = fmt.Sprint(*c.limit)
			}
			t.Errorf("MinInterval(%s) = %v, want %v", label, got, c.want)
		}
	}
}

// TestSyncRemovesLeftoverParts: a sync removes the temporary files an
// interrupted sync of its store left, and old ones named as earlier
// versions named them, but not another store's nor a recent old-style one
// (another process may be writing it).
func TestSyncRemovesLeftoverParts(t *testing.T) {
	_, srv := newUpstream(t)
	db := openStore(t)
	dir := filepath.Dir(db.Path())
	files := map[string]bool{ // name: removed
		"amlscreen-store.db-getConsolidatedFile-123.part": true,
		"amlscreen-store.db-getConsolidatedDelta-77.part": true,
		"amlscreen-getConsolidatedFile-old.part":          true,
		"amlscreen-getConsolidatedFile-recent.part":       false,
		"amlscreen-other.db-getConsolidatedFile-1.part":   false,
		"amlscreen-store.db-x-getConsolidatedFile-1.part": false,
		"notes.part": false,
		"amlscreen-store.db-getConsolidatedFile-keep.json": false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * legacyPartAge)
	if err := os.Chtimes(filepath.Join(dir, "amlscreen-getConsolidatedFile-old.part"), old, old); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	var sleeps []time.Duration
	if _, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
	if !strings.Contains(logs.String(), "files=3") {
		t.Errorf("removal not logged:\n%s", logs.String())
	}
	// The sync's own download left nothing behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, known := files[e.Name()]; !known && strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
