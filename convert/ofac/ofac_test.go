package ofac

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func sdn(id string) record.Record {
	return record.Record{ID: "OFAC-" + id, SourceID: SourceOFACSDN, SourceType: record.SourceSanction}
}

func TestOFACFixture(t *testing.T) {
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return convertSDN("../testdata/ofac", emit) })

	r1001 := sdn("1001")
	r1001.EntityType = record.EntityIndividual
	r1001.Gender = record.GenderMale
	r1001.Name = "DOE, John Michael"
	r1001.LastNames = []string{"DOE"}
	r1001.GivenNames = []string{"John Michael"}
	r1001.AliasNames = []string{"DOE, Johnny"}
	r1001.NameRemarks = []string{"JOHNNY"}
	r1001.DateOfBirth = []string{"12/03/1960", "00/00/1961"}
	r1001.DateOfBirthRemarks = []string{"circa 1961"}
	r1001.PlaceOfBirth = []string{"Baghdad, Iraq"}
	r1001.Address = []string{"Baghdad, Iraq"}
	r1001.Citizenship = []string{"IQ", "JO"}
	r1001.SanctionDetails = []string{"SDGT", "IRAQ2"}
	r1001.OtherInformation = []string{"Passport A1234567 (Iraq)", "National ID No. 99887766 (Iraq)"}

	r1002 := sdn("1002")
	r1002.EntityType = record.EntityIndividual
	r1002.Gender = record.GenderFemale
	r1002.Name = "ROE, Jane"
	r1002.LastNames = []string{"ROE"}
	r1002.GivenNames = []string{"Jane"}
	r1002.DateOfBirth = []string{"00/00/1960", "00/00/1961", "00/00/1962", "00/03/1958"}
	r1002.DateOfBirthRemarks = []string{"1960 to 1962"}
	r1002.PlaceOfBirth = []string{"Tehran, Iran"}
	r1002.Citizenship = []string{"IR"}
	r1002.CitizenshipRemarks = []string{"possibly Palestinian"}
	r1002.SanctionDetails = []string{"SDNTK"}
	r1002.Titles = []string{"Minister of Examples"}
	r1002.Links = []string{"jane@example.org", "www.example.org"}
	r1002.OtherInformation = []string{"Website www.example.org"}

	r1003 := sdn("1003")
	r1003.EntityType = record.EntityEntity
	r1003.Name = "EXAMPLE TRADING CO., LTD."
	r1003.AliasNames = []string{"EXAMPLE TRADING"}
	r1003.Address = []string{"1 Example Street, London EC1A 1AA, United Kingdom"}
	r1003.AddressRemarks = []string{"Head office"}
	r1003.Jurisdiction = []string{"GB"}
	r1003.CompanyNumber = []string{"12345678"}
	r1003.SanctionDetails = []string{"SDGT", "Additional Sanctions Information - Subject to Secondary Sanctions"}
	r1003.OtherInformation = []string{"Registration Number 12345678 (United Kingdom)", "Linked To: DOE, John Michael"}

	r1004 := sdn("1004")
	r1004.EntityType = record.EntityVessel
	r1004.Name = "SEA EXAMPLE"
	r1004.AliasNames = []string{"EXAMPLE SEA"}
	r1004.SanctionDetails = []string{"IRAN"}
	r1004.OtherInformation = []string{
		"Call Sign 9ABC1", "Vessel Type Crude Oil Tanker", "Tonnage 300,000",
		"Gross Registered Tonnage 160,000", "Vessel Flag Iran", "Vessel Owner EXAMPLE SHIPPING CO",
		"Vessel Registration Identification IMO 9123456", "MMSI 123456789",
		"Former Vessel Flag Malta", "Linked To: EXAMPLE SHIPPING CO",
	}

	r1005 := sdn("1005")
	r1005.EntityType = record.EntityAircraft
	r1005.Name = "EP-XYZ"
	r1005.SanctionDetails = []string{"IRAN"}
	r1005.OtherInformation = []string{
		"Aircraft Manufacture Date 1992", "Aircraft Model IL76-TD", "Aircraft Operator EXAMPLE AIR",
		"Aircraft Manufacturer's Serial Number (MSN) 1023409321", "Linked To: EXAMPLE AIR",
	}

	// 1006's remarks run on in sdn_comments.csv, cut in the middle of a number.
	r1006 := sdn("1006")
	r1006.EntityType = record.EntityIndividual
	r1006.Gender = record.GenderUnknown
	r1006.Name = "PEREZ GOMEZ, Carlos"
	r1006.LastNames = []string{"PEREZ GOMEZ"}
	r1006.GivenNames = []string{"Carlos"}
	r1006.DateOfBirth = []string{"00/00/1961", "00/00/1962"}
	r1006.DateOfBirthRemarks = []string{"01 Jan 1961 to 31 Dec 1962"}
	r1006.PlaceOfBirth = []string{"Medellin, Colombia"}
	r1006.Citizenship = []string{"CO"}
	r1006.SanctionDetails = []string{"SDNTK"}
	r1006.OtherInformation = []string{"Cedula No. 12345678 (Colombia)"}

	r1007 := sdn("1007")
	r1007.EntityType = record.EntityIndividual
	r1007.Gender = record.GenderUnknown
	r1007.Name = "MONONYM"
	r1007.SanctionDetails = []string{"SDGT"}

	want := []*record.Record{&r1001, &r1002, &r1003, &r1004, &r1005, &r1006, &r1007}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range want {
		t.Run(want[i].ID, func(t *testing.T) { convtest.WantRecord(t, got[i], want[i]) })
	}
}

// copyFixture copies the OFAC fixture into a temporary directory, leaving
// out the files named in skip and replacing those in replace.
func copyFixture(t *testing.T, skip []string, replace map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"sdn.csv", "alt.csv", "add.csv", "sdn_comments.csv"} {
		if contains(skip, name) {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../testdata/ofac", name))
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := replace[name]; ok {
			data = []byte(s)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestOFACCommentsOptional(t *testing.T) {
	dir := copyFixture(t, []string{"sdn_comments.csv"}, nil)
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return convertSDN(dir, emit) })
	if len(got) != 7 {
		t.Fatalf("got %d records, want 7", len(got))
	}
	// Without its continuation, 1006's remarks end in the cut number.
	if oi := got[5].OtherInformation; len(oi) != 1 || oi[0] != "Cedula No. 1234" {
		t.Errorf("1006 other_information = %q, want the truncated cedula", oi)
	}
}

func TestOFACErrors(t *testing.T) {
	tests := []struct {
		name    string
		skip    []string
		replace map[string]string
		want    string
	}{
		{"missing sdn.csv", []string{"sdn.csv"}, nil, "sdn.csv"},
		{"missing alt.csv", []string{"alt.csv"}, nil, "alt.csv"},
		{"short row", nil, map[string]string{"sdn.csv": "1,\"A\",-0- \r\n"}, "sdn.csv: line 1: 3 fields, want 12"},
		{"ent_num not a number", nil, map[string]string{"sdn.csv": `x,"A",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ` + "\n"}, `ent_num "x"`},
		{"empty name", nil, map[string]string{"sdn.csv": `7,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ` + "\n"}, "ent_num 7 has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyFixture(t, tt.skip, tt.replace)
			err := convertSDN(dir, func(*record.Record) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	t.Run("missing file is fs.ErrNotExist", func(t *testing.T) {
		err := convertSDN(t.TempDir(), func(*record.Record) error { return nil })
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("error = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("emit error stops the conversion", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := convertSDN("../testdata/ofac", func(*record.Record) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("error = %v after %d records, want stop after 1", err, n)
		}
	})
}

func TestOFACWindows1252(t *testing.T) {
	// "Peña" in Windows-1252, as OFAC files were encoded before UTF-8.
	row := "9,\"PE\xd1A, Jose\",\"individual\",\"SDNTK\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n"
	dir := copyFixture(t, nil, map[string]string{"sdn.csv": row})
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return convertSDN(dir, emit) })
	if len(got) != 1 || got[0].Name != "PEÑA, Jose" {
		t.Fatalf("got %+v, want one record named PEÑA, Jose", got)
	}
}

// convertSDN converts the SDN list in dir (see SDNList), as the CLI's
// "convert ofac" does.
func convertSDN(dir string, emit func(*record.Record) error) error {
	return ConvertOFAC(SDNList(dir), emit)
}
