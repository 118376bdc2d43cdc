package convtest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// WantRecord fails t when got and want differ, showing both as JSON so that
// the differing attribute is easy to spot.
func WantRecord(t *testing.T, got, want *record.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("record differs\n got: %s\nwant: %s",
			got.Append(nil, record.WriteOptions{}), want.Append(nil, record.WriteOptions{}))
	}
}

// Collect runs a converter and returns its records by id, in order.
func Collect(t *testing.T, conv conv.Converter) []*record.Record {
	t.Helper()
	var out []*record.Record
	if err := conv(func(r *record.Record) error {
		out = append(out, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

var dateShape = regexp.MustCompile(`^(\d\d)/(\d\d)/(\d{4})$`)

// CheckDate reports whether s is a date of birth the service accepts in a
// record: dd/mm/yyyy, 00 for unknown parts, a day only with a month, and a
// day that exists.
func CheckDate(s string) error {
	m := dateShape.FindStringSubmatch(s)
	if m == nil {
		return errors.New("not dd/mm/yyyy")
	}
	d, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	if !(conv.Ymd{Y: y, M: mo, D: d}).Valid() {
		return errors.New("no such date")
	}
	return nil
}

// SharedLists finds ../shared/lists next to the repository root (the
// directory holding go.mod), or skips t: the real lists are read at run
// time and never committed.
func SharedLists(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory; cannot locate ../shared/lists")
		}
		dir = parent
	}
	lists := filepath.Join(dir, "..", "shared", "lists")
	if _, err := os.Stat(filepath.Join(lists, "sdn.csv")); err != nil {
		t.Skipf("real lists not available (%s): %v", lists, err)
	}
	return lists
}

// listStats summarises a converted list for the sanity checks and the log.
type listStats struct {
	N, Individuals                     int
	ByType                             map[string]int
	IndDOB, IndCitizen, indGender, Als int
}

// CheckRecords runs the checks every converted list must pass: an id and a
// name on every record, unique ids, and dates of birth in the service's
// format.
func CheckRecords(t *testing.T, recs []*record.Record) listStats {
	t.Helper()
	s := listStats{N: len(recs), ByType: map[string]int{}}
	seen := map[string]bool{}
	for _, r := range recs {
		if err := conv.CheckRecord(r); err != nil {
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
			if err := CheckDate(d); err != nil {
				t.Errorf("%s: date of birth %q: %v", r.ID, d, err)
			}
		}
		s.ByType[r.EntityType]++
		if len(r.AliasNames) > 0 {
			s.Als++
		}
		if r.EntityType == record.EntityIndividual {
			s.Individuals++
			if len(r.DateOfBirth) > 0 {
				s.IndDOB++
			}
			if len(r.Citizenship) > 0 {
				s.IndCitizen++
			}
			if r.Gender == record.GenderMale || r.Gender == record.GenderFemale {
				s.indGender++
			}
		}
	}
	t.Logf("%d records %v; individuals with dob %.1f%%, citizenship %.1f%%, gender %.1f%%; records with aliases %.1f%%",
		s.N, s.ByType, Pct(s.IndDOB, s.Individuals), Pct(s.IndCitizen, s.Individuals),
		Pct(s.indGender, s.Individuals), Pct(s.Als, s.N))
	return s
}

// Pct returns a as a percentage of b, 0 when b is 0.
func Pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// FuzzSeed adds the file at path to f's seed corpus.
func FuzzSeed(f *testing.F, path string) {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// CheckEmitted returns an emit that fails t on a record the rules refuse.
func CheckEmitted(t *testing.T) func(*record.Record) error {
	return func(r *record.Record) error {
		if err := conv.CheckRecord(r); err != nil {
			t.Fatalf("emitted a bad record: %v: %s", err, r.Append(nil, record.WriteOptions{}))
		}
		return nil
	}
}
