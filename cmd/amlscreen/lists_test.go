package main

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/lists"
	"github.com/amlscreen/amlscreen/sign"
)

// listsServer serves the lists package's small edition over loopback,
// with ETags, as an issuer would.
func listsServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var requests atomic.Int64
	fs := http.FileServer(http.Dir("../../lists/testdata/edition1"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("ETag", `"`+r.URL.Path+`-1"`)
		if r.Header.Get("If-None-Match") == `"`+r.URL.Path+`-1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestListsCommands(t *testing.T) {
	srv, requests := listsServer(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	conf := filepath.Join(dir, "lists.conf")
	os.WriteFile(conf, []byte("# the bank's mirror\nun="+srv.URL+"/\n"), 0o644)
	code, _, errs := runStoreCLI(t, "lists", "fetch", "ofac", "un,dpl", "--store", db, "--url", "ofac="+srv.URL+"/",
		"--url", "dpl="+srv.URL+"/dpl.txt", "--lists-file", conf)
	if code != exitOK {
		t.Fatalf("lists fetch: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "list applied") || !strings.Contains(errs, "list=ofac") {
		t.Errorf("lists fetch log:\n%s", errs)
	}
	rep := statusJSON(t, db)
	if rep.Records == 0 || rep.LocalSources["us_ofac_sdn"] == 0 || rep.LocalSources["un_sc_sanctions"] == 0 || rep.LocalSources["us_bis_dpl"] == 0 {
		t.Errorf("status after lists fetch: %+v", rep)
	}
	before := requests.Load()
	code, _, errs = runStoreCLI(t, "lists", "fetch", "ofac", "un", "dpl", "--store", db, "--url", "ofac="+srv.URL+"/",
		"--url", "dpl="+srv.URL+"/dpl.txt", "--lists-file", conf)
	if code != exitOK || strings.Count(errs, "list unchanged") != 3 || requests.Load()-before != 6 {
		t.Errorf("second lists fetch: exit %d, %d requests:\n%s", code, requests.Load()-before, errs)
	}

	code, out, errs := runStoreCLI(t, "lists", "status", "--store", db, "--format", "json")
	var states []lists.State
	if code != exitOK || json.Unmarshal([]byte(out), &states) != nil || len(states) != 3 || states[1].Name != "ofac" ||
		states[1].Records == 0 || states[1].Files[0].ETag != `"/sdn.csv-1"` {
		t.Errorf("lists status: exit %d %s\n%s", code, errs, out)
	}
	code, out, _ = runStoreCLI(t, "lists", "status", "--store", db)
	if code != exitOK || !strings.Contains(words(out), "ofac") || !strings.Contains(out, "LAST CHANGE") {
		t.Errorf("lists status table:\n%s", out)
	}

	// A failing list: exit 1, reported, the others applied.
	code, _, errs = runStoreCLI(t, "lists", "fetch", "csl", "un", "--store", db, "--url", "csl="+srv.URL+"/missing.csv", "--lists-file", conf)
	if code != exitError || !strings.Contains(errs, "1 of 2 lists not updated (csl)") {
		t.Errorf("failing list: exit %d:\n%s", code, errs)
	}

	mirror := filepath.Join(dir, "mirror")
	code, _, errs = runStoreCLI(t, "lists", "mirror", "un", "--out", mirror, "--lists-file", conf)
	if code != exitOK {
		t.Fatalf("lists mirror: exit %d: %s", code, errs)
	}
	db2 := filepath.Join(dir, "air.db")
	code, _, errs = runStoreCLI(t, "lists", "fetch", "un", "--store", db2, "--from", mirror)
	if code != exitOK || statusJSON(t, db2).LocalSources["un_sc_sanctions"] != rep.LocalSources["un_sc_sanctions"] {
		t.Errorf("lists fetch --from: exit %d: %s", code, errs)
	}

	// sync --lists without --upstream fetches the lists alone, no API key.
	db3 := filepath.Join(dir, "synced.db")
	code, _, errs = runStoreCLI(t, "sync", "--store", db3, "--lists", "un", "--lists-file", conf)
	if code != exitOK || statusJSON(t, db3).LocalSources["un_sc_sanctions"] == 0 {
		t.Errorf("sync --lists: exit %d: %s", code, errs)
	}

	code, out, _ = runStoreCLI(t, "lists", "available", "--format", "json")
	var avail []map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &avail) != nil || len(avail) < 7 {
		t.Errorf("lists available: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{
		{"lists", "fetch", "nope", "--store", db},
		{"lists", "fetch", "un"},
		{"lists", "fetch", "un", "--store", db, "--url", "un=ftp://x"},
		{"lists", "mirror", "un"},
		{"lists", "available", "--format", "xml"},
		{"sync", "--store", db, "--url", "un=https://mirror/un.xml"},
		{"sync", "--store", db, "--lists", "nope"},
		{"serve", "--store", db, "--keys", "k.json", "--lists", "nope"},
	} {
		if code, _, _ := runStoreCLI(t, bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}

// TestServeListsWebhook is the promise: a scheduled refresh under
// serve that adds a record matching a registered profile raises a signed
// webhook.
func TestServeListsWebhook(t *testing.T) {
	// The issuer: edition 1 of the OFAC fixture, then edition 2, which adds
	// NEWCO HOLDINGS.
	var edition atomic.Value
	edition.Store("../../lists/testdata/edition1")
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.FileServer(http.Dir(edition.Load().(string))).ServeHTTP(w, r)
	}))
	defer issuer.Close()
	ed2 := t.TempDir()
	for _, n := range []string{"add.csv", "alt.csv", "sdn_comments.csv", "sdn.csv"} {
		b, err := os.ReadFile(filepath.Join("../../lists/testdata/edition1", n))
		if err != nil {
			t.Fatal(err)
		}
		if n == "sdn.csv" {
			b = append([]byte(strings.TrimSuffix(string(b), "\x1a")), "1099,\"NEWCO HOLDINGS\",-0- ,\"SDGT\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n\x1a"...)
		}
		os.WriteFile(filepath.Join(ed2, n), b, 0o644)
	}

	var mu sync.Mutex
	var bodies, sigs []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies, sigs = append(bodies, string(b)), append(sigs, r.Header.Get(sign.HeaderName))
		mu.Unlock()
	}))
	defer receiver.Close()

	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	signing := filepath.Join(dir, "signing")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme","webhook_url":"`+receiver.URL+`/hook"}]`), 0o600)
	for _, args := range [][]string{
		{"lists", "fetch", "ofac", "--store", db, "--url", "ofac=" + issuer.URL + "/"},
		{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "p-1", "--names", "Newco Holdings", "--type", "entity"},
	} {
		if code, out, errs := runStoreCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	edition.Store(ed2)
	s := startServe(t, &serveFlags{store: db, keys: keys, signingKeys: signing, listen: "127.0.0.1:0", every: time.Hour,
		lists: []string{"ofac", "dpl"}, listsEvery: time.Hour,
		listsSource: listsSource{urls: []string{"ofac=" + issuer.URL + "/", "dpl=" + issuer.URL + "/missing/dpl.txt"}}})
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(bodies)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no webhook 20 s after serve started:\n%s", s.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The list that failed is named in /readyz (still 200: its previous
	// edition, here none, is screened) and in /metrics.
	for {
		resp, err := http.Get("http://" + s.addr + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"lists_failing":{"dpl":`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz %d %s: no failing dpl list", resp.StatusCode, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The list's change is swapped into the running server.
	if body := get(t, s.addr, "acme-secret", "/v1/checkName?names=newco%20holdings"); !strings.Contains(body, "OFAC-1099") {
		t.Errorf("checkName after the refresh: %s", body)
	}
	resp, err := http.Get("http://" + s.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`amlscreen_list_failing{list="dpl"} 1`, `amlscreen_list_failing{list="ofac"} 0`, `amlscreen_list_records{list="ofac"} 8`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	s.stop(t)
	ring, err := sign.LoadKeyring(signing)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var b struct {
		ProfileID string `json:"profile_id"`
		MatchType string `json:"match_type"`
		Entity    struct {
			ID string `json:"id"`
		} `json:"entity"`
	}
	if err := json.Unmarshal([]byte(bodies[0]), &b); err != nil || b.ProfileID != "p-1" || b.MatchType != "ADD" || b.Entity.ID != "OFAC-1099" {
		t.Errorf("webhook %s (%v)", bodies[0], err)
	}
	if err := sign.NewVerifier(ring.Fetch, 0).Verify(context.Background(), []byte(bodies[0]), sigs[0]); err != nil {
		t.Errorf("signature: %v", err)
	}
	if !strings.Contains(s.log(), "list applied") {
		t.Errorf("serve log:\n%s", s.log())
	}
}

// TestListsCABundle: an issuer (or a bank's mirror) whose certificate the
// machine does not trust fails at once, without retries, and --ca-bundle
// makes it trusted, as for sync.
func TestListsCABundle(t *testing.T) {
	var requests atomic.Int64
	fs := http.FileServer(http.Dir("../../lists/testdata/edition1"))
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fs.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	code, _, errs := runStoreCLI(t, "lists", "fetch", "un", "--store", db, "--url", "un="+srv.URL+"/")
	if code != exitError || !strings.Contains(errs, "--ca-bundle") || strings.Contains(errs, "retrying") {
		t.Errorf("untrusted issuer: exit %d:\n%s", code, errs)
	}
	bundle := filepath.Join(dir, "ca.pem")
	os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600)
	code, _, errs = runStoreCLI(t, "lists", "fetch", "un", "--store", db, "--url", "un="+srv.URL+"/", "--ca-bundle", bundle)
	if code != exitOK || !strings.Contains(errs, "list applied") {
		t.Errorf("with --ca-bundle: exit %d:\n%s", code, errs)
	}
}
