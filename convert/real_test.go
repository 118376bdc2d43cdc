package convert

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// listStats summarises a converted list for the sanity checks and the log.
type listStats struct {
	n, individuals                     int
	byType                             map[string]int
	indDOB, indCitizen, indGender, als int
}

// checkRecords runs the checks every converted list must pass: an id and a
// name on every record, unique ids, and dates of birth in the service's
// format.
func checkRecords(t *testing.T, recs []*record.Record) listStats {
	t.Helper()
	s := listStats{n: len(recs), byType: map[string]int{}}
	seen := map[string]bool{}
	for _, r := range recs {
		if err := CheckRecord(r); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
		if seen[r.ID] {
			t.Errorf("id %s appears twice", r.ID)
		}
		seen[r.ID] = true
		if r.Name == "" {
			t.Errorf("%s has no name", r.ID)
		}
		for _, d := range r.DateOfBirth {
			if err := checkDate(d); err != nil {
				t.Errorf("%s: date of birth %q: %v", r.ID, d, err)
			}
		}
		s.byType[r.EntityType]++
		if len(r.AliasNames) > 0 {
			s.als++
		}
		if r.EntityType == record.EntityIndividual {
			s.individuals++
			if len(r.DateOfBirth) > 0 {
				s.indDOB++
			}
			if len(r.Citizenship) > 0 {
				s.indCitizen++
			}
			if r.Gender == record.GenderMale || r.Gender == record.GenderFemale {
				s.indGender++
			}
		}
	}
	t.Logf("%d records %v; individuals with dob %.1f%%, citizenship %.1f%%, gender %.1f%%; records with aliases %.1f%%",
		s.n, s.byType, pct(s.indDOB, s.individuals), pct(s.indCitizen, s.individuals),
		pct(s.indGender, s.individuals), pct(s.als, s.n))
	return s
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func TestRealOFACSDN(t *testing.T) {
	dir := sharedLists(t)
	s := checkRecords(t, collect(t, func(emit func(*record.Record) error) error { return OFAC(dir, emit) }))
	if s.n < 5000 {
		t.Errorf("%d SDN records, want more than 5,000", s.n)
	}
	for _, typ := range []string{record.EntityIndividual, record.EntityEntity, record.EntityVessel, record.EntityAircraft} {
		if s.byType[typ] == 0 {
			t.Errorf("no %s records", typ)
		}
	}
	if pct(s.indDOB, s.individuals) < 50 {
		t.Errorf("only %d of %d individuals have a date of birth", s.indDOB, s.individuals)
	}
	if pct(s.indCitizen, s.individuals) < 30 {
		t.Errorf("only %d of %d individuals have a citizenship", s.indCitizen, s.individuals)
	}
	if pct(s.als, s.n) < 30 {
		t.Errorf("only %d of %d records have aliases", s.als, s.n)
	}
}

func TestRealOFACNonSDN(t *testing.T) {
	dir := sharedLists(t)
	l := NonSDNList(dir)
	if _, err := os.Stat(l.Primary); err != nil {
		t.Skipf("non-SDN list not available: %v", err)
	}
	s := checkRecords(t, collect(t, func(emit func(*record.Record) error) error { return ConvertOFAC(l, emit) }))
	if s.n < 300 {
		t.Errorf("%d non-SDN records, want more than 300", s.n)
	}
}

func TestRealUN(t *testing.T) {
	path := filepath.Join(sharedLists(t), "UN_consolidated.xml")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("UN list not available: %v", err)
	}
	defer f.Close()
	s := checkRecords(t, collect(t, func(emit func(*record.Record) error) error { return UN(f, emit) }))
	if s.byType[record.EntityIndividual] < 500 || s.byType[record.EntityEntity] < 200 {
		t.Errorf("records by type %v, want more than 500 individuals and 200 entities", s.byType)
	}
	if pct(s.indDOB, s.individuals) < 50 || pct(s.indCitizen, s.individuals) < 50 {
		t.Errorf("individuals: %d with dob, %d with citizenship, of %d", s.indDOB, s.indCitizen, s.individuals)
	}
}
