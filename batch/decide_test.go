package batch

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// firstSuppressed is a Decide hook for the tests: the first hit of every
// customer whose id ends in an odd digit is suppressed; the first hit of
// the others is shown with a true_match decision on a record that changed
// since.
func firstSuppressed(customerID string, hits []Hit) (kept, suppressed []Hit) {
	odd := customerID != "" && strings.ContainsRune("13579", rune(customerID[len(customerID)-1]))
	for i, h := range hits {
		switch {
		case i == 0 && odd:
			h.Decision = &HitDecision{Status: "false_positive", Note: "not " + customerID, DecidedBy: "acme", DecidedAt: "2026-11-20T09:30:00Z"}
			suppressed = append(suppressed, h)
		case i == 0:
			h.Decision = &HitDecision{Status: "true_match", Note: "confirmed, \"see file\"", DecidedBy: "acme", DecidedAt: "2026-11-20T09:31:00Z", Changed: true}
			kept = append(kept, h)
		default:
			kept = append(kept, h)
		}
	}
	return kept, suppressed
}

// hitKeys reads a CSV hits file as "line/record" keys, with its header.
func hitKeys(t *testing.T, path string) ([]string, []string) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(readFile(t, path))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range rows[1:] {
		keys = append(keys, r[0]+"/"+r[3])
	}
	return rows[0], keys
}

func TestDecideSplitsHits(t *testing.T) {
	_, ix := mustSample(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	cfg := Config{Screener: Screener{Index: ix, Fuzzy: 1}, Input: "testdata/customers.csv", Out: plain}
	base, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	decided := filepath.Join(dir, "decided.csv")
	cfg.Out, cfg.Decide = decided, firstSuppressed
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	supPath := filepath.Join(dir, "decided.suppressed.csv")
	if sum.SuppressedFile != supPath {
		t.Fatalf("suppressed file %q, want %q", sum.SuppressedFile, supPath)
	}
	_, all := hitKeys(t, plain)
	header, kept := hitKeys(t, decided)
	supHeader, sup := hitKeys(t, supPath)
	wantHeader := append(slices.Clone(HitColumns), DecisionColumns...)
	if !slices.Equal(header, wantHeader) || !slices.Equal(supHeader, wantHeader) {
		t.Errorf("headers %v and %v, want %v", header, supHeader, wantHeader)
	}
	// Nothing lost, nothing twice: kept and suppressed make up the hits.
	both := append(slices.Clone(kept), sup...)
	slices.Sort(both)
	slices.Sort(all)
	if !slices.Equal(both, all) {
		t.Errorf("kept + suppressed = %v\nwant the hits %v", both, all)
	}
	if len(sup) == 0 || int64(len(sup)) != sum.Suppressed || int64(len(kept)) != sum.Hits {
		t.Errorf("%d suppressed and %d kept lines, counts say %d and %d", len(sup), len(kept), sum.Suppressed, sum.Hits)
	}
	if sum.TotalHits+sum.Suppressed != base.TotalHits {
		t.Errorf("total hits %d + suppressed %d, want %d", sum.TotalHits, sum.Suppressed, base.TotalHits)
	}
	// A customer whose only hit was suppressed no longer counts as one
	// with hits.
	if sum.RowsWithHits >= base.RowsWithHits {
		t.Errorf("rows with hits %d, want fewer than %d", sum.RowsWithHits, base.RowsWithHits)
	}
	text := string(readFile(t, decided))
	if !strings.Contains(text, `true_match,"confirmed, ""see file""",acme,2026-11-20T09:31:00Z,true`) {
		t.Errorf("the true_match decision is not in the hits file:\n%s", text)
	}
	var out bytes.Buffer
	sum.WriteText(&out)
	if !strings.Contains(out.String(), "suppressed     "+num(sum.Suppressed)+" (decided false positive, record unchanged): "+supPath) {
		t.Errorf("summary does not count the suppressed hits:\n%s", out.String())
	}
	if md := string(readFile(t, DefaultReportPath(decided))); !strings.Contains(md, "| Hits suppressed by decisions | "+num(sum.Suppressed)+" |") {
		t.Errorf("report does not count the suppressed hits:\n%s", md)
	}
}

func TestDecideJSONL(t *testing.T) {
	_, ix := mustSample(t)
	out := filepath.Join(t.TempDir(), "hits.jsonl")
	cfg := Config{Screener: Screener{Index: ix, Fuzzy: 1, Decide: firstSuppressed}, Input: "testdata/customers.csv", Out: out, Format: JSONLOutput}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join(filepath.Dir(out), "hits.suppressed.jsonl")))), "\n")
	var h Hit
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	if h.Decision == nil || h.Decision.Status != "false_positive" || h.Decision.DecidedBy != "acme" {
		t.Errorf("suppressed line %s", lines[0])
	}
}

// TestDecideResumes: a run with decisions interrupted and resumed writes
// the same three files as one that was not.
func TestDecideResumes(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	cfg := Config{Screener: Screener{Index: ix, Fuzzy: 1, Decide: firstSuppressed}, Input: in, Out: whole, Workers: 2, CheckpointEvery: 100}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	parts := filepath.Join(dir, "parts.csv")
	cfg.Out = parts
	if _, err := runTo(t, cfg, 500); err == nil {
		t.Fatal("the run was not interrupted")
	}
	cfg.Resume = true
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{whole, parts}, {DefaultSuppressedPath(whole), DefaultSuppressedPath(parts)}} {
		if !bytes.Equal(readFile(t, pair[0]), readFile(t, pair[1])) {
			t.Errorf("%s differs from %s after a resume", pair[1], pair[0])
		}
	}
	// A run without decisions does not resume one with them.
	cfg.Decide = nil
	cfg.Out = filepath.Join(dir, "other.csv")
	cfg.Resume = false
	if _, err := runTo(t, cfg, 300); err == nil {
		t.Fatal("not interrupted")
	}
	cfg.Decide, cfg.Resume = firstSuppressed, true
	var se *SetupError
	if _, err := Run(context.Background(), cfg); err == nil || !asSetup(err, &se) || !strings.Contains(err.Error(), "suppressed") {
		t.Errorf("resuming with decisions a run without them: %v", err)
	}
}

func asSetup(err error, se **SetupError) bool {
	e, ok := err.(*SetupError)
	*se = e
	return ok
}
