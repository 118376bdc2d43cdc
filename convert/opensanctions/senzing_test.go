package opensanctions

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func senzingFrom(data []byte, o SenzingOptions) ([]*record.Record, SenzingStats, error) {
	var out []*record.Record
	st, err := Senzing(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, o,
		func(r *record.Record) error {
			out = append(out, r)
			return nil
		})
	return out, st, err
}

func TestSenzingFixture(t *testing.T) {
	data, err := os.ReadFile("../testdata/senzing/senzing.json")
	if err != nil {
		t.Fatal(err)
	}
	recs, st, err := senzingFrom(data, SenzingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The position (Q900) comes after its holder and is no record itself.
	if len(recs) != 4 || st.Positions != 1 {
		t.Fatalf("%d records, %d positions; want 4 and 1", len(recs), st.Positions)
	}
	want := &record.Record{
		ID: "OS-Q1", SourceID: "os_example", SourceType: record.SourcePEP, PEPType: "JUDGE",
		EntityType: record.EntityIndividual, ListDate: 1711010641000, Gender: record.GenderFemale,
		Name: "Jane Q. Example", AliasNames: []string{"Jane Example"}, DateOfBirth: []string{"00/03/1972"},
		PlaceOfBirth: []string{"Springfield"}, Citizenship: []string{"US"},
		Positions:        []string{"Judge of the Example Supreme Court"},
		Links:            []string{"https://www.opensanctions.org/entities/Q1"},
		OtherInformation: []string{"Date of death 2025", "Wikidata Q1", "Family: John Example", "Topics: role.pep"},
	}
	convtest.WantRecord(t, recs[0], want)
	want = &record.Record{
		ID: "OS-Q2", SourceID: "os_example", SourceType: record.SourcePEP, PEPType: "RELATIVES_AND_CLOSE_ASSOCIATES",
		EntityType: record.EntityIndividual, ListDate: 1710979200000, Gender: record.GenderMale, Name: "John Example",
		DateOfBirth: []string{"00/00/1970"}, DateOfBirthRemarks: []string{"circa 1970"},
		OtherInformation: []string{"Passport X123 (US)", "Topics: role.rca"},
	}
	convtest.WantRecord(t, recs[1], want)
	want = &record.Record{
		ID: "OS-ofac-1234", SourceID: "os_example", SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		Name: "Example Trading LLC", AliasNames: []string{"Example Trading"}, Address: []string{"1 Example Road, Dubai"},
		Jurisdiction: []string{"AE"}, CompanyNumber: []string{"CN-12345"},
		Links: []string{"www.example.ae", "https://www.opensanctions.org/entities/ofac-1234"},
		OtherInformation: []string{"Registration date 2001-05-06", "Phone number +971 4 000 0000",
			"National ID (registrationNumber) CN-12345 (AE)", "OpenSanctions id ofac-1234", "Topics: sanction, role.pep"},
	}
	convtest.WantRecord(t, recs[2], want)
	// A record without type that nobody occupies is a screening subject
	// of unknown kind; its id is made valid.
	if r := recs[3]; r.EntityType != record.EntityUnknown || r.SourceType != record.SourceCriminal || !conv.ValidID(r.ID) || !strings.HasPrefix(r.ID, "OS-le_7_x-") {
		t.Errorf("untyped record: %s", r.Append(nil, record.WriteOptions{}))
	}

	// Options fix the source; gzip is read as plain.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	recs, _, err = senzingFrom(gz.Bytes(), SenzingOptions{SourceID: "my_peps", SourceType: record.SourcePEP})
	if err != nil || len(recs) != 4 {
		t.Fatalf("gzip: %d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.SourceID != "my_peps" || r.SourceType != record.SourcePEP || r.PEPType == "" {
			t.Errorf("%s: source %s type %s pep_type %q", r.ID, r.SourceID, r.SourceType, r.PEPType)
		}
	}
}

func TestSenzingPEPType(t *testing.T) {
	for _, c := range []struct {
		position string
		topics   []string
		want     string
	}{
		{"United States senator", []string{"role.pep"}, "POLITICIAN"},
		{"Member of the Bundestag", []string{"role.pep", "gov.legislative"}, "POLITICIAN"},
		{"Ambassador to France", []string{"role.pep"}, "EMBASSY_OFFICIAL"},
		{"Governor of the Central Bank", []string{"role.pep"}, "BOARD_MEMBER_OF_CENTRAL_BANK"},
		{"Attorney General", []string{"role.pep"}, "PROSECUTION_OFFICIAL"},
		{"Secretary General of the Example Organisation", []string{"role.pep", "gov.igo"}, "INTERNATIONAL_ORGANIZATION_OFFICIAL"},
		{"Chief of the General Staff", []string{"role.pep"}, "MILITARY_OFFICIAL"},
		{"Spouse", []string{"role.rca"}, "RELATIVES_AND_CLOSE_ASSOCIATES"},
		{"Head of procurement", []string{"role.pep"}, "OTHER"},
	} {
		r := &record.Record{EntityType: record.EntityIndividual, Positions: []string{c.position}}
		if got := senzingPEPType(r, c.topics); got != c.want {
			t.Errorf("%q %v: %s, want %s", c.position, c.topics, got, c.want)
		}
	}
}

func TestSenzingErrors(t *testing.T) {
	long := `{"RECORD_ID":"x","NAMES":[{"NAME_FULL":"` + strings.Repeat("a", maxSenzingLine) + `"}]}`
	for _, c := range []struct{ name, in, want string }{
		{"bad json", `{"RECORD_ID":"Q1","NAMES":[{"NAME_FULL":"A"}]}` + "\n{oops\n", "line 2"},
		{"no name", `{"DATA_SOURCE":"X","RECORD_ID":"Q1","RECORD_TYPE":"PERSON"}`, "no name"},
		{"no source", `{"RECORD_ID":"Q1","RECORD_TYPE":"PERSON","NAMES":[{"NAME_FULL":"A"}]}`, "--source-id"},
		{"line too long", `{"DATA_SOURCE":"X","RECORD_ID":"Q1","NAMES":[{"NAME_FULL":"A"}]}` + "\n" + long, "line 2 is longer"},
	} {
		if _, _, err := senzingFrom([]byte(c.in), SenzingOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRealSenzing(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	path := filepath.Join(convtest.SharedLists(t), "us_congress_senzing.json")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("OpenSanctions Senzing file not available: %v", err)
	}
	var recs []*record.Record
	st, err := Senzing(func() (io.ReadCloser, error) { return os.Open(path) }, SenzingOptions{}, func(r *record.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := convtest.CheckRecords(t, recs)
	if s.N < 1300 || s.ByType[record.EntityIndividual] != s.N || st.Positions != 2 {
		t.Errorf("%d records %v, %d positions", s.N, s.ByType, st.Positions)
	}
	withPosition := 0
	for _, r := range recs {
		if r.SourceType != record.SourcePEP || r.PEPType != "POLITICIAN" || r.SourceID != "os_us_congress" {
			t.Errorf("%s: source %s type %s pep_type %s", r.ID, r.SourceID, r.SourceType, r.PEPType)
			break
		}
		if len(r.Positions) > 0 {
			withPosition++
		}
	}
	if withPosition < s.N*95/100 || convtest.Pct(s.IndDOB, s.N) < 95 {
		t.Errorf("%d of %d with a position, %d with a date of birth", withPosition, s.N, s.IndDOB)
	}
}
