package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// diffQueries turns generated queries into checks of every kind, fuzzy
// level and mode, with the generator's filters and some source sets.
func diffQueries(recs []*record.Record, n int, seed int64) []query.Query {
	rng := rand.New(rand.NewPCG(uint64(seed), 99))
	var out []query.Query
	for i, gq := range gen.Queries(recs, n, seed) {
		q := query.Query{
			Kind:  query.Kind(i % 3),
			Fuzzy: (i / 3) % 3,
			DOB:   gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship,
			Limit: 50,
		}
		names := gq.Names
		if i%4 == 1 {
			names = swapLetters(rng, names)
		}
		if i%10 == 7 {
			q.SearchAll = names
		} else {
			q.Names = names
		}
		if rng.IntN(8) == 0 {
			q.Sources = map[string]bool{recs[rng.IntN(len(recs))].SourceID: true}
		}
		out = append(out, q)
	}
	return out
}

// swapLetters swaps two different adjacent letters in one word of s, the
// most common typing error, which the fuzzy rule counts as one edit.
func swapLetters(rng *rand.Rand, s string) string {
	words := strings.Fields(s)
	for range 5 {
		if len(words) == 0 {
			break
		}
		w := []rune(words[rng.IntN(len(words))])
		var at []int
		for i := 0; i+1 < len(w); i++ {
			if w[i] != w[i+1] && unicode.IsLetter(w[i]) && unicode.IsLetter(w[i+1]) {
				at = append(at, i)
			}
		}
		if len(at) == 0 {
			continue
		}
		k := at[rng.IntN(len(at))]
		orig := string(w)
		w[k], w[k+1] = w[k+1], w[k]
		for j := range words {
			if words[j] == orig {
				words[j] = string(w)
				break
			}
		}
		return strings.Join(words, " ")
	}
	return s
}

func sameAnswer(t *testing.T, q query.Query, a, b *Result) {
	t.Helper()
	if a.Total != b.Total || !reflect.DeepEqual(hitKeys(a), hitKeys(b)) {
		t.Errorf("%+v:\n index %d %v\n brute %d %v", q, a.Total, hitKeys(a), b.Total, hitKeys(b))
	}
}

// hitKeys is what both matchers must agree on: ids in order with their
// scores. (The reported field may differ between equally good names.)
func hitKeys(r *Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("%s/%v/%d/%d", h.Record.ID, h.Exact, h.Edits, h.Extra))
	}
	return out
}

func generated(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
}

func TestIndexAgreesWithBrute(t *testing.T) {
	t.Parallel()
	nRecs, nQueries := 600, 60
	switch {
	case longTests():
		nRecs, nQueries = 3000, 1500
	case raceEnabled:
		nRecs, nQueries = 300, 30
	}
	recs := generated(nRecs, 42)
	agreesWithBrute(t, NewIndex(recs), recs, nQueries, 7)
}

// agreesWithBrute checks that ix answers n generated queries over recs
// exactly like the brute-force matcher over recs.
func agreesWithBrute(t *testing.T, ix *Index, recs []*record.Record, n int, seed int64) {
	t.Helper()
	br := NewBrute(recs)
	hits := 0
	for _, q := range diffQueries(recs, n, seed) {
		a, err1 := ix.Search(q)
		b, err2 := br.Search(q)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%+v: index error %v, brute error %v", q, err1, err2)
		}
		if err1 != nil {
			continue
		}
		sameAnswer(t, q, a, b)
		if a.Total > 0 {
			hits++
		}
	}
	// A differential test over queries that never hit would prove nothing.
	if hits < n/3 {
		t.Errorf("only %d of %d queries hit: the generated queries are too weak", hits, n)
	}
}

// TestApplyAgreesWithRebuild applies a change set of adds, updates and
// deletes to an index and checks it answers like the brute-force matcher
// over the resulting records.
func TestApplyAgreesWithRebuild(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	const n = 1500
	all := generated(n+300, 5)
	base, extra := all[:n], all[n:]
	ix := NewIndex(base)

	cur := make(map[string]*record.Record, n)
	order := []string{}
	for _, r := range base {
		cur[r.ID] = r
		order = append(order, r.ID)
	}
	var changes []record.Change
	for _, r := range extra[:200] { // ADD
		changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
		cur[r.ID] = r
		order = append(order, r.ID)
	}
	for i := 0; i < 200; i++ { // UPDATE: record i takes the names of an extra record
		old := base[i*3]
		upd := *extra[200+i%100]
		upd.ID, upd.SourceID, upd.SourceType = old.ID, old.SourceID, old.SourceType
		changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: upd})
		cur[old.ID] = &upd
	}
	for i := 0; i < 150; i++ { // DELETE
		id := base[i*3+1].ID
		changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: id}})
		delete(cur, id)
	}
	changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: "NOPE"}})
	st := ix.Apply(changes)
	if st.Added != 200 || st.Updated != 200 || st.Deleted != 150 || st.DeletedUnknown != 1 {
		t.Errorf("stats %+v", st)
	}
	var final []*record.Record
	for _, id := range order {
		if r, ok := cur[id]; ok {
			final = append(final, r)
		}
	}
	if ix.Len() != len(final) {
		t.Fatalf("index has %d records, want %d", ix.Len(), len(final))
	}
	nQueries := 40 // AMLSCREEN_LONG_TESTS=1: 400
	if longTests() {
		nQueries = 400
	}
	agreesWithBrute(t, ix, final, nQueries, 11)
	// Deleted and replaced names are gone.
	for i := 0; i < 150; i++ {
		if ix.Get(base[i*3+1].ID) != nil {
			t.Fatalf("deleted record %s still there", base[i*3+1].ID)
		}
	}
}

// TestHungarianAgreesWithBrute runs the differential test with the index
// pairing every candidate by the Hungarian method and the reference
// enumerating every assignment, so the two algorithms are held to the same
// answers on the same queries.
func TestHungarianAgreesWithBrute(t *testing.T) {
	skipUnderRace(t)
	defer func(p, b int) { pairStepBudget, bruteStepBudget = p, b }(pairStepBudget, bruteStepBudget)
	pairStepBudget, bruteStepBudget = 0, -1
	nRecs, n := 600, 60
	switch {
	case longTests():
		nRecs, n = 2000, 800
	}
	recs := generated(nRecs, 42)
	agreesWithBrute(t, NewIndex(recs), recs, n, 8)
}

// TestRepeatedWordsStayPolynomial: 32 copies of a word against a name
// holding 31 of them has no pairing, and a depth-first search would try
// every arrangement (31! of them) to find that out. Both matchers answer
// at once, and alike, with and without a pairing to find.
func TestRepeatedWordsStayPolynomial(t *testing.T) {
	name := func(word string, n int) string { return strings.TrimSpace(strings.Repeat(word+" ", n)) }
	recs := []*record.Record{
		{ID: "R31", SourceID: "s", SourceType: "SANCTION", EntityType: record.EntityIndividual, Name: name("ivan", 31)},
		{ID: "R32", SourceID: "s", SourceType: "SANCTION", EntityType: record.EntityIndividual, Name: name("ivan", 31) + " ivam"},
		{ID: "R40", SourceID: "s", SourceType: "SANCTION", EntityType: record.EntityIndividual, Name: name("ivan", 20) + " " + name("iwan", 20)},
	}
	ix, br := NewIndex(recs), NewBrute(recs)
	for _, q := range []query.Query{
		{Names: name("ivan", 32)},
		{Names: name("ivan", 32), Fuzzy: 1},
		{Names: name("ivan", 16) + " " + name("ivam", 16), Fuzzy: 1},
		{SearchAll: name("ivan", 32), Fuzzy: 1},
	} {
		a, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := br.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		sameAnswer(t, q, a, b)
	}
	res, _ := ix.Search(query.Query{Names: name("ivan", 32), Fuzzy: 1})
	if got := hitKeys(res); len(got) != 2 || got[0] != "R32/false/1/0" {
		t.Errorf("32 ivans at fuzzy 1: %v, want R32 with 1 edit then R40", got)
	}
}
