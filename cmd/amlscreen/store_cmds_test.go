package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Tests of sync, import, apply, export and status, through run() as a user
// would call them. Fixtures are the syncer package's.

const fixtures = "../../syncer/testdata/"

func runStoreCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// words collapses runs of white space, so that checks do not depend on
// the table's column widths.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

func statusJSON(t *testing.T, db string) statusReport {
	t.Helper()
	code, out, errs := runStoreCLI(t, "status", "--store", db, "--format", "json")
	if code != exitOK {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	var rep statusReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, out)
	}
	return rep
}

func TestImportApplyExportStatus(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	steps := []struct {
		args []string
		code int
		errs string // part of stderr
	}{
		{[]string{"import", "--store", db, fixtures + "full_v1.jsonl", "--version", "v1"}, exitOK, "records=4"},
		{[]string{"apply", "--store", db, fixtures + "delta_v1_v2.jsonl", "--previous", "v1", "--version", "v2"}, exitOK, "ignored=1"},
		{[]string{"apply", "--store", db, fixtures + "delta_v1_v2.jsonl", "--previous", "v1", "--version", "v2"}, exitError, `already at version "v2"`},
		{[]string{"apply", "--store", db, fixtures + "bad_delta_noid.jsonl", "--previous", "v2", "--version", "v3"}, exitError, "line 2"},
		{[]string{"import", "--store", db, fixtures + "bad_full_json.jsonl"}, exitError, "line 3"},
		{[]string{"apply", "--store", db, fixtures + "delta_v2_v3.jsonl", "--previous", "v2"}, exitUsage, "--version"},
		{[]string{"import", fixtures + "full_v1.jsonl"}, exitUsage, "--store"},
		{[]string{"status", "--store", db, "--format", "xml"}, exitUsage, "--format"},
		{[]string{"status", "--store", filepath.Join(dir, "absent.db")}, exitError, "no such file"},
		{[]string{"export", "--store", db, "--since", "v0"}, exitError, "does not reach back"},
	}
	for _, s := range steps {
		code, _, errs := runStoreCLI(t, s.args...)
		if code != s.code || !strings.Contains(errs, s.errs) {
			t.Fatalf("%v: exit %d, stderr %q; want exit %d and %q", s.args, code, errs, s.code, s.errs)
		}
	}
	rep := statusJSON(t, db)
	if rep.Version != "v2" || rep.Records != 5 || rep.BySourceType["SANCTION"] != 4 || rep.ByEntityType["VESSEL"] != 1 || rep.SizeBytes == 0 {
		t.Fatalf("status %+v", rep)
	}
	code, out, _ := runStoreCLI(t, "status", "--store", db)
	for _, want := range []string{"Version v2", "Records 5", "Downloads today 0 of 50", "SANCTION 4", "INDIVIDUAL 2"} {
		if code != exitOK || !strings.Contains(words(out), want) {
			t.Fatalf("status table lacks %q:\n%s", want, out)
		}
	}

	// Export full and delta, and rebuild the store elsewhere from them.
	full, delta := filepath.Join(dir, "full.jsonl.gz"), filepath.Join(dir, "delta.jsonl")
	if code, _, errs := runStoreCLI(t, "export", "--store", db, "-o", full); code != exitOK || !strings.Contains(errs, `--version \"v2\"`) {
		t.Fatalf("export: %d %s", code, errs)
	}
	if b, _ := os.ReadFile(full); !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatal("export -o FILE.gz is not gzip")
	}
	if code, _, errs := runStoreCLI(t, "apply", "--store", db, fixtures+"delta_v2_v3.jsonl", "--previous", "v2", "--version", "v3"); code != exitOK {
		t.Fatalf("apply v3: %s", errs)
	}
	if code, _, errs := runStoreCLI(t, "export", "--store", db, "--since", "v2", "-o", delta); code != exitOK {
		t.Fatalf("export --since: %s", errs)
	}
	air := filepath.Join(dir, "air.db")
	for _, args := range [][]string{
		{"import", "--store", air, full, "--version", "v2"},
		{"apply", "--store", air, delta, "--previous", "v2", "--version", "v3"},
	} {
		if code, _, errs := runStoreCLI(t, args...); code != exitOK {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	if a, b := statusJSON(t, db), statusJSON(t, air); a.Records != b.Records || b.Version != "v3" || b.Records != 4 {
		t.Fatalf("air-gapped copy %+v, original %+v", b, a)
	}
}

func TestSyncCommand(t *testing.T) {
	const key = "cli-key-DO-NOT-PRINT"
	full, _ := os.ReadFile(fixtures + "full_v1.jsonl")
	var announce atomic.Value // X-Daily-Download-Limit of downloads, "" for none
	announce.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := announce.Load().(string); v != "" {
			w.Header().Set(store.HeaderDownloadLimit, v)
		}
		if r.Header.Get("x-api-key") != key {
			w.WriteHeader(401)
			w.Write([]byte(`{"error_message":"unknown key"}`))
			return
		}
		switch r.URL.Path {
		case "/v1/getSourceList":
			w.Write([]byte(`[{"source":"ofac-sdn","name":"OFAC"}]`))
		case "/v1/getConsolidatedFile":
			w.Header().Set("File-Version", "2025-01-01T00:00:00Z~1")
			w.Write(full)
		case "/v1/getConsolidatedDelta":
			w.Header().Set("File-Version", "2025-01-01T00:00:00Z~1")
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "s.db")

	t.Setenv(apiKeyEnv, "")
	if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL); code != exitUsage || !strings.Contains(errs, apiKeyEnv) {
		t.Fatalf("no key: exit %d %q", code, errs)
	}
	if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL, "--api-key", "wrong"); code != exitError || !strings.Contains(errs, "401") {
		t.Fatalf("wrong key: exit %d %q", code, errs)
	}
	t.Setenv(apiKeyEnv, key)
	var all strings.Builder
	for range 2 {
		code, out, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL)
		if code != exitOK {
			t.Fatalf("sync: exit %d: %s", code, errs)
		}
		all.WriteString(out + errs)
	}
	code, out, errs := runStoreCLI(t, "status", "--store", db)
	all.WriteString(out + errs)
	if code != exitOK || !strings.Contains(words(out), "Downloads today 2 of 50") || !strings.Contains(out, "1 sources") || !strings.Contains(all.String(), "up to date") {
		t.Fatalf("after two syncs:\n%s", all.String())
	}
	if strings.Contains(all.String(), key) {
		t.Fatalf("the API key was printed:\n%s", all.String())
	}
	if rep := statusJSON(t, db); rep.Version != "2025-01-01T00:00:00Z~1" || rep.Records != 4 || rep.LastSync == nil || rep.LastSync.Upstream != srv.URL {
		t.Fatalf("status %+v", rep)
	}
	// An upstream that announces no daily limit (a primary amlscreen, for
	// a replica's key), given with /v1: followed and shown.
	announce.Store("0")
	if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", srv.URL+"/v1/"); code != exitOK || !strings.Contains(errs, "without /v1") {
		t.Fatalf("sync with /v1: exit %d: %s", code, errs)
	}
	if _, out, _ := runStoreCLI(t, "status", "--store", db); !strings.Contains(words(out), "Downloads today 3 (UTC day; the upstream announces no daily limit)") {
		t.Errorf("status after a limit of 0 was announced:\n%s", out)
	}
	if rep := statusJSON(t, db); rep.DownloadLimit != 0 || rep.LastSync.Upstream != srv.URL {
		t.Errorf("status JSON %+v", rep)
	}
}

// TestSyncUpstreamMistakes: a malformed --upstream is a usage error; one
// where nothing listens fails at once (not after a minute of retries)
// with a message saying what to check.
func TestSyncUpstreamMistakes(t *testing.T) {
	t.Setenv(apiKeyEnv, "some-key")
	db := filepath.Join(t.TempDir(), "s.db")
	for _, bad := range []string{"ftp://example.com", "example.com", "https://example.com/?x=1"} {
		if code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", bad); code != exitUsage || !strings.Contains(errs, "--upstream") {
			t.Errorf("--upstream %s: exit %d, %q", bad, code, errs)
		}
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	start := time.Now()
	code, _, errs := runStoreCLI(t, "sync", "--store", db, "--upstream", closed.URL)
	if code != exitError || !strings.Contains(errs, "connection refused") || !strings.Contains(errs, "check --upstream") {
		t.Errorf("refused: exit %d, %q", code, errs)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a refused connection took %v to report", took)
	}
}

func TestStoreCommandsHaveExamples(t *testing.T) {
	for _, name := range []string{"sync", "import", "apply", "export", "status"} {
		code, out, _ := runStoreCLI(t, name, "--help")
		if code != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "amlscreen "+name) {
			t.Errorf("%s --help lacks an example:\n%s", name, out)
		}
	}
}
