package screen

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// testCatalog has sources of records (s1 a sanction list, o1 of type
// OTHER) and two the stored catalogue alone lists (p9, o2).
func testCatalog() *Catalog {
	return NewCatalog(map[string]string{"s1": "SANCTION", "o1": "OTHER"},
		[]record.Source{{Source: "p9", SourceType: "pep"}, {Source: "o2", SourceType: "other"}, {Source: "s1", SourceType: "other"}})
}

func TestCatalogResolve(t *testing.T) {
	c := testCatalog()
	if c.Type("s1") != "SANCTION" || c.Type("o2") != "OTHER" || c.Type("p9") != "PEP" || c.Len() != 4 {
		t.Errorf("types %v: the records' type wins, the catalogue's fills in, upper case", c.Types())
	}
	tests := []struct {
		includes string
		sources  access.Sources
		want     []string
	}{
		{"", access.Sources{}, []string{"p9", "s1"}},
		{"  ", access.Sources{}, []string{"p9", "s1"}},
		{"included", access.Sources{IncludeOther: true}, []string{"o1", "o2", "p9", "s1"}},
		{"o1", access.Sources{}, []string{"o1"}},
		{" o1 , ,s1", access.Sources{}, []string{"o1", "s1"}},
		{"included,o2", access.Sources{Excluded: []string{"p9"}}, []string{"o2", "s1"}},
		{"", access.Sources{Extra: []string{"o1"}}, []string{"o1", "p9", "s1"}},
		// Excluded wins over extra; an extra source no record has yet is
		// included all the same.
		{"", access.Sources{Extra: []string{"o1", "new"}, Excluded: []string{"o1"}}, []string{"new", "p9", "s1"}},
	}
	for _, tt := range tests {
		key := &access.Key{Key: "k", IncludeOther: tt.sources.IncludeOther, ExtraSources: tt.sources.Extra, ExcludedSources: tt.sources.Excluded}
		for name, resolve := range map[string]func() (map[string]bool, error){
			"without a key": func() (map[string]bool, error) { return c.Resolve(Caller{Sources: tt.sources}, tt.includes) },
			"Resolve":       func() (map[string]bool, error) { return c.Resolve(Caller{Key: key}, tt.includes) },
			// The second call answers from the key's cached defaults.
			"Resolve again": func() (map[string]bool, error) { return c.Resolve(Caller{Key: key}, tt.includes) },
		} {
			set, err := resolve()
			if err != nil {
				t.Fatalf("%s(%q, %+v): %v", name, tt.includes, tt.sources, err)
			}
			if got := sortedKeys(set); !slices.Equal(got, tt.want) {
				t.Errorf("%s(%q, %+v) = %v, want %v", name, tt.includes, tt.sources, got, tt.want)
			}
		}
	}
	for _, includes := range []string{"s1,nope", "nope"} {
		_, err := c.Resolve(Caller{}, includes)
		var pe *query.ParamError
		if !errors.As(err, &pe) || pe.Param != "includes" || pe.Msg != `unknown source id "nope"` {
			t.Errorf("%q: %v", includes, err)
		}
	}
}

// TestIncludesAgreesWithCatalog: the rule for one record (monitoring) and
// the rule over a catalogue (checks) are the same rule, for random
// catalogues and keys.
func TestIncludesAgreesWithCatalog(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := []string{"a", "b", "c", "d", "e", "f"}
	types := []string{record.SourceSanction, record.SourcePEP, record.SourceOther}
	pick := func() []string {
		var out []string
		for _, id := range ids {
			if r.IntN(4) == 0 {
				out = append(out, id)
			}
		}
		return out
	}
	for range 500 {
		recTypes := map[string]string{}
		for _, id := range ids[:r.IntN(len(ids))] {
			recTypes[id] = types[r.IntN(len(types))]
		}
		s := access.Sources{IncludeOther: r.IntN(2) == 0, Extra: pick(), Excluded: pick()}
		c := NewCatalog(recTypes, nil)
		included := c.Included(s)
		for id, typ := range c.Types() {
			if got, want := s.Includes(id, typ), slices.Contains(included, id); got != want {
				t.Fatalf("%+v over %v: Includes(%s, %s) = %v, the catalogue says %v", s, recTypes, id, typ, got, want)
			}
		}
		d := c.Defaults(&access.Key{Key: "k", IncludeOther: s.IncludeOther, ExtraSources: s.Extra, ExcludedSources: s.Excluded})
		if !slices.Equal(d.List, included) || len(d.Set) != len(included) {
			t.Fatalf("Defaults %v, Included %v", d.List, included)
		}
	}
}

func TestResolveIncludesLimits(t *testing.T) {
	known := func(id string) bool { return id == "a" || id == "b" }
	if _, err := ResolveIncludes(strings.Repeat("a,", query.MaxIncludes-1)+"b", known, nil); err != nil {
		t.Errorf("%d ids: %v", query.MaxIncludes, err)
	}
	_, err := ResolveIncludes(strings.Repeat("a,", query.MaxIncludes)+"b", known, nil)
	var pe *query.ParamError
	if !errors.As(err, &pe) || pe.Param != "includes" || pe.Msg != "201 entries, more than the 200 allowed" {
		t.Errorf("201 ids: %v", err)
	}
	var many []string
	for i := range 150 {
		many = append(many, strings.Repeat("z", 100)+string(rune('a'+i%26))+strings.Repeat("q", i))
	}
	_, err = ResolveIncludes(strings.Join(many, ","), known, nil)
	if !errors.As(err, &pe) || len(pe.Msg) > 400 || !strings.Contains(pe.Msg, "and 145 more") || !strings.Contains(pe.Msg, "…") {
		t.Errorf("150 unknown long ids: %d-byte message %v", len(err.Error()), err)
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
