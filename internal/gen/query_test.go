package gen

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/record"
)

func TestQueriesDeterministic(t *testing.T) {
	recs := sample()[:3000]
	a, b := Queries(recs, 500, 9), Queries(recs, 500, 9)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls with seed 9 differ")
	}
	if reflect.DeepEqual(a, Queries(recs, 500, 10)) {
		t.Fatal("seeds 9 and 10 give the same queries")
	}
	if Queries(recs, 0, 1) != nil {
		t.Fatal("Queries(0) is not empty")
	}
}

func TestQueryKindsAndShapes(t *testing.T) {
	recs := sample()
	byID := map[string]*record.Record{}
	taken := map[string]bool{}
	for _, r := range recs {
		byID[r.ID] = r
		for _, s := range NameStrings(r) {
			taken[foldName(s)] = true
		}
	}
	const n = 4000
	qs := Queries(recs, n, 1)
	if len(qs) != n {
		t.Fatalf("got %d queries, want %d", len(qs), n)
	}
	kinds := map[string]int{}
	filtered := 0
	for _, q := range qs {
		kinds[q.Kind]++
		if q.DOB != "" || q.Gender != "" || q.Citizenship != "" {
			filtered++
			if q.EntityType != "individual" {
				t.Errorf("%v: filter on a %s check", q, q.EntityType)
			}
		}
		checkFilters(t, q)
		switch q.EntityType {
		case "individual", "entity", "any":
		default:
			t.Errorf("%v: entity type %q", q, q.EntityType)
		}
		if q.Kind == KindClean {
			if q.RecordID != "" {
				t.Errorf("%v: clean query names a record", q)
			}
			if taken[foldName(q.Names)] {
				t.Errorf("%v: clean query is a record's name string", q)
			}
			continue
		}
		rec, ok := byID[q.RecordID]
		if !ok {
			t.Fatalf("%v: unknown record", q)
		}
		if !derivedFrom(q, NameStrings(rec)) {
			t.Errorf("%v: not a %s of any name string of %s: %q", q, q.Kind, rec.ID, NameStrings(rec))
		}
	}
	want := map[string]float64{KindExact: .25, KindReorder: .10, KindPartial: .10, KindTypo1: .20, KindTypo2: .15, KindCaseDiacritics: .10, KindClean: .10}
	for k, w := range want {
		if got := float64(kinds[k]) / n; math.Abs(got-w) > .03 {
			t.Errorf("kind %s: share %.3f, want %.2f", k, got, w)
		}
	}
	if got := float64(filtered) / n; got < .15 || got > .25 {
		t.Errorf("%.3f of the queries carry a filter, want about 0.2", got)
	}
}

func checkFilters(t *testing.T, q Query) {
	t.Helper()
	if q.DOB != "" {
		m := dateRE.FindStringSubmatch(q.DOB)
		if m == nil || m[3] == "0000" {
			t.Errorf("%v: dob %q is not a valid query date", q, q.DOB)
		}
	}
	if q.Gender != "" && q.Gender != "male" && q.Gender != "female" {
		t.Errorf("%v: gender %q", q, q.Gender)
	}
	if q.Citizenship != "" && len(q.Citizenship) != 2 {
		t.Errorf("%v: citizenship %q", q, q.Citizenship)
	}
}

// derivedFrom reports whether q is what its kind says of one of names.
func derivedFrom(q Query, names []string) bool {
	qt := strings.Fields(q.Names)
	for _, s := range names {
		st := strings.Fields(s)
		switch q.Kind {
		case KindExact:
			if q.Names == s {
				return true
			}
		case KindReorder:
			a, b := slices.Clone(qt), slices.Clone(st)
			slices.Sort(a)
			slices.Sort(b)
			if slices.Equal(a, b) && q.Names != s {
				return true
			}
		case KindPartial:
			if len(qt) == len(st)-1 && qt[0] == st[0] && qt[len(qt)-1] == st[len(st)-1] {
				for i := range st {
					if slices.Equal(qt, slices.Delete(slices.Clone(st), i, i+1)) {
						return true
					}
				}
			}
		case KindTypo1, KindTypo2:
			if len(qt) != len(st) {
				continue
			}
			total, changed := 0, 0
			for i := range qt {
				if d := dict.EditDistance(strings.ToLower(qt[i]), strings.ToLower(st[i])); d > 0 {
					total += d
					changed++
				}
			}
			if (q.Kind == KindTypo1 && total == 1) || (q.Kind == KindTypo2 && total == 2 && changed <= 2) {
				return true
			}
		case KindCaseDiacritics:
			if q.Names != s && foldName(q.Names) == foldName(s) {
				return true
			}
		}
	}
	return false
}

func TestTransformRefusesWhatItCannotDo(t *testing.T) {
	r := &rng{nil}
	for _, tc := range []struct{ s, kind string }{
		{"Putin", KindReorder},
		{"Vladimir Putin", KindPartial},
		{"Li Na", KindTypo1},
		{"O'Brien Li", KindTypo2},
		{"王建国", KindCaseDiacritics},
	} {
		if _, ok := transform(r, tc.s, tc.kind); ok {
			t.Errorf("transform(%q, %s) succeeded", tc.s, tc.kind)
		}
	}
}

func TestNameStrings(t *testing.T) {
	rec := &record.Record{EntityType: record.EntityIndividual, Name: "Vladimir Vladimirovich PUTIN", TLName: "",
		GivenNames: []string{"Vladimir"}, LastNames: []string{"Putin"}, AliasGivenNames: []string{"Wladimir"},
		AliasNames: []string{"Владимир Путин", "Vladimir Vladimirovich PUTIN"}}
	want := []string{"Vladimir Vladimirovich PUTIN", "Владимир Путин", "Vladimir Putin", "Wladimir Putin"}
	if got := NameStrings(rec); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	ent := &record.Record{EntityType: record.EntityEntity, Name: "ACME HOLDINGS LLC", GivenNames: []string{"x"}, LastNames: []string{"y"}}
	if got := NameStrings(ent); !slices.Equal(got, []string{"ACME HOLDINGS LLC"}) {
		t.Errorf("entity: got %q", got)
	}
}
