package uk

import (
	"os"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestUKFixture reads a file made from the published format: no edition
// of the real list was at hand.
func TestUKFixture(t *testing.T) {
	f, err := os.Open("../testdata/uk/uk_sanctions_list.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return UK(f, emit) })
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	convtest.CheckRecords(t, recs)
	want := &record.Record{
		ID: "UK-RUS9001", SourceID: SourceUKSanctions, SourceType: record.SourceSanction, EntityType: record.EntityIndividual,
		ListDate: 1647302400000, Gender: record.GenderMale, Name: "Ivan Petrovich EXAMPLOV",
		LastNames: []string{"EXAMPLOV"}, GivenNames: []string{"Ivan Petrovich"},
		AliasNames:  []string{"Ivan EKZAMPLOV", "Иван Петрович ЭКЗАМПЛОВ"},
		NameRemarks: []string{"Vanya"},
		DateOfBirth: []string{"12/03/1960", "00/00/1961"}, PlaceOfBirth: []string{"Examplegrad, Russia"},
		Address: []string{"1 Example Street, Moscow, Russia"}, Citizenship: []string{"RU"},
		SanctionDetails: []string{"UK regime Russia", "Sanctions imposed: Asset freeze, Travel Ban", "Designation source UK",
			"OFSI group ID 99001", "Example statement of reasons."},
		Positions:        []string{"Minister of Examples"},
		OtherInformation: []string{"Passport AB1234567 Russian", "Example other information."},
	}
	convtest.WantRecord(t, recs[0], want)
	want = &record.Record{
		ID: "UK-RUS9002", SourceID: SourceUKSanctions, SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate: 1645660800000, Name: "EXAMPLE WORKS JSC", AliasNames: []string{"AO PRIMER"},
		Address:      []string{"2 Example Embankment, Saint Petersburg, 190000, Russia"},
		Jurisdiction: []string{"RU"}, CompanyNumber: []string{"1027700000000"},
		SanctionDetails:  []string{"UK regime Russia", "Sanctions imposed: Asset freeze"},
		Links:            []string{"info@example.ru", "sales@example.ru"},
		OtherInformation: []string{"Business registration number 1027700000000", "Phone +7 812 000 00 00", "Type of entity Joint stock company"},
	}
	convtest.WantRecord(t, recs[1], want)
	if r := recs[2]; r.EntityType != record.EntityVessel || strings.Join(r.OtherInformation, "|") != "IMO 9123456|Type of ship Crude oil tanker" {
		t.Errorf("ship: %s", r.Append(nil, record.WriteOptions{}))
	}
}

func TestUKDates(t *testing.T) {
	for _, c := range []struct {
		in      string
		dates   []string
		remarks []string
	}{
		{"12/03/1960", []string{"12/03/1960"}, nil},
		{"00/00/1960", []string{"00/00/1960"}, nil},
		{"dd/03/1960", []string{"00/03/1960"}, nil},
		{"dd/mm/1960", []string{"00/00/1960"}, nil},
		{"31/02/1960", nil, []string{"31/02/1960"}},
		{"circa 1960", []string{"00/00/1960"}, []string{"circa 1960"}},
	} {
		r := &record.Record{}
		addUKDate(r, c.in)
		if strings.Join(r.DateOfBirth, ",") != strings.Join(c.dates, ",") || strings.Join(r.DateOfBirthRemarks, ",") != strings.Join(c.remarks, ",") {
			t.Errorf("%q: dates %v remarks %v, want %v %v", c.in, r.DateOfBirth, r.DateOfBirthRemarks, c.dates, c.remarks)
		}
	}
}

func TestUKErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"not the UK file", `<Designations><Other/></Designations>`, "no <Designation>"},
		{"no id", `<Designations><Designation><Names><Name><Name6>A</Name6></Name></Names></Designation></Designations>`, "no UniqueID"},
		{"no name", `<Designations><Designation><UniqueID>X1</UniqueID></Designation></Designations>`, "has no name"},
		{"broken", `<Designations><Designation><UniqueID>X1`, "UK list"},
		{"name too long", `<Designations><Designation><UniqueID>X1</UniqueID><Names><Name><Name6>A</Name6></Name><Name><Name6>` + strings.Repeat("B", 1100) + `</Name6></Name></Names></Designation></Designations>`, `field "alias_names"`},
	} {
		err := UK(strings.NewReader(c.in), func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
