package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The media commands: import into a store, then check and search it; and
// the same against the embedded sample without a store.

func TestMediaImportCheckSearch(t *testing.T) {
	dir := t.TempDir()
	storePath := filepath.Join(dir, "aml.db")
	file := filepath.Join(dir, "articles.jsonl")
	lines := `{"id":"n1","timestamp":"2024-05-01T10:00:00Z","language":"en","headline":"Ivan Petrov charged with money laundering","body":"<p>Prosecutors charged him.</p>","source_link":"https://x.example/1"}
{"id":"n2","timestamp":"2024-04-01T10:00:00Z","language":"de","headline":"Petrov, Ivan: Anklage wegen Mordes","body":"<p>Der Prozess beginnt.</p>","source_link":"https://x.example/2","categories":["violent_crime"]}
`
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "media", "import", "--store", storePath, file); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "media", "check", "--store", storePath, "--type", "individual", "--search-all", "ivan petrov", "--fetch-articles", "--format", "json")
	if code != exitOK {
		t.Fatalf("check: exit %d: %s", code, errs)
	}
	var resp struct {
		TotalHits     int64 `json:"total_hits"`
		NewsExposures map[string]struct {
			Category string `json:"category"`
			Hits     int64  `json:"hits"`
			Articles []struct {
				ID   string `json:"id"`
				Body string `json:"body"`
			} `json:"articles"`
		} `json:"news_exposures"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if resp.TotalHits != 2 || len(resp.NewsExposures) != 6 ||
		resp.NewsExposures["financial_crime"].Hits != 1 || resp.NewsExposures["violent_crime"].Hits != 1 {
		t.Errorf("check response %s", out)
	}
	if a := resp.NewsExposures["financial_crime"].Articles; len(a) != 1 || a[0].ID != "n1" || a[0].Body != "<p>Prosecutors charged him.</p>" {
		t.Errorf("financial_crime articles %+v", a)
	}

	code, out, errs = runCLI(t, "media", "search", "--store", storePath, "--search-all", "Иван Петров", "--format", "table")
	if code != exitOK {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "2 article(s)") || strings.Index(out, "n1") > strings.Index(out, "n2") {
		t.Errorf("search table:\n%s", out)
	}

	// A bad line: its number, and nothing applied.
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"n3","timestamp":"2025-01-01T00:00:00Z","language":"en","headline":"Ivan Petrov"}`+"\n"+`{"id":"n4"}`+"\n"), 0o600)
	code, _, errs = runCLI(t, "media", "import", "--store", storePath, bad)
	if code != exitError || !strings.Contains(errs, "line 2") {
		t.Errorf("bad import: exit %d: %s", code, errs)
	}
	code, out, _ = runCLI(t, "media", "search", "--store", storePath, "--search-all", "ivan petrov", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"total_hits":2`) {
		t.Errorf("after a failed import: %s", out)
	}
}

func TestMediaSampleCheck(t *testing.T) {
	code, out, errs := runCLI(t, "media", "check", "--type", "entity", "--search-all", "Romashka LLC", "--format", "table", "--fetch-articles", "--articles-per-category", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"embedded sample corpus", "CATEGORY", "political", "violent_crime", "DATE"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestMediaUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"media", "check", "--type", "vessel", "--search-all", "x"},
		{"media", "check", "--search-all", ""},
		{"media", "check", "--search-all", "x", "--fuzzy", "3"},
		{"media", "search", "--search-all", "x", "--cursor", "not-a-cursor"},
		{"media", "import", "x.jsonl"},
		{"media", "import", "--store", filepath.Join(t.TempDir(), "s.db")},
	} {
		if code, _, errs := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, errs)
		}
	}
}
