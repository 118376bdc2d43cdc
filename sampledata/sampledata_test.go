package sampledata

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/amlscreen/amlscreen/record"
)

// loaded decodes the embedded file once for the tests that only read it.
var loaded = sync.OnceValues(Records)

func TestRecordsDecode(t *testing.T) {
	recs, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 4500 || len(recs) > 5500 {
		t.Fatalf("%d records, want about 5000", len(recs))
	}
	again, err := Records()
	if err != nil {
		t.Fatal(err)
	}
	name := recs[0].Name
	again[0].Name = "changed"
	if recs[0].Name != name {
		t.Error("Records shares records between calls")
	}
	ids := map[string]bool{}
	for _, r := range recs {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
		if ids[r.ID] {
			t.Errorf("id %s repeats", r.ID)
		}
		ids[r.ID] = true
	}
	for _, id := range []string{"SEED0001", "SEED0002", "SEED0007"} {
		if !ids[id] {
			t.Errorf("seed record %s missing", id)
		}
	}
}

func TestSourcesCoverRecords(t *testing.T) {
	recs, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := Sources()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]record.Source{}
	for _, s := range srcs {
		byID[s.Source] = s
	}
	counts := map[string]int64{}
	for _, r := range recs {
		s, ok := byID[r.SourceID]
		if !ok {
			t.Fatalf("%s: source %s not in the catalogue", r.ID, r.SourceID)
		}
		if s.SourceType != strings.ToLower(r.SourceType) {
			t.Errorf("%s: source type %s, catalogue says %s", r.ID, r.SourceType, s.SourceType)
		}
		counts[r.SourceID]++
	}
	for _, s := range srcs {
		if s.Size != counts[s.Source] {
			t.Errorf("source %s: size %d, records %d", s.Source, s.Size, counts[s.Source])
		}
	}
}

func TestEveryTypeAndScriptAppears(t *testing.T) {
	recs, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var cyrillic, arabic, chinese int
	for _, r := range recs {
		seen[r.EntityType] = true
		seen[r.SourceType] = true
		for _, a := range r.AliasNames {
			if has(a, unicode.Cyrillic) {
				cyrillic++
				break
			}
		}
		if has(r.Name, unicode.Arabic) && r.TLName != "" {
			arabic++
		}
		if has(r.Name, unicode.Han) && r.TLName != "" {
			chinese++
		}
	}
	for _, want := range []string{
		record.EntityIndividual, record.EntityEntity, record.EntityVessel, record.EntityAircraft,
		record.EntityJurisdiction, record.EntityObject, record.EntityUnknown,
		record.SourceSanction, record.SourcePEP, record.SourceCriminal, record.SourceNonCompliantTaxpayer, record.SourceOther,
	} {
		if !seen[want] {
			t.Errorf("no record of type %s", want)
		}
	}
	for what, n := range map[string]int{"Cyrillic aliases": cyrillic, "Arabic names with tl_name": arabic, "Chinese names with tl_name": chinese} {
		if n < 10 {
			t.Errorf("%s: %d, want at least 10", what, n)
		}
	}
}

func TestVersionIsAFileVersion(t *testing.T) {
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ~\d+$`).MatchString(Version) {
		t.Errorf("Version %q is not <RFC 3339 UTC>~<sequence>", Version)
	}
}

func has(s string, tab *unicode.RangeTable) bool {
	for _, c := range s {
		if unicode.Is(tab, c) {
			return true
		}
	}
	return false
}
