package bench

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

func loadFixture(t *testing.T) []*record.Record {
	t.Helper()
	f, err := os.Open("testdata/quality.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// smallNameLists swaps the false-hit vocabulary for one small enough to
// work out every generated name by hand.
func smallNameLists(t *testing.T) {
	t.Helper()
	c, h, tr, f := cultures, companyHeads, companyTrades, falseEntityForms
	t.Cleanup(func() { cultures, companyHeads, companyTrades, falseEntityForms = c, h, tr, f })
	cultures = []nameCulture{{
		key:      "test",
		given:    []string{"John", "Mary", "Peter"},
		surnames: []string{"Smith", "Brown"},
		pattern: func(given, surname func() string, _ func() bool) string {
			return given() + " " + surname()
		},
	}}
	companyHeads = []string{"Golden"}
	companyTrades = []string{"Shipping", "Mining"}
	falseEntityForms = []string{"LLC"}
}

type want struct {
	queries int
	rate    [3]float64 // recall or false-hit rate at fuzzy 0, 1, 2
	mrr     *[3]float64
}

// TestQualityFixture checks the harness against figures worked out by hand
// on testdata/quality.jsonl (twelve records, A to L by id).
func TestQualityFixture(t *testing.T) {
	smallNameLists(t)
	rep, err := Quality(QualityConfig{Records: loadFixture(t), Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	one := &[3]float64{1, 1, 1}
	cases := map[string]want{
		// Six records have an alias, each exactly one, so the choice is
		// forced. A "PETROV, Ivan" is a part of the name: found at every
		// level. C's alias spells the legal form out: found at every level.
		// D "NORDWIN TRADNG" is one edit from each word of "NORDWIND
		// TRADING": found from fuzzy 1. F "HASAN ALI" against "ALI, Hassan":
		// from fuzzy 1. B "KOVALENKA, Volha": "volha" is two edits from
		// "olga", whose four letters allow one: never. E "OCEAN PEARL"
		// shares nothing with "SEA STAR": never. Every find is the only
		// hit, so MRR equals recall.
		ClassLeaveOneOut: {6, [3]float64{2.0 / 6, 4.0 / 6, 4.0 / 6}, &[3]float64{2.0 / 6, 4.0 / 6, 4.0 / 6}},
		// Names of two units or more: all but K "ORION". The words are
		// exactly the name's, so each is an exact first hit.
		ClassReorder: {11, [3]float64{1, 1, 1}, one},
		// Individuals with two given names: A, H and I.
		ClassMiddleName: {3, [3]float64{1, 1, 1}, one},
		// C (LLC) and J (JSC) have a legal form with another spelling.
		ClassLegalForm: {2, [3]float64{1, 1, 1}, one},
		// Every name has a letter to accent; L's accents are stripped.
		ClassDiacritics: {12, [3]float64{1, 1, 1}, one},
		// A is the only person tied to Russia: "петров иван сергеевич"
		// folds to "sergeevich", one edit from "Sergeyevich".
		ClassCyrillic: {1, [3]float64{0, 1, 1}, &[3]float64{0, 1, 1}},
		// Generated persons: John Smith is G's name and is dropped, and so
		// is Mary Smith, H's "SMITH, Mary Anne" less a word (lessOneWord);
		// John Brown hits I ("BROWNE, John Paul") from fuzzy 1; Peter
		// Smith, Mary Brown and Peter Brown hit nothing.
		ClassFalsePerson: {4, [3]float64{0, 1.0 / 4, 1.0 / 4}, nil},
		// Generated companies: Golden [Golden] Shipping|Mining [LLC], eight
		// names. Golden Shipping and Golden Shipping LLC hit C; a doubled
		// Golden needs two partners, and Mining has none.
		ClassFalseEntity: {8, [3]float64{2.0 / 8, 2.0 / 8, 2.0 / 8}, nil},
	}
	for li, l := range rep.Levels {
		if l.Fuzzy != li {
			t.Fatalf("level %d is fuzzy %d", li, l.Fuzzy)
		}
		for class, w := range cases {
			c := l.Class(class)
			if c == nil {
				t.Fatalf("fuzzy %d: no row %s", li, class)
			}
			if c.Queries != w.queries {
				t.Errorf("fuzzy %d %s: %d queries, want %d", li, class, c.Queries, w.queries)
				continue
			}
			got := c.Recall
			if got == nil {
				got = c.FalseHitRate
			}
			if got == nil || !near(*got, w.rate[li]) {
				t.Errorf("fuzzy %d %s: rate %v, want %.3f", li, class, deref(got), w.rate[li])
			}
			if w.mrr != nil && (c.MRR == nil || !near(*c.MRR, w.mrr[li])) {
				t.Errorf("fuzzy %d %s: MRR %v, want %.3f", li, class, deref(c.MRR), w.mrr[li])
			}
		}
		// Pooled: persons and companies together.
		if wantRate := []float64{2.0 / 12, 3.0 / 12, 3.0 / 12}[li]; !near(l.FalseHitRate, wantRate) {
			t.Errorf("fuzzy %d: pooled false-hit rate %.3f, want %.3f", li, l.FalseHitRate, wantRate)
		}
		// Mean hits of false persons: one hit per query that hits.
		if c := l.Class(ClassFalsePerson); !near(c.MeanHits, w(li, 0, 0.25, 0.25)) {
			t.Errorf("fuzzy %d: false_person mean hits %.3f", li, c.MeanHits)
		}
		// Typos are built to be found: one within every fuzzy level from 1,
		// two at fuzzy 2. Every record has a word to misspell; K's single
		// short word cannot take two edits.
		if c := l.Class(ClassTypo1); c.Queries != 12 || li > 0 && *c.Recall != 1 {
			t.Errorf("fuzzy %d typo_1: %d queries, recall %.3f", li, c.Queries, *c.Recall)
		}
		if c := l.Class(ClassTypo2); c.Queries != 11 || li == 2 && *c.Recall != 1 {
			t.Errorf("fuzzy %d typo_2: %d queries, recall %.3f", li, c.Queries, *c.Recall)
		}
	}
	// The misses of leave-one-out: at fuzzy 0 B, D and E share no word
	// with their record's other names and F shares "ali"; from fuzzy 1
	// B shares "kovalenka" and E still nothing.
	wantMisses := []MissReport{{NoSharedWord: 3, SomeWords: 1}, {NoSharedWord: 1, SomeWords: 1}, {NoSharedWord: 1, SomeWords: 1}}
	for li, l := range rep.Levels {
		if *l.Misses != wantMisses[li] {
			t.Errorf("fuzzy %d misses %+v, want %+v", li, *l.Misses, wantMisses[li])
		}
	}
	// C's alias, legal form canonicalised, is word for word its name.
	if rep.Duplicates != 1 {
		t.Errorf("duplicates %d, want 1", rep.Duplicates)
	}
	if g := rep.Levels[0].Class(ClassDiacritics).Groups; g["stripped"] == nil || g["stripped"].Queries != 1 || g["added"].Queries != 11 {
		t.Errorf("diacritics groups %+v", g)
	}
}

func w(li int, v ...float64) float64 { return v[li] }

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func TestQualityDeterministic(t *testing.T) {
	recs := loadFixture(t)
	a, err := Quality(QualityConfig{Records: recs, Seed: 7, MaxQueries: 50, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Quality(QualityConfig{Records: recs, Seed: 7, MaxQueries: 50, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different reports with 1 and 3 workers")
	}
}

func TestQualityOptions(t *testing.T) {
	recs := loadFixture(t)
	rep, err := Quality(QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{1}, MaxQueries: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Levels) != 1 || rep.Levels[0].Fuzzy != 1 {
		t.Fatalf("levels %+v, want fuzzy 1 only", rep.Levels)
	}
	for _, c := range rep.Levels[0].Classes {
		if c.Queries > 4 {
			t.Errorf("%s: %d queries over --max-queries 4", c.Class, c.Queries)
		}
	}
	for _, cfg := range []QualityConfig{
		{Records: recs, Fuzzy: []int{3}},
		{},
		{Records: append(append([]*record.Record(nil), recs...), recs[0])},
	} {
		if _, err := Quality(cfg); err == nil {
			t.Errorf("Quality(%d records, fuzzy %v) gave no error", len(cfg.Records), cfg.Fuzzy)
		}
	}
}

func TestWriteTableAndPlot(t *testing.T) {
	smallNameLists(t)
	rep, err := Quality(QualityConfig{Records: loadFixture(t), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range []string{"leave_one_out", "false_all", "  0.667", "leave_one_out misses at fuzzy 0: 4;"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	// 3 levels × 11 rows, a header and the records line.
	if rows := strings.Count(out, "\n"); rows < 35 {
		t.Errorf("table has %d lines:\n%s", rows, out)
	}
	buf.Reset()
	if err := rep.WritePlot(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != plotW || b.Dy() != plotH {
		t.Errorf("plot is %v", b)
	}
}

func TestTypoDistance(t *testing.T) {
	recs := loadFixture(t)
	for edits := 1; edits <= 2; edits++ {
		fn := typo(edits)
		for seed := uint64(0); seed < 50; seed++ {
			for _, rec := range recs {
				q, ok := fn(rand.New(rand.NewPCG(seed, 1)), rec)
				if !ok {
					continue
				}
				orig := normalize.Tokenize(rec.Name).Words
				got := normalize.Tokenize(q).Words
				if len(orig) != len(got) {
					t.Fatalf("%q → %q changed the word count", rec.Name, q)
				}
				d := 0
				for i := range orig {
					d += dict.EditDistance(orig[i], got[i])
				}
				if d != edits {
					t.Errorf("%q → %q: %d edits, want %d", rec.Name, q, d, edits)
				}
			}
		}
	}
}

func TestPerturbations(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"dmitry", "дмитрий"},
		{"sergeyevich", "сергеевич"},
		{"andrei", "андрей"},
		{"yuri", "юрий"},
		{"lidia", "лидия"},
		{"khodorkovskiy", "ходорковский"},
		{"shchukin", "щукин"},
		{"yelena", "елена"},
	} {
		if got := latinToCyrillic(c.in); got != c.want {
			t.Errorf("latinToCyrillic(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := stripMarks("Jürgen Łukasz Ørsted Ñandú"); got != "Jurgen Lukasz Orsted Nandu" {
		t.Errorf("stripMarks = %q", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	ind := &record.Record{EntityType: record.EntityIndividual, Name: "X", GivenNames: []string{"Viktar Uladzimiravich"}, LastNames: []string{"SHEIMAN"}}
	if q, ok := middleName(r, ind); !ok || q != "viktar sheiman" {
		t.Errorf("middleName = %q, %v", q, ok)
	}
	ent := &record.Record{EntityType: record.EntityEntity, Name: "ACME TRADING LIMITED LIABILITY COMPANY"}
	units, legal := nameUnits(ent)
	if len(units) != 3 || !legal[2] || legal[0] {
		t.Errorf("nameUnits = %v %v", units, legal)
	}
	for i := 0; i < 20; i++ {
		q, ok := reorder(r, ent)
		if !ok || !strings.Contains(q, "limited liability company") {
			t.Fatalf("reorder split the legal form: %q", q)
		}
	}
	q, ok := legalForm(legalVariants())(r, ent)
	if !ok || strings.Contains(q, "limited liability company") || !strings.HasPrefix(q, "acme trading ") {
		t.Errorf("legalForm = %q, %v", q, ok)
	}
	if _, ok := cyrillic(r, ent); ok {
		t.Error("cyrillic accepted a company without a tie to Russia")
	}
	ru := &record.Record{EntityType: record.EntityIndividual, Name: "PUTIN, Vladimir", PlaceOfBirth: []string{"Leningrad, Russia"}}
	if q, ok := cyrillic(r, ru); !ok || q != "путин владимир" {
		t.Errorf("cyrillic = %q, %v", q, ok)
	}
}

// sharedDir finds ../shared beside the repository root.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// TestQualityRealOFAC holds the engine to the guarantees the benchmark is
// built on, on a sample of the real OFAC SDN list: a single typo is always
// found from fuzzy 1, two at fuzzy 2, and reordering never loses a record.
func TestQualityRealOFAC(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the real OFAC list; skipped with -short")
	}
	lists := filepath.Join(sharedDir(t), "lists")
	if _, err := os.Stat(filepath.Join(lists, "sdn.csv")); err != nil {
		t.Skipf("real lists not available (%v): the quality benchmark on OFAC data is not checked", err)
	}
	// Every fourth record by default; AMLSCREEN_LONG_TESTS=1 takes them all.
	every := 4
	if longTests() {
		every = 1
	}
	var recs []*record.Record
	n := 0
	if err := ofac.ConvertOFAC(ofac.SDNList(lists), func(r *record.Record) error {
		if n++; n%every == 0 {
			recs = append(recs, r)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := Quality(QualityConfig{Records: recs, Seed: 3, MaxQueries: 150})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range rep.Levels {
		for _, c := range l.Classes {
			if c.Queries == 0 && c.Class != ClassDiacritics {
				t.Errorf("fuzzy %d: class %s has no queries", l.Fuzzy, c.Class)
			}
		}
		check := func(class string, from int) {
			if c := l.Class(class); l.Fuzzy >= from && *c.Recall != 1 {
				t.Errorf("fuzzy %d %s: recall %.3f, want 1", l.Fuzzy, class, *c.Recall)
			}
		}
		check(ClassTypo1, 1)
		check(ClassTypo2, 2)
		check(ClassReorder, 0)
		check(ClassMiddleName, 0)
	}
}

// TestQualityModes: both modes run on the same queries, strict first, and
// the scored mode finds at least what strict does of leave-one-out on the
// fixture, whose strict misses include aliases with a word more.
func TestQualityModes(t *testing.T) {
	smallNameLists(t)
	recs := loadFixture(t)
	rep, err := Quality(QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{0, 2}, Mode: ModeBoth, MinScore: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, l := range rep.Levels {
		modes = append(modes, fmt.Sprintf("%s/%d/%g", l.Mode, l.Fuzzy, l.MinScore))
	}
	if want := []string{"strict/0/0", "strict/2/0", "scored/0/0.5", "scored/2/0.5"}; !reflect.DeepEqual(modes, want) {
		t.Fatalf("levels %v, want %v", modes, want)
	}
	for i := 0; i < 2; i++ {
		s, r := rep.Levels[i], rep.Levels[i+2]
		for _, c := range s.Classes {
			rc := r.Class(c.Class)
			if rc.Queries != c.Queries {
				t.Errorf("fuzzy %d %s: %d strict queries, %d scored", s.Fuzzy, c.Class, c.Queries, rc.Queries)
			}
		}
		if sl, rl := s.Class(ClassLeaveOneOut), r.Class(ClassLeaveOneOut); rl.Found < sl.Found {
			t.Errorf("fuzzy %d: scored found %d leave-one-out records, strict %d", s.Fuzzy, rl.Found, sl.Found)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"scored>=0.5", "strict", "leave_one_out misses, scored>=0.5, at fuzzy 2"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, buf.String())
		}
	}
	if err := rep.WritePlot(&buf); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []QualityConfig{
		{Records: recs, Mode: "fuzzy"},
		{Records: recs, Mode: ModeScored, MinScore: 2},
	} {
		if _, err := Quality(cfg); err == nil {
			t.Errorf("Quality(mode %q, min score %v) gave no error", cfg.Mode, cfg.MinScore)
		}
	}
}

// TestQualitySweepAndCleanNames: --sweep reads recall and false hits at
// every threshold off one run per level, agreeing with the level's own
// figures at its threshold; clean names make a false_clean class, listed
// names among them dropped; the sweep plot is a PNG.
func TestQualitySweepAndCleanNames(t *testing.T) {
	smallNameLists(t)
	recs := loadFixture(t)
	clean := []string{"Zebulon Quillfeather", "Octavia Brackenridge", "LLC", recs[0].Name}
	rep, err := Quality(QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{2}, Mode: ModeScored, MinScore: 0.5, Sweep: true, CleanNames: clean})
	if err != nil {
		t.Fatal(err)
	}
	l := rep.Levels[0]
	if len(l.Sweep) != len(SweepThresholds) {
		t.Fatalf("%d sweep points", len(l.Sweep))
	}
	c := l.Class(ClassFalseClean)
	if c == nil || c.Queries != 2 {
		t.Fatalf("false_clean %+v; want the two names nobody bears", c)
	}
	for _, p := range l.Sweep {
		if p.MinScore != 0.5 {
			continue
		}
		for _, cr := range l.Classes {
			if cr.Recall != nil && cr.Queries > 0 && math.Abs(p.Recall[cr.Class]-*cr.Recall) > 1e-9 {
				t.Errorf("%s: sweep recall %v at 0.5, level %v", cr.Class, p.Recall[cr.Class], *cr.Recall)
			}
		}
		if math.Abs(p.FalseAll-l.FalseHitRate) > 1e-9 {
			t.Errorf("sweep false hits %v at 0.5, level %v", p.FalseAll, l.FalseHitRate)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "threshold sweep") || !strings.Contains(buf.String(), "false_clean") {
		t.Errorf("table lacks the sweep or false_clean:\n%s", buf.String())
	}
	buf.Reset()
	if err := rep.WriteSweepPlot(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(&buf); err != nil {
		t.Errorf("sweep plot: %v", err)
	}
	strict, err := Quality(QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{2}, MaxQueries: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.WriteSweepPlot(&buf); err == nil {
		t.Error("a sweep plot without a sweep gave no error")
	}
}
