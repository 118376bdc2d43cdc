package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

func TestReportCarriesCasework(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	q := query.Query{Kind: query.Individual, Names: "vladimir putin", Fuzzy: 1}
	res, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 10, 15, 0, 0, time.UTC)
	in := Input{Query: q, Result: res, Time: testTime, Version: testVersion, Casework: []CaseNote{{
		Alert: 7, RecordID: "RU1", RecordName: "Vladimir Putin", Status: "closed", Outcome: "false_positive",
		Reason: "customer born 1971 in Riga", ProposedBy: "maria", ProposedAt: at, ApprovedBy: "omar", ApprovedAt: at.Add(time.Hour),
		FourEyes: true, Version: "2026-11-20T00:00:00Z~3", Comments: []CaseComment{{By: "omar", At: at, Text: "passport copy on file"}},
	}}}
	var buf bytes.Buffer
	if err := Render(&buf, in); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, buf.Bytes())
	for _, want := range []string{"Casework", "ALERT 7", "False positive: customer born 1971 in Riga", "maria, 21 Nov 2026 10:15 UTC",
		"omar, 21 Nov 2026 11:15 UTC", "2026-11-20T00:00:00Z~3", "passport copy on file"} {
		if !contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	// Without casework the section is absent.
	in.Casework = nil
	buf.Reset()
	if err := Render(&buf, in); err != nil {
		t.Fatal(err)
	}
	if contains(pdfText(t, buf.Bytes()), "Proposed by") {
		t.Error("a report without casework has a casework section")
	}
}
