package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCasesRunsOnTheExample: the command runs on the example set
// shipped in bench/testdata, as a table, as JSON and with a plot.
func TestBenchCasesRunsOnTheExample(t *testing.T) {
	data, cases := "../../bench/testdata/cases_records.jsonl", "../../bench/testdata/cases.csv"
	code, out, errs := runCLI(t, "bench", "cases", "--data", data, "--cases", cases, "--fuzzy", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"strict      2", "scored      2", "threshold sweep", "cases the modes answer differently"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	plot := filepath.Join(t.TempDir(), "curve.png")
	code, out, errs = runCLI(t, "bench", "cases", "--data", data, "--cases", cases, "--match", "scored", "--min-score", "0.5", "--json", "--plot", plot)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Cases  int `json:"cases"`
		Levels []struct {
			Match    string  `json:"match"`
			MinScore float64 `json:"min_score"`
			Recall   float64 `json:"recall"`
		} `json:"levels"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if rep.Cases == 0 || len(rep.Levels) != 3 || rep.Levels[0].Match != "scored" || rep.Levels[0].MinScore != 0.5 {
		t.Errorf("report %+v", rep)
	}
	f, err := os.Open(plot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("plot: %v", err)
	}
}

// TestBenchCasesBadInput: bad flags and bad rows exit 2 naming the flag,
// or the line and field; a missing file is named too.
func TestBenchCasesBadInput(t *testing.T) {
	dir := t.TempDir()
	data := "../../bench/testdata/cases_records.jsonl"
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("name,expect,dob\nJohn Smith,none,32/13/2000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown.csv")
	if err := os.WriteFile(unknown, []byte("name,expect\nJohn Smith,OFAC-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cases", bad}, "--data: required"},
		{[]string{"--data", data}, "--cases: required"},
		{[]string{"--data", data, "--cases", bad}, "line 2, field dob"},
		{[]string{"--data", data, "--cases", unknown}, "line 2, field expect: record \"OFAC-1\" is not in the data"},
		{[]string{"--data", data, "--cases", bad, "--match", "fuzzy"}, "--match"},
		{[]string{"--data", data, "--cases", bad, "--fuzzy", "3"}, "--fuzzy"},
		{[]string{"--data", data, "--cases", bad, "--min-score", "1.5"}, "--min-score"},
		{[]string{"--data", data, "--cases", filepath.Join(dir, "absent.csv")}, "--cases"},
	} {
		code, _, errs := runCLI(t, append([]string{"bench", "cases"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}

// TestBenchRecordsFlag: --records measures against a database of that
// size, generated alone (bench quality) or padding --data; a size below
// --data's is refused, exit 2 naming the flag.
func TestBenchRecordsFlag(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.txt")
	if err := os.WriteFile(clean, []byte("Zebulon Quillfeather\nOctavia Brackenridge\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "bench", "quality", "--records", "800", "--mode", "scored", "--fuzzy", "2", "--max-queries", "10",
		"--sweep", "--clean", clean)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"records 800,", "alerts per 1,000 clean names against 800 records", "clean customers alerted per 1,000"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench quality output lacks %q:\n%s", want, out)
		}
	}
	data, cases := "../../bench/testdata/cases_records.jsonl", "../../bench/testdata/cases.csv"
	code, out, errs = runCLI(t, "bench", "cases", "--data", data, "--cases", cases, "--fuzzy", "2", "--match", "scored", "--records", "1000")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "records 1000, ") || !strings.Contains(out, "alerts per 1,000") {
		t.Errorf("bench cases output lacks the size or alerts per 1,000:\n%s", out)
	}
	for _, args := range [][]string{
		{"bench", "cases", "--data", data, "--cases", cases, "--records", "3"},
		{"bench", "quality", "--data", data, "--records", "3"},
		{"bench", "quality", "--records", "-5"},
	} {
		if code, _, errs := runCLI(t, args...); code != exitUsage || !strings.Contains(errs, "--records") {
			t.Errorf("%v: exit %d, %q; want %d naming --records", args, code, errs, exitUsage)
		}
	}
}
