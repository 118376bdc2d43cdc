package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// scoredQueries turns generated queries into scored checks of every kind
// and fuzzy level, at a low, the default and a high threshold, with the
// generator's filters and some source sets.
func scoredQueries(recs []*record.Record, n int, seed int64) []query.Query {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	var out []query.Query
	for i, gq := range gen.Queries(recs, n, seed) {
		q := query.Query{
			Kind: query.Kind(i % 3), Fuzzy: (i / 3) % 3, Names: gq.Names,
			DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship,
			Limit: 50, Match: query.Scored, MinScore: []float64{0.2, 0, 0.9}[(i/9)%3],
		}
		if rng.IntN(8) == 0 {
			q.Sources = map[string]bool{recs[rng.IntN(len(recs))].SourceID: true}
		}
		out = append(out, q)
	}
	return out
}

// scoredKeys is what the index and the brute-force reference must agree
// on: ids in order, with their scores and strict-style ranks.
func scoredKeys(r *Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("%s/%.6f/%v/%d/%d", h.Record.ID, h.Score, h.Exact, h.Edits, h.Extra))
	}
	return out
}

// scoredAgreesWithBrute checks that ix, and each of more, answers the
// queries exactly like the brute-force reference over recs, and that every
// hit explains itself; it returns the number of ix's hits. The reference
// answers each query once for all the indexes: it is the cost.
func scoredAgreesWithBrute(t *testing.T, ix *Index, recs []*record.Record, queries []query.Query, more ...*Index) (hits int) {
	t.Helper()
	br := NewBrute(recs)
	for _, q := range queries {
		b, err2 := br.Search(q)
		for k, x := range append([]*Index{ix}, more...) {
			a, err1 := x.Search(q)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%+v: index %d error %v, brute error %v", q, k, err1, err2)
			}
			if err1 != nil {
				continue
			}
			if a.Total != b.Total || !reflect.DeepEqual(scoredKeys(a), scoredKeys(b)) {
				t.Errorf("%q fuzzy %d kind %v min %v:\n index %d: %d %v\n brute %d %v", q.Names, q.Fuzzy, q.Kind, q.MinScore, k, a.Total, scoredKeys(a), b.Total, scoredKeys(b))
			}
			for _, h := range a.Hits {
				if h.Reason == nil || h.Reason.Score != h.Score {
					t.Errorf("%q: index %d: hit %s has no reason or a reason of another score: %+v", q.Names, k, h.Record.ID, h.Reason)
				}
			}
			if k == 0 {
				hits += a.Total
			}
		}
	}
	return hits
}

func TestScoredIndexAgreesWithBrute(t *testing.T) {
	t.Parallel()
	nRecs, nQueries := 600, 54
	switch {
	case longTests():
		nRecs, nQueries = 2000, 400
	case raceEnabled:
		nRecs, nQueries = 300, 30
	case testing.Short():
		nRecs, nQueries = 400, 36
	}
	recs := generated(nRecs, 42)
	hits := scoredAgreesWithBrute(t, NewIndex(recs), recs, scoredQueries(recs, nQueries, 5))
	if hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestScoredSegmentsAgreeWithBrute scores over an index of several
// segments with tombstones (a base and change sets of adds, updates and
// deletes), then over the same index merged into one segment: weights are
// summed over the segments' live records, so both answer exactly like the
// brute-force reference over the resulting records.
func TestScoredSegmentsAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	nBase, nQueries := 1500, 27
	switch {
	case longTests():
		nQueries = 300
	case testing.Short():
		nQueries = 18
	}
	all := generated(nBase+400, 21)
	base, extra := all[:nBase], all[nBase:]
	ix := NewIndex(base)
	cur := map[string]*record.Record{}
	for _, r := range base {
		cur[r.ID] = r
	}
	next := 0
	for set := 0; set < 3; set++ {
		var changes []record.Change
		for i := 0; i < 30; i++ { // ADD
			r := extra[next]
			next++
			changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
			cur[r.ID] = r
		}
		for i := 0; i < 20; i++ { // UPDATE: an old record takes another's names
			old := base[set*100+i*4]
			upd := *extra[next]
			next++
			upd.ID, upd.SourceID, upd.SourceType = old.ID, old.SourceID, old.SourceType
			changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: upd})
			cur[old.ID] = &upd
		}
		for i := 0; i < 15; i++ { // DELETE
			id := base[set*100+i*4+1].ID
			changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: id}})
			delete(cur, id)
		}
		ix.Apply(changes)
	}
	final := make([]*record.Record, 0, len(cur))
	for _, r := range cur {
		final = append(final, r)
	}
	if st := ix.Stats(); st.Segments < 3 || st.Tombstones == 0 {
		t.Fatalf("stats %+v: want several segments with tombstones, or the test proves nothing", st)
	}
	merged := ix.Compact()
	if st := merged.Stats(); st.Segments != 1 || st.Tombstones != 0 {
		t.Fatalf("merged stats %+v", st)
	}
	queries := scoredQueries(final, nQueries, 13)
	if hits := scoredAgreesWithBrute(t, ix, final, queries, merged); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestScoredSameScriptAgreesWithBrute: names in Han, Hangul, Arabic and
// Cyrillic whose romanisations collide (柳, 刘; ظ, ز) or nearly so, some
// records also holding a Latin alias, answer alike from the index and the
// brute-force reference, and the comparison in the shared script lowers
// some of them. Each name is checked at two of the three fuzzy levels,
// another left out in turn, each level at one of three thresholds in turn
// (AMLSCREEN_LONG_TESTS=1: every level at all three).
func TestScoredSameScriptAgreesWithBrute(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	pools := [][2][]string{
		{{"刘", "柳", "邱", "王", "汪"}, {"丽华", "丽花", "海燕", "海艳", "伟"}},
		{{"김", "박", "최", "안"}, {"성훈", "동현", "현지", "지훈"}},
		{{"زاهر", "ظاهر", "سليم", "صليم"}, {"حداد", "محمد"}},
		{{"Зуев", "Жуев", "Ильин", "Илин"}, {"Игорь", "Игор", "Петров"}},
	}
	rng := rand.New(rand.NewPCG(23, 23))
	recs := generated(300, 5)
	var queries []query.Query
	for p, pool := range pools {
		sep := ""
		if p >= 2 {
			sep = " "
		}
		for i, fam := range pool[0] {
			for j, given := range pool[1] {
				name := fam + sep + given
				r := &record.Record{ID: fmt.Sprintf("S-%d-%d-%d", p, i, j), SourceID: "test", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: name}
				if rng.IntN(3) == 0 {
					r.AliasNames = []string{pool[0][rng.IntN(len(pool[0]))] + sep + pool[1][rng.IntN(len(pool[1]))]}
				}
				if rng.IntN(4) == 0 {
					r.AliasNames = append(r.AliasNames, romanised(name))
				}
				recs = append(recs, r)
				for f := 0; f <= 2; f++ {
					for k, min := range []float64{0.2, 0, 0.82} {
						if longTests() || f != (i+j)%3 && (i+j+f)%3 == k {
							queries = append(queries, query.Query{Kind: query.Any, Names: name, Fuzzy: f, Match: query.Scored, MinScore: min, Limit: 50})
						}
					}
				}
			}
		}
	}
	ix := NewIndex(recs)
	if hits := scoredAgreesWithBrute(t, ix, recs, queries); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
	lowered := 0
	for _, q := range queries {
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.Reason.Script < 0 {
				lowered++
			}
		}
	}
	if lowered == 0 {
		t.Fatal("no hit was lowered by the comparison in the shared script: the test proves nothing")
	}
}

// romanised is s as Fold writes it, words capitalised: a Latin alias of
// a name in another script.
func romanised(s string) string {
	words := normalize.Tokenize(s).Words
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
