package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckJSON(t *testing.T) {
	code, out, errs := runCLI(t, "check", "--data", "testdata/small.jsonl", "--names", "vladimir putinn", "--fuzzy", "1", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var resp struct {
		Timestamp    string           `json:"timestamp"`
		TotalHits    int              `json:"total_hits"`
		FoundRecords []map[string]any `json:"found_records"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if resp.TotalHits != 1 || len(resp.FoundRecords) != 1 || resp.FoundRecords[0]["id"] != "P1" {
		t.Errorf("response %+v", resp)
	}
	if resp.FoundRecords[0]["list_date"] != "0" || resp.FoundRecords[0]["source_id"] != "eu_fsf" {
		t.Errorf("record not in API shape: %v", resp.FoundRecords[0])
	}
	if !strings.HasSuffix(resp.Timestamp, "Z") || len(resp.Timestamp) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("timestamp %q is not RFC 3339 UTC with milliseconds", resp.Timestamp)
	}
}

func TestCheckTableGivesReasons(t *testing.T) {
	code, out, errs := runCLI(t, "check", "--data", "testdata/small.jsonl", "--type", "entity", "--names", "acme holdngs limited liability company", "--fuzzy", "1", "--format", "table")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"1 hit(s)", "E1", "ACME HOLDINGS LLC", "holdngs→holdings (1 edit)", "LLC"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"check", "--names", "x", "--dob", "32/01/2000"}, "--dob"},
		{[]string{"check", "--names", "x", "--gender", "x"}, "--gender"},
		{[]string{"check", "--names", "x", "--citizenship", "XX"}, "--citizenship"},
		{[]string{"check", "--names", "x", "--citizenship", "DEU"}, "--citizenship"},
		{[]string{"check", "--names", "x", "--fuzzy", "3"}, "--fuzzy"},
		{[]string{"check", "--names", "x", "--search-all", "y"}, "--names"},
		{[]string{"check"}, "--names"},
		{[]string{"check", "--names", "x", "--type", "ship"}, "--type"},
		{[]string{"check", "--names", "x", "--format", "xml"}, "--format"},
		{[]string{"check", "--names", "x", "--fuzzy", "one"}, "--fuzzy"},
		{[]string{"check", "--data", "testdata/small.jsonl", "--names", "x", "--includes", "nope_src"}, "--includes"},
		{[]string{"check", "--data", "testdata/missing.jsonl", "--names", "x"}, "--data"},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming %s", tt.args, code, errs, tt.flag)
		}
	}
}

func TestCheckBadDataLine(t *testing.T) {
	code, _, errs := runCLI(t, "check", "--data", "testdata/bad.jsonl", "--names", "x")
	if code != exitError || !strings.Contains(errs, "line 2") || !strings.Contains(errs, "aliasNames") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming line 2 and the field", code, errs)
	}
}

func TestCheckIncludes(t *testing.T) {
	// OTHER sources are out by default and in when listed.
	_, out, _ := runCLI(t, "check", "--data", "testdata/small.jsonl", "--names", "acme", "--format", "json")
	if strings.Contains(out, `"E5"`) {
		t.Errorf("OTHER source returned by default: %s", out)
	}
	_, out, _ = runCLI(t, "check", "--data", "testdata/small.jsonl", "--names", "acme", "--includes", "included,ext_leaks", "--format", "json")
	if !strings.Contains(out, `"E5"`) || !strings.Contains(out, `"E1"`) {
		t.Errorf("includes union lacks E1 or E5: %s", out)
	}
	_, out, _ = runCLI(t, "check", "--data", "testdata/small.jsonl", "--names", "acme", "--includes", "ext_leaks", "--format", "json")
	if strings.Contains(out, `"E1"`) || !strings.Contains(out, `"E5"`) {
		t.Errorf("includes=ext_leaks: %s", out)
	}
}

func TestCheckAgainstStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aml.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	next := func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}
	if err := db.ReplaceAll("2026-11-01T00:00:00Z~7", next, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()

	code, out, errs := runCLI(t, "check", "--store", path, "--names", "abu bakr", "--format", "table")
	if code != exitOK || !strings.Contains(out, "P5") || !strings.Contains(out, "2026-11-01T00:00:00Z~7") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, _, errs = runCLI(t, "check", "--store", filepath.Join(t.TempDir(), "none.db"), "--names", "x")
	if code != exitUsage || !strings.Contains(errs, "--store") {
		t.Errorf("missing store: exit %d, stderr %q", code, errs)
	}
}
