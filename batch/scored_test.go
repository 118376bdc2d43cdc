package batch

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// scoredBook has a customer with a middle name the list does not carry
// (strict misses it, scored finds it), one that matches exactly, and one
// nobody is.
const scoredBook = "id,name\nc1,Vladimir Michael Putin\nc2,Vladimir Putin\nc3,Quentin Zzyzx\n"

// TestScoredRun: a scored run's hits gain a score column (CSV) or field
// (JSON Lines) at or above the threshold, best first per customer, with a
// reason naming the words without a partner; it finds the middle-name
// variant the strict run misses, and its report names the mode.
func TestScoredRun(t *testing.T) {
	_, ix := mustSample(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "book.csv")
	if err := os.WriteFile(in, []byte(scoredBook), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(m query.MatchMode, format OutputFormat) string {
		out := filepath.Join(dir, m.String()+"."+format.String())
		_, err := Run(context.Background(), Config{
			Screener: Screener{Index: ix, Fuzzy: 1, Match: m},
			Input:    in, Out: out, Format: format,
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	strict := readCSV(t, run(query.Strict, CSVOutput))
	if len(strict[0]) != len(HitColumns) {
		t.Errorf("strict header %v: a score column in strict mode", strict[0])
	}
	for _, r := range strict[1:] {
		if r[1] == "c1" {
			t.Errorf("strict run found the middle-name variant: %v", r)
		}
	}

	out := run(query.Scored, CSVOutput)
	rows := readCSV(t, out)
	if got := strings.Join(rows[0], ","); got != strings.Join(HitColumns, ",")+","+ScoreColumn {
		t.Fatalf("scored header %s", got)
	}
	found := map[string]float64{}
	last := map[string]float64{}
	for _, r := range rows[1:] {
		s, err := strconv.ParseFloat(r[len(r)-1], 64)
		if err != nil || s < query.DefaultMinScore || s > 1 {
			t.Errorf("row %v: score %q not in [%v, 1]", r, r[len(r)-1], query.DefaultMinScore)
		}
		if prev, ok := last[r[1]]; ok && s > prev {
			t.Errorf("customer %s: hits not ranked by score: %v after %v", r[1], s, prev)
		}
		last[r[1]] = s
		if r[3] == "SEED0001" {
			found[r[1]] = s
			if r[1] == "c1" && !strings.Contains(r[12], "unpaired query: michael") {
				t.Errorf("c1 reason %q does not name the unpaired michael", r[12])
			}
		}
	}
	if found["c1"] == 0 || found["c2"] != 1 || found["c1"] >= found["c2"] {
		t.Errorf("scores of Putin: %v; want c1 found below c2's 1", found)
	}
	if _, ok := last["c3"]; ok {
		t.Errorf("a clean name has scored hits")
	}
	report := string(readFile(t, DefaultReportPath(out)))
	if !strings.Contains(report, "| Match | scored, min score 0.82 |") {
		t.Errorf("report does not name the mode:\n%s", report)
	}

	jl := readFile(t, run(query.Scored, JSONLOutput))
	lines := bytes.Split(bytes.TrimSpace(jl), []byte("\n"))
	if len(lines) != len(rows)-1 {
		t.Fatalf("%d JSON lines, %d CSV rows", len(lines), len(rows)-1)
	}
	for _, l := range lines {
		var h struct {
			Score *float64 `json:"score"`
		}
		if err := json.Unmarshal(l, &h); err != nil || h.Score == nil || *h.Score < query.DefaultMinScore {
			t.Errorf("line %s: no score at or above the threshold (%v)", l, err)
		}
	}
	if sj := readFile(t, run(query.Strict, JSONLOutput)); bytes.Contains(sj, []byte(`"score"`)) {
		t.Errorf("strict JSON Lines carry a score: %s", sj)
	}
}

// TestScoredResumeRefusesOtherMode: the checkpoint remembers the mode and
// the threshold; resuming with another is refused, not spliced.
func TestScoredResumeRefusesOtherMode(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	cfg := Config{Screener: Screener{Index: ix, Match: query.Scored}, Input: in, Out: filepath.Join(dir, "hits.csv"), CheckpointEvery: 300}
	if _, err := runTo(t, cfg, 600); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	cfg.Resume = true
	for _, tc := range []struct {
		m    query.MatchMode
		min  float64
		want string
	}{
		{query.Strict, 0, "match"},
		{query.Scored, 0.9, "min_score"},
	} {
		cfg.Match, cfg.MinScore = tc.m, tc.min
		_, err := Run(context.Background(), cfg)
		var se *SetupError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resume as %v min %v: %v; want a refusal naming %s", tc.m, tc.min, err, tc.want)
		}
	}
	// The same settings resume.
	cfg.Match, cfg.MinScore = query.Scored, 0
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatalf("resume with the same mode: %v", err)
	}
}

// TestRunRefusesMinScoreInStrictMode: a threshold without scored mode is
// a setup error, not silently ignored.
func TestRunRefusesMinScoreInStrictMode(t *testing.T) {
	_, ix := mustSample(t)
	dir := t.TempDir()
	_, err := Run(context.Background(), Config{Screener: Screener{Index: ix, MinScore: 0.9}, Input: "testdata/book.csv", Out: filepath.Join(dir, "h.csv")})
	var se *SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "min_score") {
		t.Fatalf("strict run with a min score: %v", err)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(readFile(t, path))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
