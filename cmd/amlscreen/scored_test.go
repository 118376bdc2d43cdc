package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoredFlagsRefused: --match and --min-score are checked alike by
// every command that takes them: exit 2 and one line naming the flag.
func TestScoredFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.csv")
	os.WriteFile(book, []byte("id,name\n1,Vladimir Putin\n"), 0o644)
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme"}]`), 0o600)
	reg := []string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--profile-id", "p", "--names", "x"}
	commands := map[string][]string{
		"check":    {"check", "--names", "x"},
		"report":   {"report", "--type", "individual", "--names", "x", "--out", filepath.Join(dir, "r.pdf")},
		"batch":    {"batch", "--in", book, "--out", filepath.Join(dir, "hits.csv")},
		"register": reg,
	}
	for name, base := range commands {
		for _, tc := range []struct {
			args []string
			flag string
		}{
			{[]string{"--match", "fuzzy"}, "--match"},
			{[]string{"--min-score", "0.9"}, "--min-score"},
			{[]string{"--match", "strict", "--min-score", "0.9"}, "--min-score"},
			{[]string{"--match", "scored", "--min-score", "0"}, "--min-score"},
			{[]string{"--match", "scored", "--min-score", "1.01"}, "--min-score"},
			{[]string{"--match", "scored", "--min-score", "high"}, "--min-score"},
		} {
			args := append(append([]string{}, base...), tc.args...)
			code, _, errs := runCLI(t, args...)
			if code != exitUsage || !strings.Contains(errs, tc.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("%s %v: exit %d, stderr %q; want exit 2 and one line naming %s", name, tc.args, code, errs, tc.flag)
			}
		}
	}
	// search_all is strict only.
	if code, _, errs := runCLI(t, "check", "--search-all", "x", "--match", "scored"); code != exitUsage || !strings.Contains(errs, "--match") {
		t.Errorf("check --search-all --match scored: exit %d, %q", code, errs)
	}
}

// TestCheckScored: check --match scored finds the middle-name variant the
// strict check misses, with match_score and match_reason in JSON and a
// SCORE column and the unpaired word in the table.
func TestCheckScored(t *testing.T) {
	args := []string{"check", "--names", "vladimir michael putin", "--fuzzy", "1"}
	code, out, errs := runCLI(t, append(args, "--format", "json")...)
	if code != exitOK || !strings.Contains(out, `"total_hits":0`) {
		t.Fatalf("strict: exit %d %s %s", code, out, errs)
	}
	code, out, errs = runCLI(t, append(args, "--format", "json", "--match", "scored")...)
	if code != exitOK {
		t.Fatalf("scored: exit %d %s", code, errs)
	}
	var resp struct {
		Total int `json:"total_hits"`
		Found []struct {
			ID     string  `json:"id"`
			Score  float64 `json:"match_score"`
			Reason struct {
				UnpairedQuery []struct {
					Word string `json:"word"`
				} `json:"unpaired_query"`
			} `json:"match_reason"`
		} `json:"found_records"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Total == 0 || resp.Found[0].Score < 0.82 || len(resp.Found[0].Reason.UnpairedQuery) != 1 || resp.Found[0].Reason.UnpairedQuery[0].Word != "michael" {
		t.Fatalf("scored answer %+v", resp)
	}
	code, out, errs = runCLI(t, append(args, "--format", "table", "--match", "scored", "--min-score", "0.85")...)
	if code != exitOK {
		t.Fatalf("scored table: exit %d %s", code, errs)
	}
	for _, want := range []string{"scored, min score 0.85", "SCORE", "unpaired query: michael", resp.Found[0].ID} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestBatchScoredCLI: batch --match scored writes the score column and
// names the mode in its report.
func TestBatchScoredCLI(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.csv")
	os.WriteFile(book, []byte("id,name\n1,Vladimir Michael Putin\n"), 0o644)
	hits := filepath.Join(dir, "hits.csv")
	code, _, errs := runCLI(t, "batch", "--in", book, "--out", hits, "--fuzzy", "1", "--match", "scored")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(hits)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) < 2 || !strings.HasSuffix(lines[0], ",reason,score") || !strings.Contains(lines[1], "unpaired query: michael") {
		t.Errorf("hits file:\n%s", b)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, "hits.report.md"))
	if !strings.Contains(string(rep), "| Match | scored, min score 0.82 |") {
		t.Errorf("report:\n%s", rep)
	}
}

// TestMonitorScoredCLI: a profile registered with --match scored is listed
// as scored and notified when apply brings a variant of its name (apply
// loads the store's index to score it); the strict profile of the same
// name is not. The fixture list has eight records, so every word is weak
// evidence: the threshold is 0.4.
func TestMonitorScoredCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"acme-secret","name":"acme"}]`), 0o600)
	reg := []string{"monitor", "register", "--store", db, "--keys", keys, "--key", "acme", "--names", "Olga Petrovna Ivanova", "--fuzzy", "1"}
	steps := []struct {
		args []string
		out  string
	}{
		{[]string{"import", "--store", db, monitorFixtures + "records.jsonl", "--version", "v1"}, ""},
		{append(reg, "--profile-id", "scored", "--match", "scored", "--min-score", "0.4"), "scored, min score 0.4"},
		{append(reg, "--profile-id", "strict"), "registered profile strict"},
		{[]string{"monitor", "list", "--store", db, "--keys", keys}, "scored, min score 0.4"},
		{[]string{"apply", "--store", db, monitorFixtures + "delta1.jsonl", "--previous", "v1", "--version", "v2"}, ""},
		{[]string{"monitor", "outbox", "--store", db, "--format", "json"}, `"queued": 1`},
	}
	for _, s := range steps {
		code, out, errs := runStoreCLI(t, s.args...)
		if code != exitOK || !strings.Contains(out, s.out) {
			t.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", s.args, code, out, errs)
		}
	}
}
