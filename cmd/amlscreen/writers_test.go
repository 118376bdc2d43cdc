package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestEveryWriterNotifies: every command that changes a store's records
// (apply, import, import --merge, sync) writes the monitoring
// notifications of its change in the same run, because the store runs the
// hooks openStoreToWrite registers: no command passes them itself. Each
// step adds a record named as the profile and the outbox grows.
func TestEveryWriterNotifies(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme","webhook_url":"http://127.0.0.1:1/hook"}]`), 0o600)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	olga := func(id, source string) string {
		return `{"id":"` + id + `","sourceId":"` + source + `","sourceType":"SANCTION","entityType":"INDIVIDUAL","name":"Olga Ivanova"}`
	}
	base, err := os.ReadFile(monitorFixtures + "records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	queued := func() int {
		_, out, _ := runStoreCLI(t, "monitor", "outbox", "--store", db)
		m := regexp.MustCompile(`queued (\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("monitor outbox: %q", out)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	run := func(args ...string) {
		t.Helper()
		if code, out, errs := runStoreCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errs)
		}
	}
	run("import", "--store", db, monitorFixtures+"records.jsonl", "--version", "v1")
	run("monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "c-1", "--names", "Olga Ivanova")

	// A small upstream for sync: its full file is the base plus one more
	// Olga; its delta endpoint knows no previous version.
	var mu sync.Mutex
	full := string(base) + olga("S1", "ofac_sdn") + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/getSourceList":
			w.Write([]byte(`[]`))
		case "/v1/getConsolidatedFile":
			w.Header().Set("File-Version", "2025-01-05T00:00:00Z~5")
			w.Write([]byte(full))
		case "/v1/getConsolidatedDelta":
			w.WriteHeader(404)
			w.Write([]byte(`{"error_message":"Provided previous version does not exist."}`))
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	t.Setenv(apiKeyEnv, "cli-key")

	steps := []struct {
		name string
		args []string
	}{
		{"apply", []string{"apply", "--store", db, write("d.jsonl", `{"type":"ADD","record":`+olga("A1", "ofac_sdn")+"}\n"), "--previous", "v1", "--version", "v2"}},
		{"import --merge", []string{"import", "--store", db, "--merge", write("mine.jsonl", olga("my:1", "my_list")+"\n"), "--version", "v3"}},
		{"import", []string{"import", "--store", db, write("full.jsonl", string(base)+olga("A1", "ofac_sdn")+"\n"+olga("I1", "ofac_sdn")+"\n"), "--version", "v4"}},
		{"sync", []string{"sync", "--store", db, "--upstream", srv.URL, "--allow-shrink"}},
	}
	for _, s := range steps {
		before := queued()
		run(s.args...)
		if after := queued(); after <= before {
			t.Errorf("%s: outbox %d → %d: the change of an Olga Ivanova record notified no one", s.name, before, after)
		}
		// The persisted screening index followed the commit.
		if _, out, _ := runStoreCLI(t, "status", "--store", db, "--format", "json"); !strings.Contains(out, `"state": "current"`) {
			t.Errorf("%s: the screening index is not current:\n%s", s.name, out)
		}
	}
	if t.Failed() {
		return
	}
	// The merged source survived the full import and the sync.
	_, out, _ := runStoreCLI(t, "check", "--store", db, "--names", "Olga Ivanova", "--format", "json")
	if !strings.Contains(out, `"my:1"`) {
		t.Errorf("after import and sync the merged record my:1 is gone: %s", out)
	}
	if _, out, _ := runStoreCLI(t, "status", "--store", db); !strings.Contains(words(out), "Local sources my_list (1 records), kept by full imports") || !strings.Contains(words(out), "Screening index current: 1 segments") {
		t.Errorf("status does not name the local source:\n%s", out)
	}
}
