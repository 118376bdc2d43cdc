package main

import (
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestImportGuardCLI: import refuses an empty file and a file that would
// remove most of the store, with an ERROR line, exit 1, the store at its
// version and no webhook queued for the registered profile; with
// --allow-shrink the shrink goes through (WARN) and monitoring sees it.
func TestImportGuardCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme","webhook_url":"http://127.0.0.1:1/hook"}]`), 0o600)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte("\n \n"), 0o644)
	one := filepath.Join(dir, "one.jsonl")
	os.WriteFile(one, []byte(`{"id":"R9","name":"Someone Else"}`+"\n"), 0o644)

	steps := []struct {
		args []string
		code int
		out  string // part of stdout
		errs string // part of stderr
	}{
		{[]string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}, exitOK, "", ""},
		{[]string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-1", "--names", "Ivan Petrov"}, exitOK, "registered profile c-1", ""},
		{[]string{"import", "--store", db, empty, "--version", "v2"}, exitError, "", "no records"},
		{[]string{"import", "--store", db, empty, "--version", "v2", "--allow-shrink"}, exitError, "", "no records"},
		{[]string{"import", "--store", db, one, "--version", "v2"}, exitError, "", "--allow-shrink"},
		{[]string{"status", "--store", db}, exitOK, "Version v1", ""},
		{[]string{"monitor", "outbox", "--store", db}, exitOK, "queued 0", ""},
		{[]string{"import", "--store", db, one, "--version", "v2", "--allow-shrink"}, exitOK, "", "level=WARN"},
		{[]string{"monitor", "outbox", "--store", db}, exitOK, "queued 1", ""},
	}
	for _, s := range steps {
		code, out, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(words(out), s.out) || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", s.args, code, s.code, out, errs)
		}
		if s.code == exitError && !strings.Contains(errs, "level=ERROR") {
			t.Errorf("%v: no ERROR log line: %s", s.args, errs)
		}
	}
}

// TestExportToSpecialFiles: export writes into /dev/null and through a
// link to it (as /dev/stdout links to /proc/self/fd/1) without replacing
// them; --output, the old name of --out, still works.
func TestExportToSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatal(errs)
	}
	link := filepath.Join(dir, "stdout")
	os.Symlink("/dev/null", link)
	for _, args := range [][]string{
		{"--out", "/dev/null"},
		{"-o", link},
		{"--out", link, "--gzip"},
	} {
		if code, _, errs := runStoreCLI(t, append([]string{"export", "--store", db}, args...)...); code != exitOK {
			t.Fatalf("export %v: %s", args, errs)
		}
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("export replaced the link with a regular file")
	}
	if fi, _ := os.Stat("/dev/null"); fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}
	out := filepath.Join(dir, "full.jsonl")
	code, _, errs := runStoreCLI(t, "export", "--store", db, "--output", out)
	if b, _ := os.ReadFile(out); code != exitOK || bytes.Count(b, []byte("\n")) != 4 || !strings.Contains(errs, "deprecated") {
		t.Fatalf("--output: exit %d, %d bytes, stderr %q", code, len(b), errs)
	}
}

// TestDataFiles: a --data file saved with a byte-order mark reads; a JSON
// array (a JSON file, not JSON Lines) is refused with a plain message.
func TestDataFiles(t *testing.T) {
	dir := t.TempDir()
	small, err := os.ReadFile("testdata/small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bom := filepath.Join(dir, "bom.jsonl")
	os.WriteFile(bom, append([]byte("\ufeff"), small...), 0o644)
	if code, out, errs := runCLI(t, "check", "--data", bom, "--names", "vladimir putin", "--format", "json"); code != exitOK || !strings.Contains(out, `"total_hits":1`) {
		t.Errorf("BOM: exit %d, %s %s", code, out, errs)
	}
	arr := filepath.Join(dir, "array.json")
	os.WriteFile(arr, []byte("[\n"+`{"id":"A1","name":"Anna"}`+"\n]\n"), 0o644)
	code, _, errs := runCLI(t, "check", "--data", arr, "--names", "anna")
	if code != exitError || !strings.Contains(errs, "line 1") || !strings.Contains(errs, "expected one JSON object per line") || strings.Contains(errs, "Go value") {
		t.Errorf("array: exit %d, %q", code, errs)
	}
}

// TestSyncAllowShrinkCLI: sync refuses a full file that would remove most
// of the store (after "Provided previous version does not exist."), and
// takes it with --allow-shrink.
func TestSyncAllowShrinkCLI(t *testing.T) {
	const key = "cli-key"
	full, _ := os.ReadFile(fixtures + "full_v1.jsonl")
	var mu sync.Mutex
	version, body := "2025-01-01T00:00:00Z~1", full
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/getSourceList":
			w.Write([]byte(`[]`))
		case "/v1/getConsolidatedFile":
			w.Header().Set("File-Version", version)
			w.Write(body)
		case "/v1/getConsolidatedDelta":
			w.WriteHeader(404)
			w.Write([]byte(`{"error_message":"Provided previous version does not exist."}`))
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	t.Setenv(apiKeyEnv, key)
	db := filepath.Join(t.TempDir(), "s.db")
	if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL); code != exitOK {
		t.Fatalf("first sync: %s", errs)
	}
	mu.Lock()
	version, body = "2025-01-02T00:00:00Z~2", full[:bytes.IndexByte(full, '\n')+1]
	mu.Unlock()
	code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL)
	if code != exitError || !strings.Contains(errs, "--allow-shrink") || !strings.Contains(errs, "level=ERROR") {
		t.Fatalf("shrinking sync: exit %d: %s", code, errs)
	}
	if rep := statusJSON(t, db); rep.Records != 4 || rep.Version != "2025-01-01T00:00:00Z~1" {
		t.Fatalf("store after a refused sync: %+v", rep)
	}
	if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL, "--allow-shrink"); code != exitOK || !strings.Contains(errs, "level=WARN") {
		t.Fatalf("sync --allow-shrink: exit %d: %s", code, errs)
	}
	if rep := statusJSON(t, db); rep.Records != 1 {
		t.Fatalf("store after an allowed shrink: %+v", rep)
	}
}
