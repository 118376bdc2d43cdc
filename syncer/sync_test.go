package syncer

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

const testKey = "k3y-S3CRET-never-shown"

// upstream is a loopback stand-in for the service: a full file, a chain
// of deltas, File-Version headers, gzip bodies, and scripted failures.
type upstream struct {
	t  *testing.T
	mu sync.Mutex

	current string            // version of the full file
	full    []byte            // body of getConsolidatedFile
	deltas  map[string]string // previous -> fixture of the delta to current
	gzip    bool              // answer with Content-Encoding: gzip
	sources string            // getSourceList body; "" answers 404
	limit   string            // X-Daily-Download-Limit of download answers; "" sends none
	// unknownStatus is the status of "Provided previous version does not
	// exist."; 0 sends 404, as amlscreen primaries did before they sent 400.
	unknownStatus int

	// fail lists answers to give before the normal ones, per endpoint:
	// a status, or 0 to cut the connection in the middle of the body.
	fail map[string][]int

	calls    []string // "endpoint?query" of every request
	keysSeen []string
	encSeen  []string
}

func newUpstream(t *testing.T) (*upstream, *httptest.Server) {
	u := &upstream{t: t, current: "2025-01-01T00:00:00Z~1", full: readFixture(t, "full_v1.jsonl"), deltas: map[string]string{},
		fail:    map[string][]int{},
		sources: `[{"source":"ofac-sdn","name":"OFAC SDN","source_type":"sanction","size":2,"included_for_api_key":true},{"source":"un-sc","name":"UN SC","source_type":"sanction","size":1}]`}
	srv := httptest.NewServer(u)
	t.Cleanup(srv.Close)
	return u, srv
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	endpoint := strings.TrimPrefix(r.URL.Path, "/v1/")
	u.calls = append(u.calls, endpoint+"?"+r.URL.RawQuery)
	u.keysSeen = append(u.keysSeen, r.Header.Get("x-api-key"))
	u.encSeen = append(u.encSeen, r.Header.Get("Accept-Encoding"))
	if r.Header.Get("x-api-key") != testKey {
		writeErr(w, 401, "missing or unknown API key")
		return
	}
	if f := u.fail[endpoint]; len(f) > 0 {
		u.fail[endpoint] = f[1:]
		switch f[0] {
		case 0: // promise a body, send half of it, hang up
			w.Header().Set("File-Version", u.current)
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			w.Write([]byte(`{"id":"half`))
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		case 429:
			w.Header().Set("Retry-After", "3600")
			writeErr(w, 429, "quota reached")
		case 401:
			writeErr(w, 401, "API key "+testKey+" is disabled") // an upstream that echoes the key
		default:
			writeErr(w, f[0], "temporarily unavailable")
		}
		return
	}
	if u.limit != "" && strings.HasPrefix(endpoint, "getConsolidated") {
		w.Header().Set(store.HeaderDownloadLimit, u.limit)
	}
	var body []byte
	switch endpoint {
	case "getSourceList":
		if u.sources == "" {
			writeErr(w, 404, "not found")
			return
		}
		body = []byte(u.sources)
	case "getConsolidatedFile":
		body = u.full
		w.Header().Set("File-Version", u.current)
	case "getConsolidatedDelta":
		prev := r.URL.Query().Get("previous")
		switch {
		case prev == u.current:
		case u.deltas[prev] != "":
			body = readFixture(u.t, u.deltas[prev])
		default:
			writeErr(w, cmp.Or(u.unknownStatus, 404), "Provided previous version does not exist.")
			return
		}
		w.Header().Set("File-Version", u.current)
	default:
		writeErr(w, 404, "unknown path")
		return
	}
	if u.gzip {
		w.Header().Set("Content-Encoding", "gzip")
		body = gzipped(body)
	}
	w.Write(body)
}

func writeErr(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error_message": msg})
}

func (u *upstream) callsTo(endpoint string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, c := range u.calls {
		if strings.HasPrefix(c, endpoint+"?") {
			n++
		}
	}
	return n
}

// testClient returns a client of srv that never really sleeps and logs
// into logs; sleeps records the waits it was asked for.
func testClient(srv *httptest.Server, logs *bytes.Buffer, sleeps *[]time.Duration, now *time.Time) *Client {
	c := &Client{
		Upstream: srv.URL,
		APIKey:   testKey,
		Log:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Retry: Retry{Attempts: 4, Base: 100 * time.Millisecond, Sleep: func(ctx context.Context, d time.Duration) error {
			*sleeps = append(*sleeps, d)
			return nil
		}},
	}
	if now != nil {
		c.Now = func() time.Time { return *now }
	}
	return c
}

func TestSyncFullThenChainOfDeltas(t *testing.T) {
	up, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, nil)
	ctx := context.Background()

	res, err := c.Sync(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Full || res.Version != up.current || res.Downloads != 1 || res.Sources != 2 {
		t.Fatalf("first sync: %+v", res)
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
		t.Fatalf("records %v", got)
	}
	if up.keysSeen[0] != testKey || up.encSeen[0] != "gzip" {
		t.Fatalf("request headers: key %q, Accept-Encoding %q", up.keysSeen[0], up.encSeen[0])
	}
	if src, _ := db.Sources(); len(src) != 2 || src[0].Source != "ofac-sdn" {
		t.Fatalf("catalogue %+v", src)
	}

	// The upstream moves on twice; each sync asks for the delta from the
	// stored version, the second time gzip-encoded.
	v1 := up.current
	up.current, up.deltas = "2025-01-01T06:00:00Z~2", map[string]string{v1: "delta_v1_v2.jsonl"}
	res, err = c.Sync(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if res.Full || res.Previous != v1 || res.Version != up.current || res.Applied.Added != 2 || res.Applied.Ignored != 1 {
		t.Fatalf("delta sync: %+v %+v", res, res.Applied)
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV2) {
		t.Fatalf("records after delta %v", got)
	}
	v2 := up.current
	up.current, up.deltas, up.gzip = "2025-01-01T12:00:00Z~3", map[string]string{v2: "delta_v2_v3.jsonl"}, true
	if _, err := c.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV3) {
		t.Fatalf("records after gzip delta %v", got)
	}
	if !strings.Contains(up.calls[len(up.calls)-1], "previous="+strings.ReplaceAll(v2, ":", "%3A")) {
		t.Fatalf("last call %q does not pass the stored version", up.calls[len(up.calls)-1])
	}

	// Nothing new: an empty delta with the same File-Version.
	res, err = c.Sync(ctx, db)
	if err != nil || !res.UpToDate || res.Applied != nil {
		t.Fatalf("up-to-date sync: %+v %v", res, err)
	}
	if v, _ := db.Version(); v.ID != up.current {
		t.Fatalf("version %q", v.ID)
	}
	if n, _ := db.DownloadsToday(time.Now()); n != 4 {
		t.Fatalf("downloads counted %d, want 4", n)
	}
	if st, _ := db.SyncState(); st.LastError != "" || st.LastSuccess.IsZero() || st.Upstream != srv.URL {
		t.Fatalf("sync state %+v", st)
	}
}

func TestSyncFallsBackToFullFile(t *testing.T) {
	tests := []struct {
		name     string
		prepare  func(up *upstream, c *Client, now *time.Time)
		reason   string
		askDelta bool
	}{
		{"previous unknown upstream", func(up *upstream, c *Client, now *time.Time) {}, "no longer knows", true},
		{"version older than 14 days", func(up *upstream, c *Client, now *time.Time) { *now = now.Add(15 * 24 * time.Hour) }, "longer than deltas are kept", false},
		{"includes changed", func(up *upstream, c *Client, now *time.Time) { c.Includes = "ofac-sdn,included" }, "includes changed", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up, srv := newUpstream(t)
			var logs bytes.Buffer
			var sleeps []time.Duration
			now := time.Now()
			db := openStore(t)
			c := testClient(srv, &logs, &sleeps, &now)
			if _, err := c.Sync(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			// The upstream's new full file has no delta from the stored
			// version; it lacks the last record of the old one.
			full := readFixture(t, "full_v1.jsonl")
			up.current, up.full = "v-new", full[:bytes.LastIndexByte(full[:len(full)-1], '\n')+1]
			tt.prepare(up, c, &now)
			res, err := c.Sync(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Full || !strings.Contains(res.Fallback, tt.reason) || res.Version != "v-new" {
				t.Fatalf("result %+v, want a full download because %q", res, tt.reason)
			}
			if asked := up.callsTo("getConsolidatedDelta") > 0; asked != tt.askDelta {
				t.Fatalf("asked for a delta: %v, want %v", asked, tt.askDelta)
			}
			if got := contents(t, db); len(got) != 3 {
				t.Fatalf("records after fallback: %v", got)
			}
			if tt.name == "includes changed" && !strings.Contains(up.calls[len(up.calls)-1], "includes=ofac-sdn%2Cincluded") {
				t.Fatalf("includes not passed: %v", up.calls)
			}
		})
	}
}

func TestSyncRetriesTransientFailures(t *testing.T) {
	for name, fails := range map[string][]int{"500 then success": {500}, "503 twice": {503, 503}, "connection cut mid-body": {0}} {
		t.Run(name, func(t *testing.T) {
			up, srv := newUpstream(t)
			up.fail["getConsolidatedFile"] = fails
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			res, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			if res.Downloads != len(fails)+1 || len(sleeps) != len(fails) {
				t.Fatalf("downloads %d, sleeps %v, want %d failures retried", res.Downloads, sleeps, len(fails))
			}
			// Backoff doubles from the base (plus up to a fifth of jitter).
			for i, d := range sleeps {
				base := 100 * time.Millisecond << i
				if d < base || d > base+base/5 {
					t.Fatalf("wait %d was %v, want about %v", i, d, base)
				}
			}
			if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
				t.Fatalf("records %v", got)
			}
			if !strings.Contains(logs.String(), "retrying") {
				t.Fatalf("retries not logged:\n%s", logs.String())
			}
		})
	}
	t.Run("gives up", func(t *testing.T) {
		up, srv := newUpstream(t)
		up.fail["getConsolidatedFile"] = []int{500, 500, 500, 500, 500}
		var logs bytes.Buffer
		var sleeps []time.Duration
		db := openStore(t)
		_, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db)
		if err == nil || !strings.Contains(err.Error(), "gave up after 4 attempts") || !strings.Contains(err.Error(), "500") {
			t.Fatalf("got %v", err)
		}
		if st, _ := db.SyncState(); !strings.Contains(st.LastError, "500") {
			t.Fatalf("sync state does not record the failure: %+v", st)
		}
	})
}

func TestSyncStopsOnRejection(t *testing.T) {
	tests := []struct {
		status    int
		permanent bool
		want      string
	}{
		{429, false, "quota of the API key is used up; retry after 3600 s"},
		{401, true, "API key is missing or unknown"},
		{403, true, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			up, srv := newUpstream(t)
			up.fail["getConsolidatedFile"] = []int{tt.status}
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			_, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db)
			var he *HTTPError
			if !errors.As(err, &he) || he.Status != tt.status || Permanent(err) != tt.permanent {
				t.Fatalf("got %v", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("message %q lacks %q", err, tt.want)
			}
			if len(sleeps) != 0 || up.callsTo("getConsolidatedFile") != 1 {
				t.Fatalf("retried a %d: %v", tt.status, up.calls)
			}
			if v, _ := db.Version(); v.ID != "" {
				t.Fatalf("store changed: %q", v.ID)
			}
		})
	}
}

func TestSyncDailyDownloadLimit(t *testing.T) {
	up, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	now := time.Date(2025, 2, 3, 22, 0, 0, 0, time.UTC)
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, &now)
	c.DailyLimit = 2
	for range 2 {
		if _, err := c.Sync(context.Background(), db); err != nil {
			t.Fatal(err)
		}
	}
	calls := len(up.calls)
	_, err := c.Sync(context.Background(), db)
	if !errors.Is(err, store.ErrDownloadLimit) || !strings.Contains(err.Error(), "2 of 2 downloads used today") {
		t.Fatalf("third sync: %v", err)
	}
	if up.callsTo("getConsolidatedDelta") != 1 || len(up.calls) != calls+1 {
		t.Fatalf("a download was made past the limit: %v", up.calls[calls:])
	}
	// A 5xx retry is a download too: the limit also stops retries.
	now = now.Add(3 * time.Hour) // next UTC day
	up.current = "v9"
	up.fail["getConsolidatedDelta"] = []int{500, 500, 500}
	_, err = c.Sync(context.Background(), db)
	if !errors.Is(err, store.ErrDownloadLimit) || up.callsTo("getConsolidatedDelta") != 3 {
		t.Fatalf("retries past the limit: %v, %d delta calls", err, up.callsTo("getConsolidatedDelta"))
	}
}

func TestSyncToleratesMissingCatalogue(t *testing.T) {
	for name, prepare := range map[string]func(*upstream){
		"404":      func(up *upstream) { up.sources = "" },
		"envelope": func(up *upstream) { up.sources = `{"sources":[{"source":"x"}]}` },
		"5xx":      func(up *upstream) { up.fail["getSourceList"] = []int{502, 502, 502, 502} },
	} {
		t.Run(name, func(t *testing.T) {
			up, srv := newUpstream(t)
			prepare(up)
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			res, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Full || res.Version == "" {
				t.Fatalf("data not synced: %+v", res)
			}
			if name == "envelope" && res.Sources != 1 || name != "envelope" && res.Sources != -1 {
				t.Fatalf("Sources %d", res.Sources)
			}
		})
	}
}

func TestSyncNeverShowsTheAPIKey(t *testing.T) {
	var logs bytes.Buffer
	var errs []string
	for _, fails := range []map[string][]int{
		{},
		{"getConsolidatedFile": {500, 0}},
		{"getConsolidatedFile": {401}},
		{"getSourceList": {401}},
		{"getConsolidatedFile": {429}},
		{"getConsolidatedFile": {500, 500, 500, 500}},
	} {
		up, srv := newUpstream(t)
		up.fail = fails
		var sleeps []time.Duration
		db := openStore(t)
		_, err := testClient(srv, &logs, &sleeps, nil).Sync(context.Background(), db)
		if err != nil {
			errs = append(errs, err.Error())
		}
		st, _ := db.SyncState()
		errs = append(errs, st.LastError)
	}
	if len(errs) < 4 {
		t.Fatalf("expected failures, got %v", errs)
	}
	all := logs.String() + strings.Join(errs, "\n")
	if strings.Contains(all, testKey) {
		t.Fatalf("API key shown:\n%s", all)
	}
	if !strings.Contains(all, "[api key]") {
		t.Fatalf("the echoed key was not redacted:\n%s", all)
	}
}

func TestSyncBadDeltaAppliesNothing(t *testing.T) {
	up, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, nil)
	if _, err := c.Sync(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	v1 := up.current
	up.current, up.deltas = "v2", map[string]string{v1: "bad_delta_type.jsonl"}
	_, err := c.Sync(context.Background(), db)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("got %v, want an error naming line 3", err)
	}
	if v, _ := db.Version(); v.ID != v1 {
		t.Fatalf("store moved to %q", v.ID)
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
		t.Fatalf("records %v", got)
	}
}

func TestSyncAbortsStalledDownload(t *testing.T) {
	release := make(chan struct{})
	stalls := 0
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "getSourceList") {
			writeErr(w, 404, "no")
			return
		}
		w.Header().Set("File-Version", "v1")
		mu.Lock()
		stalls++
		first := stalls == 1
		mu.Unlock()
		if first {
			w.Header().Set("Content-Length", "100000")
			w.Write([]byte(`{"id":"A1"}` + "\n"))
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Write(readFixture(t, "full_v1.jsonl"))
	}))
	defer srv.Close()
	defer close(release)
	var logs bytes.Buffer
	var sleeps []time.Duration
	c := testClient(srv, &logs, &sleeps, nil)
	c.StallTimeout = 100 * time.Millisecond
	db := openStore(t)
	if _, err := c.Sync(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "stalled") {
		t.Fatalf("stall not logged:\n%s", logs.String())
	}
	if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
		t.Fatalf("records %v", got)
	}
}

// TestSyncFailsFastWhenUnreachable: a refused connection on the first
// request of a sync (nothing listens at --upstream) fails at once, with
// a message saying what to check, instead of a minute of retries.
func TestSyncFailsFastWhenUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	var logs bytes.Buffer
	var sleeps []time.Duration
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, nil)
	c.Upstream = url
	_, err := c.Sync(context.Background(), db)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "check --upstream") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("got %v", err)
	}
	if len(sleeps) != 0 {
		t.Errorf("retried %d times", len(sleeps))
	}
	if st, _ := db.SyncState(); !strings.Contains(st.LastError, "check --upstream") {
		t.Errorf("sync state error %q", st.LastError)
	}
}

// TestSyncUpstreamDownCostsNoDownloads: an upstream that goes away after
// the catalogue (a primary restarting) is retried, and the attempts that
// never reached it do not count against the daily downloads.
func TestSyncUpstreamDownCostsNoDownloads(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every later connection is refused.
		srv.Listener.Close()
		writeErr(w, 404, "no catalogue")
	}))
	srv.Start()
	defer srv.Close()
	var logs bytes.Buffer
	var sleeps []time.Duration
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, nil)
	c.HTTP = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	_, err := c.Sync(context.Background(), db)
	if err == nil || !strings.Contains(err.Error(), "gave up after 4 attempts") || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("got %v", err)
	}
	if n, _ := db.DownloadsToday(time.Now()); n != 0 {
		t.Fatalf("%d downloads counted for requests that never reached the upstream", n)
	}
}

// TestSyncFallsBackOnEitherStatus: the service's message for an unknown
// previous version leads to the full file whether it comes with 400 (the
// service's clients expect it, and amlscreen primaries send it) or 404
// (older primaries); a 400 with another message is an error, not a
// fallback.
func TestSyncFallsBackOnEitherStatus(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusNotFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			up, srv := newUpstream(t)
			up.unknownStatus = status
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			c := testClient(srv, &logs, &sleeps, nil)
			if _, err := c.Sync(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			up.current = "v-new"
			res, err := c.Sync(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Full || !strings.Contains(res.Fallback, "no longer knows") || res.Version != "v-new" {
				t.Fatalf("result %+v, want a full download after %d", res, status)
			}
			if up.callsTo("getConsolidatedDelta") != 1 || up.callsTo("getConsolidatedFile") != 2 {
				t.Fatalf("calls %v", up.calls)
			}
		})
	}
	t.Run("another 400", func(t *testing.T) {
		up, srv := newUpstream(t)
		var logs bytes.Buffer
		var sleeps []time.Duration
		db := openStore(t)
		c := testClient(srv, &logs, &sleeps, nil)
		if _, err := c.Sync(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		up.current = "v-new"
		up.fail["getConsolidatedDelta"] = []int{http.StatusBadRequest}
		_, err := c.Sync(context.Background(), db)
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != http.StatusBadRequest {
			t.Fatalf("got %v, want the upstream's 400", err)
		}
		if up.callsTo("getConsolidatedFile") != 1 {
			t.Fatalf("a 400 without the message fell back to the full file: %v", up.calls)
		}
	})
}
