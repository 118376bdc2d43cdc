package batch

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
)

// Kinds of customers in the generated book, and the least fuzzy level at
// which each must be found.
const (
	seedExact    = "exact"    // a record's name as listed
	seedReorder  = "reorder"  // its words shuffled
	seedTypo1    = "typo1"    // one wrong letter
	seedTypo2    = "typo2"    // two wrong letters in one long word
	seedTranslit = "translit" // a Cyrillic name string written in Latin letters
	seedClean    = "clean"    // a name no record bears, even at fuzzy 2
)

var foundFrom = map[string]int{seedExact: 0, seedReorder: 0, seedTranslit: 0, seedTypo1: 1, seedTypo2: 2}

// customer is a row of the generated book and what it must find.
type customer struct {
	id, name, kind, dob, gender, citizenship string
	seed                                     string
	record                                   string // the record it was made from
}

var sampleRecords = sync.OnceValues(sampledata.Records)

var sampleIndex = sync.OnceValues(func() (*engine.Index, error) {
	recs, err := sampleRecords()
	if err != nil {
		return nil, err
	}
	return engine.NewIndex(recs), nil
})

func mustSample(t testing.TB) ([]*record.Record, *engine.Index) {
	t.Helper()
	recs, err := sampleRecords()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := sampleIndex()
	if err != nil {
		t.Fatal(err)
	}
	return recs, ix
}

// bgn writes Russian Cyrillic in Latin letters the way SEMANTICS.md says
// the engine reads it, so that a customer spelled in Latin meets a record
// listed in Cyrillic.
var bgn = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z", 'и': "i", 'й': "y",
	'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f",
	'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu", 'я': "ya",
}

// latinOf transliterates a Cyrillic name; ok is false when it holds a
// letter outside the Russian alphabet or no Cyrillic at all.
func latinOf(s string) (string, bool) {
	var b strings.Builder
	cyr := false
	for _, r := range s {
		lr := unicode.ToLower(r)
		if l, ok := bgn[lr]; ok {
			cyr = true
			if unicode.IsUpper(r) && l != "" {
				l = strings.ToUpper(l[:1]) + l[1:]
			}
			b.WriteString(l)
			continue
		}
		if unicode.IsLetter(r) && r > unicode.MaxASCII {
			return "", false
		}
		b.WriteRune(r)
	}
	return b.String(), cyr
}

// plain reports whether a name has one spelling, the same whether legal
// forms are read or not: its words may be shuffled or misspelt one by one
// without breaking a legal form or a hyphenated compound.
func plain(name string) bool {
	raw, legal := normalize.QueryVariants(name, false), normalize.QueryVariants(name, true)
	return len(raw) == 1 && len(legal) == 1 && slices.Equal(raw[0], legal[0]) && len(raw[0]) >= 2
}

func asciiWord(w string, minLen int) bool {
	if len(w) < minLen {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// misspell substitutes n distinct letters of one long ASCII word of name.
func misspell(r *rand.Rand, name string, n, minLen int) (string, bool) {
	words := strings.Fields(name)
	var cands []int
	for i, w := range words {
		if asciiWord(w, minLen) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	i := cands[r.IntN(len(cands))]
	w := []byte(words[i])
	for _, p := range r.Perm(len(w))[:n] {
		c := w[p] | 0x20
		nc := byte('a' + r.IntN(26))
		for nc == c {
			nc = byte('a' + r.IntN(26))
		}
		w[p] = nc
	}
	words[i] = string(w)
	return strings.Join(words, " "), true
}

func checkOf(rec *record.Record) string {
	switch rec.EntityType {
	case record.EntityIndividual:
		return "individual"
	case record.EntityEntity:
		return "entity"
	}
	return "any"
}

// withFilters copies the record's own dob, gender and citizenship onto an
// individual customer, written the way books write them, so the filters
// are exercised and must keep the record.
func withFilters(r *rand.Rand, c *customer, rec *record.Record) {
	if rec.EntityType != record.EntityIndividual || r.IntN(2) == 0 {
		return
	}
	if len(rec.DateOfBirth) > 0 {
		if d := rec.DateOfBirth[0]; len(d) == 10 && d[2] == '/' && d[5] == '/' && !strings.HasPrefix(d, "00") && d[3:5] != "00" {
			c.dob = d[6:] + "-" + d[3:5] + "-" + d[:2]
		}
	}
	switch rec.Gender {
	case record.GenderMale:
		c.gender = "M"
	case record.GenderFemale:
		c.gender = "F"
	}
	// Demonyms (German) are not country names; books are expected to
	// hold codes or names.
	if len(rec.Citizenship) == 1 {
		if _, ok := country.Code(rec.Citizenship[0]); ok {
			c.citizenship = rec.Citizenship[0]
		}
	}
}

var syllables = strings.Fields("zor vak quil brem tusk fen dro mav ulk pex rin gost thal nek obr yss")

// generateBook makes n customers: about half made from records of recs in
// the ways above, the rest clean names checked against ix at fuzzy 2.
func generateBook(recs []*record.Record, ix *engine.Index, n int, seed uint64) []customer {
	r := rand.New(rand.NewPCG(seed, 0xb00c))
	var cyrillic []struct {
		rec  *record.Record
		name string
	}
	for _, rec := range recs {
		for _, ns := range engine.NameStrings(rec) {
			if l, ok := latinOf(ns.Text); ok {
				cyrillic = append(cyrillic, struct {
					rec  *record.Record
					name string
				}{rec, l})
			}
		}
	}
	if len(cyrillic) < 50 {
		panic(fmt.Sprintf("the sample has only %d Cyrillic name strings", len(cyrillic)))
	}
	out := make([]customer, 0, n)
	for len(out) < n {
		c := customer{id: fmt.Sprintf("K%06d", len(out)+1)}
		rec := recs[r.IntN(len(recs))]
		c.kind, c.record = checkOf(rec), rec.ID
		ok := true
		switch k := r.IntN(20); {
		case k < 3: // half the book is made from records, half is clean
			c.seed, c.name = seedExact, rec.Name
			ok = strings.TrimSpace(rec.Name) != "" && len(normalize.QueryVariants(rec.Name, false)) > 0
		case k < 5:
			c.seed = seedReorder
			if ok = plain(rec.Name); ok {
				w := strings.Fields(rec.Name)
				for slices.Equal(w, strings.Fields(rec.Name)) {
					r.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
				}
				c.name = strings.Join(w, " ")
			}
		case k < 7:
			c.seed = seedTypo1
			if ok = plain(rec.Name); ok {
				c.name, ok = misspell(r, rec.Name, 1, 6)
			}
		case k < 9:
			c.seed = seedTypo2
			if ok = plain(rec.Name); ok {
				c.name, ok = misspell(r, rec.Name, 2, 8)
			}
		case k < 10:
			cy := cyrillic[r.IntN(len(cyrillic))]
			c.seed, c.name, c.record, c.kind = seedTranslit, cy.name, cy.rec.ID, checkOf(cy.rec)
			rec = cy.rec
		default:
			c = cleanCustomer(r, ix, c.id)
		}
		if !ok {
			continue
		}
		if c.seed != seedClean {
			withFilters(r, &c, rec)
		}
		out = append(out, c)
	}
	return out
}

// cleanCustomer makes a name of invented words that no record matches at
// fuzzy 2, whatever the check.
func cleanCustomer(r *rand.Rand, ix *engine.Index, id string) customer {
	for {
		words := make([]string, 2+r.IntN(2))
		for i := range words {
			var w string
			for len(w) < 6 {
				w += syllables[r.IntN(len(syllables))]
			}
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
		name := strings.Join(words, " ")
		res, err := ix.Search(query.Query{Names: name, Fuzzy: 2, Limit: 1})
		if err == nil && res.Total == 0 {
			return customer{id: id, name: name, kind: "any", seed: seedClean}
		}
	}
}

// sharedBook is the generated book of the tests, made once: checking its
// clean names costs more than screening it. 4,000 customers, 2,000 under
// -short or the race detector, 10,000 with AMLSCREEN_LONG_TESTS=1.
var sharedBook = sync.OnceValue(func() []customer {
	recs, err := sampleRecords()
	if err != nil {
		panic(err)
	}
	ix, err := sampleIndex()
	if err != nil {
		panic(err)
	}
	n := 4000
	switch {
	case os.Getenv("AMLSCREEN_LONG_TESTS") != "":
		n = 10000
	case testing.Short() || raceEnabled:
		n = 2000
	}
	return generateBook(recs, ix, n, 1)
})

func writeBook(t testing.TB, path string, book []customer) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write([]string{"customer_id", "full_name", "type", "date_of_birth", "gender", "nationality"})
	for _, c := range book {
		kind := c.kind
		if kind == "any" {
			kind = ""
		}
		w.Write([]string{c.id, c.name, kind, c.dob, c.gender, c.citizenship})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// hitsByCustomer reads a CSV hits file: customer id → record id → exact.
func hitsByCustomer(t testing.TB, path string) map[string]map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], HitColumns) {
		t.Fatalf("header %v", rows[0])
	}
	out := map[string]map[string]bool{}
	for _, row := range rows[1:] {
		if out[row[1]] == nil {
			out[row[1]] = map[string]bool{}
		}
		out[row[1]][row[3]] = row[11] == "true"
	}
	return out
}

// TestGeneratedBook screens 10,000 generated customers against the
// embedded sample at fuzzy 0, 1 and 2: every customer made from a listed
// name finds its record from the fuzzy level its change needs on (exact
// names flagged exact), and no clean customer finds anything. Rows are
// screened on several workers, so this also pins down that hits land on
// the row they belong to.
func TestGeneratedBook(t *testing.T) {
	_, ix := mustSample(t)
	book := sharedBook()
	n := len(book)
	dir := t.TempDir()
	in := filepath.Join(dir, "book.csv")
	writeBook(t, in, book)
	seen := map[string]int{}
	for _, c := range book {
		seen[c.seed]++
	}
	t.Logf("book: %v", seen)
	for fuzzy := 0; fuzzy <= 2; fuzzy++ {
		out := filepath.Join(dir, fmt.Sprintf("hits%d.csv", fuzzy))
		sum, err := Run(context.Background(), Config{
			Screener: Screener{Index: ix, Fuzzy: fuzzy}, Input: in, Out: out, Workers: 4,
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.RowsRead != int64(n) || sum.RowsRejected != 0 {
			t.Logf("rejects:\n%s", readFile(t, DefaultRejectsPath(out)))
			t.Fatalf("fuzzy %d: read %d, rejected %d", fuzzy, sum.RowsRead, sum.RowsRejected)
		}
		hits := hitsByCustomer(t, out)
		missed := map[string]int{}
		for _, c := range book {
			got := hits[c.id]
			if c.seed == seedClean {
				if len(got) > 0 {
					t.Errorf("fuzzy %d: clean customer %s %q hit %v", fuzzy, c.id, c.name, got)
				}
				continue
			}
			if fuzzy < foundFrom[c.seed] {
				continue
			}
			exact, found := got[c.record]
			if !found {
				missed[c.seed]++
				if missed[c.seed] <= 3 {
					t.Errorf("fuzzy %d: %s customer %s %q (%s, dob %q, gender %q, citizenship %q) did not find %s",
						fuzzy, c.seed, c.id, c.name, c.kind, c.dob, c.gender, c.citizenship, c.record)
				}
				continue
			}
			if c.seed == seedExact && !exact {
				t.Errorf("fuzzy %d: exact customer %s %q found %s, not flagged exact", fuzzy, c.id, c.name, c.record)
			}
		}
		if len(missed) > 0 {
			t.Errorf("fuzzy %d: missed %v", fuzzy, missed)
		}
	}
}
