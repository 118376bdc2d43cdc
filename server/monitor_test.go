package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

// The monitoring fixtures: six records and a delta that adds, updates and
// deletes some of them (see ../monitor/testdata).
const monitorTestdata = "../monitor/testdata/"

// TestMonitorEndpoints drives the four monitoring endpoints over HTTP, then
// a delta, then the sender, and verifies every webhook with the key the
// server publishes at /v1/keys/{kid}.
func TestMonitorEndpoints(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	in, err := os.Open(monitorTestdata + "records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := syncer.ImportFile(st, in, "v0", nil); err != nil {
		t.Fatal(err)
	}
	in.Close()
	ring, err := sign.OpenKeyring(filepath.Join(dir, "signing"))
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var hooks [][]byte
	var sigs []string
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooks = append(hooks, b)
		sigs = append(sigs, r.Header.Get(sign.HeaderName))
		mu.Unlock()
		if r.Header.Get("x-api-key") != "mon-key" {
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	defer rc.Close()

	quota := int64(3)
	keys := []*access.Key{
		{Key: "mon-key", Name: "mon", ProfileQuota: &quota, WebhookURL: rc.URL + "/hook"},
		{Key: "plain-key", Name: "plain"},
	}
	m := monitor.New(st, monitor.Options{})
	db, err := screen.Load(st)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := New(Config{DB: db, Store: st, Keys: keys, Signer: ring, Endpoints: MonitorEndpoints(m), ProfileCount: m.Count})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	get := func(key, path string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	steps := []struct {
		key, path string
		status    int
	}{
		{"mon-key", "/v1/registerIndividual?profile_id=p1&names=Olga+Ivanova", 200},
		{"mon-key", "/v1/registerEntity?profile_id=p2&names=Acme+Trading+LLC&fuzzy_search=1", 200},
		{"mon-key", "/v1/registerIndividual?names=Olga", 400},
		{"mon-key", "/v1/registerIndividual?profile_id=p9&names=Olga&dob=32/01/2000", 400},
		{"mon-key", "/v1/registerIndividual?profile_id=p9&names=Olga&fuzzy_search=5", 400},
		{"mon-key", "/v1/registerIndividual?profile_id=p9&names=Olga&search_all=Olga", 400},
		{"mon-key", "/v1/registerIndividual?profile_id=p3&names=John+Smith", 200},
		{"mon-key", "/v1/registerIndividual?profile_id=p4&names=Maria+Gonzalez", 429},
		{"mon-key", "/v1/registerIndividual?profile_id=p1&names=Olga+Ivanova&gender=female", 200}, // update at quota
		{"mon-key", "/v1/removeSearchProfile?profile_id=p3", 200},
		{"mon-key", "/v1/removeSearchProfile?profile_id=p3", 200},
		{"mon-key", "/v1/removeSearchProfile", 400},
		{"plain-key", "/v1/testWebhookDelivery?profile_id=x", 400},
		{"mon-key", "/v1/testWebhookDelivery?profile_id=sample-1", 200},
		{"", "/v1/registerIndividual?profile_id=p1&names=x", 401},
	}
	for _, s := range steps {
		status, body := get(s.key, s.path)
		if status != s.status {
			t.Fatalf("%s: %d %s, want %d", s.path, status, body, s.status)
		}
		if status == 200 && body != `{"status":"success"}` {
			t.Fatalf("%s: body %s", s.path, body)
		}
	}
	status, body := get("mon-key", "/v1/usage")
	var u Usage
	if err := json.Unmarshal([]byte(body), &u); status != 200 || err != nil ||
		u.Summary.ProfilesRegistered == nil || *u.Summary.ProfilesRegistered != 2 || *u.Summary.ProfilesQuota != 3 {
		t.Fatalf("usage %d %s", status, body)
	}

	f, err := os.Open(monitorTestdata + "delta1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a, err := syncer.ApplyFile(st, f, "v0", "v1", m.Hook())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Apply(st, a); err != nil {
		t.Fatal(err)
	}

	s := &monitor.Sender{Store: monitor.SharedStore(st), Recipients: srv.WebhookRecipient, Signer: ring, Timeout: time.Second}
	if err := s.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	v := sign.NewVerifier(sign.HTTPFetcher(ts.URL, "mon-key", nil), 0)
	for i, b := range hooks {
		var n struct {
			ProfileID string `json:"profile_id"`
			MatchType string `json:"match_type"`
			Entity    struct {
				ID string `json:"id"`
			} `json:"entity"`
		}
		json.Unmarshal(b, &n)
		got = append(got, n.ProfileID+" "+n.MatchType+" "+n.Entity.ID)
		if err := v.Verify(context.Background(), b, sigs[i]); err != nil {
			t.Errorf("webhook %s: %v", b, err)
		}
	}
	sort.Strings(got)
	want := []string{"p1 ADD R7", "p2 UPDATE R3", "p2 UPDATE R4", "sample-1 ADD SAMPLE0000000001"}
	if len(got) != len(want) {
		t.Fatalf("webhooks %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("webhooks %v, want %v", got, want)
		}
	}
}
