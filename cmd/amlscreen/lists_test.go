package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/amlscreen/amlscreen/lists"
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
	} {
		if code, _, _ := runStoreCLI(t, bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, exitUsage)
		}
	}
}
