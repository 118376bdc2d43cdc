package csl

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func cslFixture(t *testing.T, o CSLOptions) ([]*record.Record, error) {
	t.Helper()
	data, err := os.ReadFile("../testdata/csl/consolidated.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out []*record.Record
	err = CSL(bytes.NewReader(data), o, func(r *record.Record) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

func byID(recs []*record.Record) map[string]*record.Record {
	m := map[string]*record.Record{}
	for _, r := range recs {
		m[r.ID] = r
	}
	return m
}

func TestCSLFixture(t *testing.T) {
	recs, err := cslFixture(t, CSLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	// The EL entry comes twice in the file and once here; a list the table
	// does not know is kept, under a source of its own.
	if got := strings.Join(ids, " "); got != "CSL-SDN-1001 CSL-EL-abc123 CSL-DPL-def456 CSL-SSI-2002 CSL-FUT-ghi789 CSL-UVL-zzz" {
		t.Fatalf("ids %s", got)
	}
	m := byID(recs)

	want := &record.Record{
		ID: "CSL-SDN-1001", SourceID: "us_csl_sdn", SourceType: record.SourceSanction,
		EntityType: record.EntityIndividual, Gender: record.GenderMale, Name: "DOE, John",
		LastNames: []string{"DOE"}, GivenNames: []string{"John"}, AliasNames: []string{"DOE, Johnny"},
		DateOfBirth: []string{"12/03/1960", "00/00/1961"}, DateOfBirthRemarks: []string{"circa 1961"},
		PlaceOfBirth: []string{"Baghdad, Iraq"}, Address: []string{"Baghdad, IQ"},
		Citizenship: []string{"IQ", "JO"}, SanctionDetails: []string{"SDGT", "IRAQ2"},
		Titles:           []string{"Minister of Examples"},
		OtherInformation: []string{"Passport A1234567 (IQ)", "(Linked To: EXAMPLE TRADING CO.)"},
	}
	convtest.WantRecord(t, m["CSL-SDN-1001"], want)

	want = &record.Record{
		ID: "CSL-EL-abc123", SourceID: "us_csl_el", SourceType: record.SourceSanction,
		EntityType: record.EntityUnknown, ListDate: 1649289600000, Name: "Example Plant JSC",
		AliasNames:    []string{"Open Joint Stock Company Example Plant", "EPJ", "JSC Example Plant", "Old Example Works", "Example Plant Gomel"},
		NameRemarks:   []string{"all of preceding located in Minsk"},
		Address:       []string{"1 Example St., Minsk, 220000, BY", "2 Second St., Gomel, 246000, BY"},
		CompanyNumber: []string{"1027739609391"},
		SanctionDetails: []string{"Federal Register notice 87 FR 20299", "License requirement: For all items subject to the EAR.",
			"License policy: Policy of denial.", "Secondary sanctions risk: Ukraine-/Russia-Related Sanctions Regulations, 31 CFR 589.201"},
		Links:            []string{"www.example.by"},
		OtherInformation: []string{"Registration ID 1027739609391 (RU)", "Website www.example.by"},
	}
	convtest.WantRecord(t, m["CSL-EL-abc123"], want)

	if r := m["CSL-DPL-def456"]; r.Name != "JOHN Q. PUBLIC" || r.EntityType != record.EntityUnknown || r.Gender != "" || len(r.Jurisdiction) != 0 {
		t.Errorf("DPL entry: name %q, type %s, gender %q, jurisdiction %v: want the name's spaces collapsed, UNKNOWN, no gender, no jurisdiction",
			r.Name, r.EntityType, r.Gender, r.Jurisdiction)
	}
	if r := m["CSL-SSI-2002"]; r.EntityType != record.EntityVessel || !strings.Contains(strings.Join(r.OtherInformation, "|"), "IMO 9123456") {
		t.Errorf("vessel: %s", r.Append(nil, record.WriteOptions{}))
	}
	if r := m["CSL-FUT-ghi789"]; r.SourceID != "us_csl_fut" || r.SourceType != record.SourceSanction {
		t.Errorf("unknown list: source %s type %s", r.SourceID, r.SourceType)
	}
	if r := m["CSL-UVL-zzz"]; r.Name != "Café Example Ltd" {
		t.Errorf("Windows-1252 name read as %q", r.Name)
	}
}

func TestCSLOptions(t *testing.T) {
	recs, err := cslFixture(t, CSLOptions{Lists: []string{"el", "DPL"}, ExportControlType: record.SourceOther})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].ID != "CSL-EL-abc123" || recs[1].ID != "CSL-DPL-def456" {
		t.Fatalf("lists el, DPL gave %d records", len(recs))
	}
	for _, r := range recs {
		if r.SourceType != record.SourceOther {
			t.Errorf("%s: source type %s, want OTHER", r.ID, r.SourceType)
		}
	}
	recs, err = cslFixture(t, CSLOptions{Lists: []string{"SDN"}, ExportControlType: record.SourceOther})
	if err != nil || len(recs) != 1 || recs[0].SourceType != record.SourceSanction {
		t.Fatalf("SDN with export controls as OTHER: %v, %d records", err, len(recs))
	}
	// A list that is not in the file is an error, not an empty output: a
	// mistyped code must not pass for a list without entries.
	if _, err := cslFixture(t, CSLOptions{Lists: []string{"ELL"}}); err == nil || !strings.Contains(err.Error(), `"ELL"`) {
		t.Fatalf("unknown list: error %v", err)
	}
}

func TestCSLGzipAndErrors(t *testing.T) {
	plain, err := os.ReadFile("../testdata/csl/consolidated.csv")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	want, _ := cslFixture(t, CSLOptions{})
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return CSL(&gz, CSLOptions{}, emit) })
	if len(got) != len(want) {
		t.Fatalf("gzip: %d records, plain %d", len(got), len(want))
	}
	for i := range want {
		convtest.WantRecord(t, got[i], want[i])
	}

	for _, c := range []struct{ name, in, want string }{
		{"no source column", "a,b\n1,2\n", `no "source" column`},
		{"empty", "", "header"},
		{"no name", "_id,source,name\n1,Entity List (EL) - BIS,\n", "line 2"},
		{"bad gzip", "\x1f\x8bnot gzip", "gzip"},
	} {
		err := CSL(strings.NewReader(c.in), CSLOptions{}, func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRealCSL(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	path := filepath.Join(convtest.SharedLists(t), "consolidated.csv.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("US CSL not available: %v", err)
	}
	defer f.Close()
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return CSL(f, CSLOptions{}, emit) })
	s := convtest.CheckRecords(t, recs)
	bySource := map[string]int{}
	for _, r := range recs {
		bySource[r.SourceID]++
	}
	t.Logf("by source %v", bySource)
	for _, l := range CSLLists {
		if bySource[l.SourceID] == 0 {
			t.Errorf("no records of %s (%s)", l.Code, l.SourceID)
		}
	}
	if len(bySource) != len(CSLLists) {
		t.Errorf("sources %v: the file has lists the table lacks", bySource)
	}
	if bySource["us_csl_sdn"] < 9000 || bySource["us_csl_el"] < 1500 || s.N < 14000 {
		t.Errorf("%d records, by source %v: want the whole list", s.N, bySource)
	}
	if convtest.Pct(s.IndDOB, s.Individuals) < 50 || convtest.Pct(s.Als, s.N) < 30 {
		t.Errorf("individuals with dob %d of %d, records with aliases %d of %d", s.IndDOB, s.Individuals, s.Als, s.N)
	}
}
