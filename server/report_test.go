package server

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// TestReports: the report endpoints answer a Base64 PDF as text/plain and
// are billed.
func TestReports(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{
		"/v1/generateIndividualReport?names=vladimir%20putin&dob=07/10/1952&gender=male&fuzzy_search=1",
		"/v1/generateEntityReport?names=acme%20trading%20llc&includes=included,media_watch",
		"/v1/generateIndividualReport?names=nobody%20at%20all",
	} {
		a := f.get(keyQuota, p)
		if a.StatusCode != 200 {
			t.Fatalf("%s: %d %s", p, a.StatusCode, a.body)
		}
		if ct := a.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		pdf, err := base64.StdEncoding.DecodeString(string(a.body))
		if err != nil {
			t.Fatalf("%s: not Base64: %v", p, err)
		}
		if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("%s: not a PDF: %q", p, pdf[:min(len(pdf), 16)])
		}
	}
	if u := usageOf(t, f, keyQuota, ""); u.Summary.BilledUsed != 3 {
		t.Errorf("billed %d, want 3", u.Summary.BilledUsed)
	}
	f.get(keyQuota, "/v1/generateEntityReport?names=acme").errorMessage(t, 429)
	f.get(keyBasic, "/v1/generateEntityReport?names=acme&fuzzy_search=5").errorMessage(t, 400)
	// citizenship is not a parameter of the report (SERVICE.md 4.5): it is
	// ignored, with a warning, rather than refused.
	if a := f.get(keyBasic, "/v1/generateIndividualReport?names=putin&citizenship=RUS"); a.StatusCode != 200 || !strings.Contains(a.Header.Get("Warning"), "citizenship") {
		t.Errorf("citizenship on a report: %d, Warning %q", a.StatusCode, a.Header.Get("Warning"))
	}
}
