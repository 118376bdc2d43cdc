package un

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func unFixture(t *testing.T) []*record.Record {
	t.Helper()
	f, err := os.Open("../testdata/un.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return convtest.Collect(t, func(emit func(*record.Record) error) error { return UN(f, emit) })
}

func day(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).UnixMilli()
}

func TestUNFixture(t *testing.T) {
	got := unFixture(t)
	want := []*record.Record{
		{
			ID: "UN-9000001", SourceID: SourceUN, SourceType: record.SourceSanction,
			EntityType: record.EntityIndividual, ListDate: day(2001, 1, 25), Gender: record.GenderMale,
			Name:        "JOHN EXAMPLE AL-TEST",
			AliasNames:  []string{"جون", "Johnny Example", "John Older"},
			NameRemarks: []string{"Abu Test", "John Older: previously listed as"},
			// The alias's date of birth comes first, then the entry's own:
			// exact, approximate year, a range by year, a month from a note,
			// a month from a note next to the year.
			DateOfBirth:        []string{"22/02/1958", "19/06/1951", "00/00/1953", "00/00/1955", "00/00/1956", "00/11/1973", "00/09/1958"},
			DateOfBirthRemarks: []string{"approximately 1953", "approximately 1955 to 1956", "30-35 years old"},
			PlaceOfBirth:       []string{"Tripoli, Libya", "Giza, Egypt"},
			Address:            []string{"Kabul, Afghanistan"},
			AddressRemarks:     []string{"as of 2016"},
			Citizenship:        []string{"IR", "Atlantis"},
			SanctionDetails:    []string{"UN Security Council sanctions: Al-Qaida", "Reference number QDi.901"},
			Titles:             []string{"Doctor"},
			Positions:          []string{"Commander"},
			OtherInformation:   []string{"Passport 1084010 (Egypt) issued 2001-01-01; expired", "Test comment on two lines."},
		},
		{
			// No GENDER element: the comments say it. Nationality "na" is none.
			ID: "UN-9000002", SourceID: SourceUN, SourceType: record.SourceSanction,
			EntityType: record.EntityIndividual, Gender: record.GenderFemale,
			Name:             "JANE TESTER",
			SanctionDetails:  []string{"UN Security Council sanctions: DRC", "Reference number CDi.901"},
			OtherInformation: []string{"Gender: Female. Something."},
		},
		{
			ID: "UN-9000003", SourceID: SourceUN, SourceType: record.SourceSanction,
			EntityType: record.EntityEntity, ListDate: day(2009, 4, 24),
			Name:            "EXAMPLE FRONT",
			AliasNames:      []string{"EF", "OLD EXAMPLE FRONT"},
			Address:         []string{"Central District, Pyongyang, Democratic People's Republic of Korea"},
			Jurisdiction:    []string{"KP"},
			SanctionDetails: []string{"UN Security Council sanctions: DPRK", "Reference number KPe.901"},
		},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range want {
		t.Run(want[i].ID, func(t *testing.T) { convtest.WantRecord(t, got[i], want[i]) })
	}
}

func TestUNErrors(t *testing.T) {
	tests := []struct{ name, xml, want string }{
		{"malformed", "<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID>", "read UN list"},
		{"no DATAID", "<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><FIRST_NAME>A</FIRST_NAME><REFERENCE_NUMBER>QDi.1</REFERENCE_NUMBER></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>", `"QDi.1" has no DATAID`},
		{"no name", "<CONSOLIDATED_LIST><ENTITIES><ENTITY><DATAID>5</DATAID></ENTITY></ENTITIES></CONSOLIDATED_LIST>", "entry 5 has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := UN(strings.NewReader(tt.xml), func(*record.Record) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	t.Run("empty list", func(t *testing.T) {
		n := 0
		err := UN(strings.NewReader(`<?xml version="1.0"?><CONSOLIDATED_LIST/>`), func(*record.Record) error { n++; return nil })
		if err != nil || n != 0 {
			t.Fatalf("got %d records, error %v; want none and no error", n, err)
		}
	})
}

func TestUNDOBShapes(t *testing.T) {
	tests := []struct {
		name        string
		dob         unDOB
		wantDates   []string
		wantRemarks []string
	}{
		{"exact date", unDOB{Type: "EXACT", Date: "1978-04-28"}, []string{"28/04/1978"}, nil},
		{"exact year", unDOB{Type: "EXACT", Year: "1971"}, []string{"00/00/1971"}, nil},
		{"approximate year", unDOB{Type: "APPROXIMATELY", Year: "1963"}, []string{"00/00/1963"}, []string{"approximately 1963"}},
		{"between", unDOB{Type: "BETWEEN", FromYear: "1973", ToYear: "1974"}, []string{"00/00/1973", "00/00/1974"}, []string{"1973 to 1974"}},
		{"between only from", unDOB{Type: "BETWEEN", FromYear: "1973"}, []string{"00/00/1973"}, []string{"1973 to"}},
		{"date with note", unDOB{Type: "EXACT", Date: "1979-03-03", Note: "from false passport"}, []string{"03/03/1979"}, []string{"1979-03-03: from false passport"}},
		{"month note", unDOB{Type: "EXACT", Note: "July 1961 "}, []string{"00/07/1961"}, nil},
		{"Hijri note", unDOB{Type: "EXACT", Note: "24/06/1402 (Hijri Calendar)"}, nil, []string{"24/06/1402 (Hijri Calendar)"}},
		{"vague note", unDOB{Type: "EXACT", Note: "Between Aug. and Sep. 1977"}, nil, []string{"Between Aug. and Sep. 1977"}},
		{"bad date", unDOB{Type: "EXACT", Date: "1978-13-40"}, nil, []string{"1978-13-40"}},
		{"empty", unDOB{}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &record.Record{}
			addUNDOB(r, tt.dob)
			convtest.WantRecord(t, r, &record.Record{DateOfBirth: tt.wantDates, DateOfBirthRemarks: tt.wantRemarks})
		})
	}
}
