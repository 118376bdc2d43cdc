package uk

import (
	"os"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

// TestUKCSVFixture reads the FCDO's CSV edition made from the published
// columns (no real edition was at hand), holding the designations of the
// XML fixture: both formats must give the same records.
func TestUKCSVFixture(t *testing.T) {
	c, err := os.Open("../testdata/ukcsv/UK-Sanctions-List.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := convtest.Collect(t, func(emit func(*record.Record) error) error { return UKCSV(c, emit) })
	x, err := os.Open("../testdata/uk/uk_sanctions_list.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	want := convtest.Collect(t, func(emit func(*record.Record) error) error { return UK(x, emit) })
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("%d records from the CSV, %d from the XML, want 3", len(got), len(want))
	}
	convtest.CheckRecords(t, got)
	for i := range want {
		convtest.WantRecord(t, got[i], want[i])
	}
}

// TestOFSICSVFixture reads OFSI's consolidated list in CSV, made from its
// published columns: rows gathered by Group ID into OFSI- records.
func TestOFSICSVFixture(t *testing.T) {
	f, err := os.Open("../testdata/ukcsv/ConList.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return UKCSV(f, emit) })
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	convtest.CheckRecords(t, recs)
	want := &record.Record{
		ID: "OFSI-99001", SourceID: SourceOFSI, SourceType: record.SourceSanction, EntityType: record.EntityIndividual,
		ListDate: 1647302400000, Gender: record.GenderUnknown, Name: "Ivan Petrovich EXAMPLOV",
		LastNames: []string{"EXAMPLOV"}, GivenNames: []string{"Ivan Petrovich"},
		AliasNames:  []string{"Ivan EKZAMPLOV", "Иван Петрович ЭКЗАМПЛОВ"},
		NameRemarks: []string{"Vanya"},
		DateOfBirth: []string{"12/03/1960"}, PlaceOfBirth: []string{"Examplegrad, Russia"},
		Address: []string{"1 Example Street, Moscow, Russia"}, Citizenship: []string{"RU"},
		SanctionDetails:  []string{"UK regime Russia", "OFSI group ID 99001"},
		Positions:        []string{"Minister of Examples"},
		OtherInformation: []string{"Passport AB1234567 Russian", "Example other information."},
	}
	convtest.WantRecord(t, recs[0], want)
	want = &record.Record{
		ID: "OFSI-99002", SourceID: SourceOFSI, SourceType: record.SourceSanction, EntityType: record.EntityEntity,
		ListDate: 1645660800000, Name: "EXAMPLE WORKS JSC", AliasNames: []string{"AO PRIMER"},
		Address:         []string{"2 Example Embankment, Saint Petersburg, 190000, Russia"},
		Jurisdiction:    []string{"RU"},
		SanctionDetails: []string{"UK regime Russia", "OFSI group ID 99002"},
	}
	convtest.WantRecord(t, recs[1], want)
}

func TestUKCSVErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"not a UK file", "a,b\n1,2\n", "no header with Name 6"},
		{"no key column", "Name 6,Name 1\nX,Y\n", "no Unique ID or Group ID column"},
		{"no key", "Name 6,Group ID\nA,1\nB,\n", "line 3: field Group ID: empty"},
		{"no rows", "Report Date: 1\nName 6,Unique ID\n", "no designation rows"},
		{"no name", "Name 6,Unique ID,Regime Name\n,U1,Russia\n", "Unique ID U1: designation U1 has no name"},
		{"broken quote", "Name 6,Unique ID\n\"A,1\n", "UK list CSV"},
		{"name too long", "Name 6,Unique ID\nA,U1\n" + strings.Repeat("B", 1100) + ",U1\n", "Unique ID U1: field \"alias_names\""},
	} {
		err := UKCSV(strings.NewReader(c.in), func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
