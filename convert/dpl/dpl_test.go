package dpl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func dplFixture(t *testing.T, sourceType string) []*record.Record {
	t.Helper()
	f, err := os.Open("../testdata/dpl/dpl.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return convtest.Collect(t, func(emit func(*record.Record) error) error { return DPL(f, sourceType, emit) })
}

func TestDPLFixture(t *testing.T) {
	recs := dplFixture(t, "")
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3: the two rows of one order are one record", len(recs))
	}
	want := &record.Record{
		ID: conv.HashID("BIS-DPL-", "AL-EXAMPLE AIRLINES", "10/31/2023"), SourceID: SourceBISDPL, SourceType: record.SourceSanction,
		EntityType: record.EntityUnknown, ListDate: 1698710400000, Name: "AL-EXAMPLE AIRLINES",
		Address:          []string{"1 AIRPORT ROAD, DUBAI, AE", "P.O. BOX 5, BEIRUT, LB"},
		SanctionDetails:  []string{"Denial order effective 10/31/2023, expires 04/28/2024", "Federal Register notice 88 F.R. 75518 11/03/2023"},
		OtherInformation: []string{"Standard order Y", "Last update 2023-11-03", "Action: FR NOTICE ADDED"},
	}
	convtest.WantRecord(t, recs[0], want)
	if r := recs[1]; r.Name != "JOHN Q. EXAMPLE" || r.Address[0] != "3415 RIVERA AVENUE, EL PASO, TX, 79905" {
		t.Errorf("second record: %s", r.Append(nil, record.WriteOptions{}))
	}
	if r := recs[2]; r.Name != "JOSÉ EXAMPLE" || len(r.SanctionDetails) != 1 {
		t.Errorf("Windows-1252 row: %s", r.Append(nil, record.WriteOptions{}))
	}
	// Ids stay with the order, not with the row: the same file read again
	// gives the same ids.
	again := dplFixture(t, record.SourceOther)
	for i := range recs {
		if again[i].ID != recs[i].ID || again[i].SourceType != record.SourceOther {
			t.Errorf("record %d: id %s then %s, type %s", i, recs[i].ID, again[i].ID, again[i].SourceType)
		}
	}
}

func TestDPLErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"comma separated", "Name,Street_Address\nA,B\n", `no "Name" column`},
		{"no name", strings.Join(dplColumns, "\t") + "\n\tstreet\tcity\t\t\t\t\t\t\t\t\t\n", "line 2: no name"},
		{"empty", "", "header"},
	} {
		err := DPL(strings.NewReader(c.in), "", func(*record.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRealDPL(t *testing.T) {
	path := filepath.Join(convtest.SharedLists(t), "dpl.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("DPL not available: %v", err)
	}
	defer f.Close()
	recs := convtest.Collect(t, func(emit func(*record.Record) error) error { return DPL(f, "", emit) })
	s := convtest.CheckRecords(t, recs)
	// 665 rows; orders with several addresses are one record each.
	if s.N < 500 || s.N >= 665 || s.ByType[record.EntityUnknown] != s.N {
		t.Errorf("%d records %v from 665 rows", s.N, s.ByType)
	}
	multi := 0
	for _, r := range recs {
		if len(r.Address) > 1 {
			multi++
		}
	}
	if multi < 30 {
		t.Errorf("only %d records with more than one address", multi)
	}
}
