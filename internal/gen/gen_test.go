package gen

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/amlscreen/amlscreen/record"
)

// sample is 10,000 records of seed 1, made once for the tests that look at
// their content.
var sample = sync.OnceValue(func() []*record.Record {
	g := New(1)
	out := make([]*record.Record, 10000)
	for i := range out {
		out[i] = g.Record(i)
	}
	return out
})

func writeString(t *testing.T, n int, seed int64) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := WriteCounts(&b, n, seed); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

func TestWriteSameSeedSameBytes(t *testing.T) {
	a, b := writeString(t, 3000, 7), writeString(t, 3000, 7)
	if a != b {
		t.Fatal("two runs with seed 7 differ")
	}
	if c := writeString(t, 3000, 8); c == a {
		t.Fatal("seeds 7 and 8 give the same bytes")
	}
}

func TestWriteSameBytesWhateverTheParallelism(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	one := writeString(t, 2000, 3)
	runtime.GOMAXPROCS(4)
	four := writeString(t, 2000, 3)
	runtime.GOMAXPROCS(prev)
	if one != four {
		t.Fatal("output depends on GOMAXPROCS")
	}
}

func TestRecordIndependentOfCallOrder(t *testing.T) {
	const n = 500
	forward := make([]string, n)
	g := New(42)
	for i := 0; i < n; i++ {
		forward[i] = string(g.Record(i).Append(nil, record.WriteOptions{Case: record.Camel}))
	}
	g2 := New(42)
	for i := n - 1; i >= 0; i -= 3 {
		if got := string(g2.Record(i).Append(nil, record.WriteOptions{Case: record.Camel})); got != forward[i] {
			t.Fatalf("record %d differs when made out of order:\n%s\n%s", i, got, forward[i])
		}
	}
}

func TestWriteMatchesRecord(t *testing.T) {
	out := writeString(t, 700, 5)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 700 {
		t.Fatalf("got %d lines, want 700", len(lines))
	}
	g := New(5)
	for _, i := range []int{0, 6, 7, 511, 512, 699} {
		want := string(g.Record(i).Append(nil, record.WriteOptions{Case: record.Camel}))
		if lines[i] != want {
			t.Errorf("line %d is not Record(%d)", i+1, i)
		}
	}
}

func TestWriteReadsBackValid(t *testing.T) {
	out := writeString(t, 3000, 11)
	recs, err := record.ReadAll(strings.NewReader(out))
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if len(recs) != 3000 {
		t.Fatalf("read %d records, want 3000", len(recs))
	}
	alnum := regexp.MustCompile(`^[A-Za-z0-9]+$`)
	seen := map[string]bool{}
	for _, r := range recs {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
		if !alnum.MatchString(r.ID) {
			t.Errorf("id %q is not alphanumeric", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("id %s repeats", r.ID)
		}
		seen[r.ID] = true
		if r.Name == "" {
			t.Errorf("%s has no name", r.ID)
		}
	}
	if !strings.Contains(out, `"sourceId"`) || strings.Contains(out, `"source_id"`) {
		t.Fatal("output is not camelCase")
	}
}

func TestWriteEmptyAndNegative(t *testing.T) {
	for _, n := range []int{0, -3} {
		if out := writeString(t, n, 1); out != "" {
			t.Errorf("WriteCounts(%d) wrote %q", n, out)
		}
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errors.New("disk full")
	}
	w.after--
	return len(p), nil
}

func TestWriteReportsWriterError(t *testing.T) {
	_, err := WriteCounts(&failingWriter{after: 1}, 20000, 1)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v, want the writer's error", err)
	}
}

func TestRecordID(t *testing.T) {
	for _, tc := range []struct {
		i    int
		want string
	}{{7, "AML00000007"}, {12345678, "AML12345678"}, {123456789, "AML123456789"}} {
		if got := recordID(tc.i); got != tc.want {
			t.Errorf("recordID(%d) = %q, want %q", tc.i, got, tc.want)
		}
	}
}

func share(recs []*record.Record, f func(*record.Record) string) map[string]float64 {
	out := map[string]float64{}
	for _, r := range recs {
		out[f(r)] += 1 / float64(len(recs))
	}
	return out
}

func TestDistributions(t *testing.T) {
	recs := sample()
	cases := []struct {
		name string
		got  map[string]float64
		want map[string]float64
		tol  float64
	}{
		{"entity type", share(recs, func(r *record.Record) string { return r.EntityType }), map[string]float64{
			record.EntityIndividual: .55, record.EntityEntity: .35, record.EntityVessel: .04, record.EntityAircraft: .02,
			record.EntityJurisdiction: .01, record.EntityObject: .01, record.EntityUnknown: .02}, .02},
		{"source type", share(recs, func(r *record.Record) string { return r.SourceType }), map[string]float64{
			record.SourceSanction: .40, record.SourcePEP: .40, record.SourceCriminal: .10,
			record.SourceNonCompliantTaxpayer: .05, record.SourceOther: .05}, .03},
	}
	for _, c := range cases {
		for k, want := range c.want {
			if got := c.got[k]; math.Abs(got-want) > c.tol || got == 0 {
				t.Errorf("%s %s: share %.3f, want %.3f ± %.2f", c.name, k, got, want, c.tol)
			}
		}
		if len(c.got) != len(c.want) {
			t.Errorf("%s: unexpected values in %v", c.name, c.got)
		}
	}
}

func TestSourcesCatalogue(t *testing.T) {
	cat := Sources()
	if len(cat) < 20 || len(cat) > 30 {
		t.Errorf("catalogue has %d sources, want 20–30", len(cat))
	}
	regions := map[string]bool{"americas": true, "apac": true, "emea": true, "international": true}
	byID := map[string]record.Source{}
	for _, s := range cat {
		if _, dup := byID[s.Source]; dup {
			t.Errorf("source %s listed twice", s.Source)
		}
		byID[s.Source] = s
		if s.Name == "" || s.Description == "" || s.Link == "" || s.IssuerName == "" {
			t.Errorf("%s lacks name, description, link or issuer: %+v", s.Source, s)
		}
		if s.SourceType != strings.ToLower(s.SourceType) || s.SourceType == "" {
			t.Errorf("%s: source_type %q is not lower case", s.Source, s.SourceType)
		}
		if !regions[s.Region] {
			t.Errorf("%s: region %q", s.Source, s.Region)
		}
		if s.CountryCode != strings.ToLower(s.CountryCode) {
			t.Errorf("%s: country_code %q is not lower case", s.Source, s.CountryCode)
		}
	}
	used := map[string]int{}
	for _, r := range sample() {
		s, ok := byID[r.SourceID]
		if !ok {
			t.Fatalf("%s: source %s is not in the catalogue", r.ID, r.SourceID)
		}
		if s.SourceType != strings.ToLower(r.SourceType) {
			t.Errorf("%s: record source type %s, catalogue %s", r.ID, r.SourceType, s.SourceType)
		}
		used[r.SourceID]++
	}
	for id := range byID {
		if used[id] == 0 {
			t.Errorf("source %s never used in 10,000 records", id)
		}
	}
}

var dateRE = regexp.MustCompile(`^(\d\d)/(\d\d)/(\d{4})$`)

func TestRecordsLookReal(t *testing.T) {
	var cyrillicAlias, arabicTL, chineseTL, chineseOrg, partialDOB, yearOnly, countryName, imo, legalFormAlias int
	for _, r := range sample() {
		for _, d := range r.DateOfBirth {
			m := dateRE.FindStringSubmatch(d)
			if m == nil {
				t.Fatalf("%s: date of birth %q is not dd/mm/yyyy", r.ID, d)
			}
			day, _ := strconv.Atoi(m[1])
			mon, _ := strconv.Atoi(m[2])
			if day > 31 || mon > 12 || (day > 0 && mon > 0 && day > daysIn(mon, atoi(m[3]))) {
				t.Errorf("%s: impossible date %s", r.ID, d)
			}
			if m[1] == "00" && m[2] == "00" {
				yearOnly++
			} else if m[1] == "00" || m[2] == "00" {
				partialDOB++
			}
		}
		for _, c := range r.Citizenship {
			if len(c) != 2 {
				countryName++
			}
		}
		for _, a := range r.AliasNames {
			if hasScript(a, unicode.Cyrillic) {
				cyrillicAlias++
				break
			}
		}
		switch {
		case hasScript(r.Name, unicode.Arabic):
			if r.TLName == "" {
				t.Errorf("%s: Arabic-script name %q without tl_name", r.ID, r.Name)
			}
			arabicTL++
		case hasScript(r.Name, unicode.Han):
			if r.TLName == "" {
				t.Errorf("%s: Han name %q without tl_name", r.ID, r.Name)
			}
			chineseTL++
			if r.EntityType == record.EntityEntity {
				chineseOrg++
			}
		}
		if r.TLName != "" && !latinOnly(r.TLName) {
			t.Errorf("%s: tl_name %q is not Latin", r.ID, r.TLName)
		}
		switch r.EntityType {
		case record.EntityIndividual:
			if len(r.GivenNames) == 0 || len(r.LastNames) == 0 {
				t.Errorf("%s: individual without given or last names", r.ID)
			}
		case record.EntityVessel:
			ok := false
			for _, o := range r.OtherInformation {
				if n, found := strings.CutPrefix(o, "IMO "); found {
					ok = validIMO(n)
				}
			}
			if !ok {
				t.Errorf("%s: vessel without a valid IMO number: %v", r.ID, r.OtherInformation)
			}
			imo++
		case record.EntityEntity:
			if r.Gender != "" || len(r.DateOfBirth) > 0 {
				t.Errorf("%s: entity with gender or date of birth", r.ID)
			}
			for _, a := range r.AliasNames {
				if strings.Contains(a, "Limited Liability Company") || strings.Contains(a, "Gesellschaft mit beschränkter Haftung") {
					legalFormAlias++
					break
				}
			}
		}
		if r.SourceType == record.SourcePEP {
			if r.PEPType == "" || r.SourceCountry == "" {
				t.Errorf("%s: PEP without pep_type or source_country", r.ID)
			}
			if r.EntityType == record.EntityEntity && r.PEPType != "STATE_OWNED_ENTERPRISE" {
				t.Errorf("%s: PEP entity of type %s", r.ID, r.PEPType)
			}
		} else if r.PEPType != "" || r.PEPLevel != 0 || r.SourceCountry != "" {
			t.Errorf("%s: PEP attributes on a %s record", r.ID, r.SourceType)
		}
		if r.ListDate != 0 && (r.ListDate < listDateFrom || r.ListDate > listDateTo) {
			t.Errorf("%s: list_date %d out of range", r.ID, r.ListDate)
		}
	}
	for name, n := range map[string]int{"Cyrillic aliases": cyrillicAlias, "Arabic names with tl_name": arabicTL,
		"Chinese names with tl_name": chineseTL, "Chinese company names": chineseOrg, "dates with 00 day or month": partialDOB,
		"year-only dates": yearOnly, "citizenships written as names": countryName, "vessels": imo,
		"legal forms spelt out in aliases": legalFormAlias} {
		if n < 20 {
			t.Errorf("%s: only %d in 10,000 records", name, n)
		}
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func hasScript(s string, tab *unicode.RangeTable) bool {
	for _, c := range s {
		if unicode.Is(tab, c) {
			return true
		}
	}
	return false
}

func validIMO(s string) bool {
	if len(s) != 7 {
		return false
	}
	sum := 0
	for i := 0; i < 6; i++ {
		sum += int(s[i]-'0') * (7 - i)
	}
	return int(s[6]-'0') == sum%10
}

// seedTokens identify the seed records; no generated record may carry one
// in a name string, or queries in the README would hit it.
var seedTokens = []string{"putin", "путин", "acme", "ромашка", "romashka", "zahrani", "الزهراني", "华安达", "huaanda", "adrian", "brandtner"}

func TestSeedRecordsStandAlone(t *testing.T) {
	recs := sample()
	for i, r := range recs[:SeedCount()] {
		if !strings.HasPrefix(r.ID, "SEED") {
			t.Fatalf("record %d is %s, want a seed record", i, r.ID)
		}
	}
	for _, r := range recs[SeedCount():] {
		for _, s := range NameStrings(r) {
			for _, tok := range strings.Fields(foldName(s)) {
				if slices.Contains(seedTokens, tok) {
					t.Errorf("%s: name string %q contains seed token %q", r.ID, s, tok)
				}
			}
		}
		for _, o := range r.OtherInformation {
			if strings.Contains(o, seedIMO) {
				t.Errorf("%s reuses the seed vessel's IMO number", r.ID)
			}
		}
	}
	// A fresh copy each call: callers may modify what they get.
	g := New(1)
	a := g.Record(0)
	a.AliasNames[0] = "changed"
	if g.Record(0).AliasNames[0] == "changed" {
		t.Error("Record returns a shared seed record")
	}
}

func BenchmarkWrite(b *testing.B) {
	const n = 20000
	for b.Loop() {
		if _, err := WriteCounts(io.Discard, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}
