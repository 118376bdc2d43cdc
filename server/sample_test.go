package server

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/report"
)

// TestSampleAnswersSaySo: while the database is at a version Config.Sample
// calls the embedded sample, every answer (success or error, JSON or
// not) carries X-Amlscreen-Database: embedded sample and reports carry the
// sample's watermark; once the database moves on, or without Sample,
// nothing does.
func TestSampleAnswersSaySo(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Sample = func(v string) bool { return v == testVersion } })
	paths := []string{
		"/v1/checkName?names=" + "John%20Smith", "/v1/checkIndividual?names=Zzyzx", "/v1/listSources",
		"/v1/checkName?names=Kim&citizenship=XYZ", "/v1/noSuchEndpoint", "/healthz",
	}
	for _, p := range paths {
		if got := f.get(keyBasic, p).Header.Get(HeaderDatabase); got != SampleDatabase {
			t.Errorf("%s: %s %q, want %q", p, HeaderDatabase, got, SampleDatabase)
		}
	}
	if !f.srv.Sample() {
		t.Error("Sample() is false at the sample's version")
	}
	pdf := reportPDF(t, f, "/v1/generateIndividualReport?names=Zzyzx")
	if text := pdfToText(t, pdf); !strings.Contains(text, report.SampleMark) || !strings.Contains(text, "not a screening") {
		t.Errorf("a no-hit report on the sample does not say so:\n%s", text)
	}

	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	for _, p := range paths {
		if got := f.get(keyBasic, p).Header.Get(HeaderDatabase); got != "" {
			t.Errorf("%s after a change set: %s %q", p, HeaderDatabase, got)
		}
	}
	pdf = reportPDF(t, f, "/v1/generateIndividualReport?names=Zzyzx")
	if text := pdfToText(t, pdf); strings.Contains(text, report.SampleMark) {
		t.Error("a report off the sample carries its watermark")
	}

	plain := newFixture(t)
	if got := plain.get(keyBasic, paths[0]).Header.Get(HeaderDatabase); got != "" || plain.srv.Sample() {
		t.Errorf("without Config.Sample: %s %q", HeaderDatabase, got)
	}
}

func reportPDF(t *testing.T, f *fixture, path string) []byte {
	t.Helper()
	a := f.get(keyBasic, path)
	if a.StatusCode != 200 {
		t.Fatalf("%s: %d %s", path, a.StatusCode, a.body)
	}
	pdf, err := base64.StdEncoding.DecodeString(string(a.body))
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

func pdfToText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (Debian: apt-get install poppler-utils); skipping the report's text")
	}
	name := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", name, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	return string(out)
}
