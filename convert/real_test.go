package convert

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/un"
	"github.com/amlscreen/amlscreen/record"
)

func TestRealOFACSDN(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	dir := convtest.SharedLists(t)
	s := convtest.CheckRecords(t, convtest.Collect(t, func(emit func(*record.Record) error) error { return convertSDN(dir, emit) }))
	if s.N < 5000 {
		t.Errorf("%d SDN records, want more than 5,000", s.N)
	}
	for _, typ := range []string{record.EntityIndividual, record.EntityEntity, record.EntityVessel, record.EntityAircraft} {
		if s.ByType[typ] == 0 {
			t.Errorf("no %s records", typ)
		}
	}
	if convtest.Pct(s.IndDOB, s.Individuals) < 50 {
		t.Errorf("only %d of %d individuals have a date of birth", s.IndDOB, s.Individuals)
	}
	if convtest.Pct(s.IndCitizen, s.Individuals) < 30 {
		t.Errorf("only %d of %d individuals have a citizenship", s.IndCitizen, s.Individuals)
	}
	if convtest.Pct(s.Als, s.N) < 30 {
		t.Errorf("only %d of %d records have aliases", s.Als, s.N)
	}
}

func TestRealOFACNonSDN(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	dir := convtest.SharedLists(t)
	l := ofac.NonSDNList(dir)
	if _, err := os.Stat(l.Primary); err != nil {
		t.Skipf("non-SDN list not available: %v", err)
	}
	s := convtest.CheckRecords(t, convtest.Collect(t, func(emit func(*record.Record) error) error { return ofac.ConvertOFAC(l, emit) }))
	if s.N < 300 {
		t.Errorf("%d non-SDN records, want more than 300", s.N)
	}
}

func TestRealUN(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	path := filepath.Join(convtest.SharedLists(t), "UN_consolidated.xml")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("UN list not available: %v", err)
	}
	defer f.Close()
	s := convtest.CheckRecords(t, convtest.Collect(t, func(emit func(*record.Record) error) error { return un.UN(f, emit) }))
	if s.ByType[record.EntityIndividual] < 500 || s.ByType[record.EntityEntity] < 200 {
		t.Errorf("records by type %v, want more than 500 individuals and 200 entities", s.ByType)
	}
	if convtest.Pct(s.IndDOB, s.Individuals) < 50 || convtest.Pct(s.IndCitizen, s.Individuals) < 50 {
		t.Errorf("individuals: %d with dob, %d with citizenship, of %d", s.IndDOB, s.IndCitizen, s.Individuals)
	}
}

// convertSDN converts the SDN list in dir (see SDNList), as the CLI's
// "convert ofac" does.
func convertSDN(dir string, emit func(*record.Record) error) error {
	return ofac.ConvertOFAC(ofac.SDNList(dir), emit)
}
