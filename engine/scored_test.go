package engine

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// scoredList is a small list with a background: listed people and
// companies whose names the tests search for, and 300 filler records
// made of common given names and surnames, so that "muhammad", "ali" or
// "company" are common words here, as they are on real lists.
func scoredList() []*record.Record {
	ind := func(id, name string, aliases ...string) *record.Record {
		return &record.Record{ID: id, SourceID: "ofac", SourceType: "SANCTION", Name: name, EntityType: record.EntityIndividual, AliasNames: aliases}
	}
	ent := func(id, name string, aliases ...string) *record.Record {
		return &record.Record{ID: id, SourceID: "ofac", SourceType: "SANCTION", Name: name, EntityType: record.EntityEntity, AliasNames: aliases}
	}
	recs := []*record.Record{
		ind("putin", "PUTIN, Vladimir Vladimirovich"),
		ind("smith", "SMITH, John"),
		ind("mirvakili", "MIRVAKILI, Aliakbar"),
		ind("saud", "AL SAUD, Abdul Aziz"),
		ind("soleimani", "SOLEIMANI, Qasem"),
		ind("kozlov", "KOZLOV, Aleksandr Mikhaylovich"),
		ind("pasichnyk", "PASICHNYK, Yevhen"),
		ind("yusuf", "YOUSSEF, Khalil"),
		ind("hassan", "HASSAN, Kamal Abdel"),
		ind("khaled", "KHALED, Tarek"),
		ind("bouteflika", "BOUTEFLIKA, Said"),
		ind("wong", "WONG, Kwok Wing"),
		ind("schmidt", "SCHMIDT, Dieter"),
		{ID: "kuznetsova", SourceID: "un", SourceType: "SANCTION", Name: "KUZNETSOVA, Olga", EntityType: record.EntityIndividual,
			Gender: record.GenderFemale, DateOfBirth: []string{"12/05/1970"}, Citizenship: []string{"RU"}},
		ent("acme", "ACME TRADING LLC"),
		ent("sinaloa", "SINALOA CARTEL"),
		ent("sepanir", "SEPANIR OIL AND GAS ENGINEERING COMPANY"),
		ent("pardis", "PARDIS INVESTMENT COMPANY"),
	}
	given := []string{"Muhammad", "Ali", "Ahmed", "Omar", "Hassan", "Ivan", "Sergei", "John", "Maria", "Jose", "Wei", "Li"}
	family := []string{"Al Rashid", "Khan", "Ibrahim", "Petrov", "Garcia", "Lopez", "Chen", "Wang", "Smirnov", "Haddad", "Mansour", "Nasser",
		"Aziz", "Kamal", "Salem", "Yilmaz", "Kaya", "Silva", "Santos", "Rossi", "Novak", "Horvat", "Popescu", "Nagy", "Kowalski"}
	for i := range 300 {
		name := given[i%len(given)] + " " + family[(i/len(given))%len(family)]
		if i%3 == 0 {
			name = "Muhammad " + name
		}
		recs = append(recs, ind(fmt.Sprintf("p%03d", i), name))
	}
	trades := []string{"Trading", "Shipping", "Holding", "Investment", "Logistics", "Mining"}
	for i := range 60 {
		recs = append(recs, ent(fmt.Sprintf("c%02d", i), fmt.Sprintf("%s %s Company", family[i%len(family)], trades[i%len(trades)])))
	}
	return recs
}

var scoredIndex = sync.OnceValues(func() (*Index, *Brute) {
	recs := scoredList()
	return NewIndex(recs), NewBrute(recs)
})

// scoredSearch runs q in scored mode through the index and the brute-force
// reference, which must agree.
func scoredSearch(t *testing.T, q query.Query) *Result {
	t.Helper()
	ix, br := scoredIndex()
	q.Match = query.Scored
	a, err := ix.Search(q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	b, err := br.Search(q)
	if err != nil {
		t.Fatalf("%+v: brute: %v", q, err)
	}
	if fmt.Sprint(scoredKeys(a)) != fmt.Sprint(scoredKeys(b)) || a.Total != b.Total {
		t.Fatalf("%q: index %v, brute %v", q.Names, scoredKeys(a), scoredKeys(b))
	}
	return a
}

func hitOf(r *Result, id string) *Hit {
	for i := range r.Hits {
		if r.Hits[i].Record.ID == id {
			return &r.Hits[i]
		}
	}
	return nil
}

// scoreFor returns the score of record id for q at a threshold low enough
// to see it, and 0 when the record does not pair at all.
func scoreFor(t *testing.T, names, id string, fuzzy int) float64 {
	t.Helper()
	res := scoredSearch(t, query.Query{Names: names, Fuzzy: fuzzy, MinScore: 0.001})
	if h := hitOf(res, id); h != nil {
		return h.Score
	}
	return 0
}

// TestScoredFindsWhatStrictRejects pins the rules of the issue one by one:
// each query finds its record first in scored mode, scoring at least 0.5,
// where the strict rule at the same fuzzy level rejects it. (The list is
// small, so scores run lower than on a real list; bench/README.md has the
// figures on the OFAC and UN lists.)
func TestScoredFindsWhatStrictRejects(t *testing.T) {
	ix, _ := scoredIndex()
	for _, tc := range []struct {
		rule, query string
		fuzzy       int
		want        string
	}{
		{"a query word without a partner lowers the score", "John Michael Smith", 2, "smith"},
		{"joined words", "Ali Akbar Mirvakili", 2, "mirvakili"},
		{"split words", "Abdulaziz Al Saud", 2, "saud"},
		{"a legal form that differs costs a little", "Acme Trading Ltd", 2, "acme"},
		{"given-name class (Yusuf, Youssef) and kh/h", "Yusuf Halil", 1, "yusuf"},
		{"given-name class (Alexander, Aleksandr) and y/i", "Alexander Mikhailovich Kozlov", 1, "kozlov"},
		{"transliteration: e/i, h/g, y/i", "Yevgen Pasechnik", 1, "pasichnyk"},
		{"given-name class (Qassem, Qasem) and transliteration", "Qassem Sulaimani", 1, "soleimani"},
		{"w/v and the consonant skeleton (Poutine, Putin)", "Wladimir Poutine", 1, "putin"},
		{"words in another order and a word more", "Cartel de Sinaloa", 0, "sinaloa"},
		{"a company name with a word different", "Sepanir Oil and Gas Engineering Group", 0, "sepanir"},
	} {
		strict, err := ix.Search(query.Query{Names: tc.query, Fuzzy: tc.fuzzy})
		if err != nil {
			t.Fatal(err)
		}
		if hitOf(strict, tc.want) != nil {
			t.Errorf("%s: strict mode finds %s for %q; the case no longer shows a difference", tc.rule, tc.want, tc.query)
		}
		res := scoredSearch(t, query.Query{Names: tc.query, Fuzzy: tc.fuzzy, MinScore: 0.5})
		if h := hitOf(res, tc.want); h == nil || h != &res.Hits[0] {
			t.Errorf("%s: %q does not find %s first (hits %v)", tc.rule, tc.query, tc.want, scoredKeys(res))
		}
	}
}

// TestScoredCommonWordsAlone: common words alone never make a hit, however
// many records hold them; a rare word is evidence.
func TestScoredCommonWordsAlone(t *testing.T) {
	for _, q := range []string{"Muhammad", "Ali", "Al", "Company", "Muhammad Ali", "Trading Company", "Muhammad Al"} {
		if res := scoredSearch(t, query.Query{Names: q, Fuzzy: 2}); res.Total != 0 {
			t.Errorf("%q: %d hits, first %v; want none", q, res.Total, scoredKeys(res)[0])
		}
	}
	rare, common := scoreFor(t, "Soleimani", "soleimani", 0), scoreFor(t, "Muhammad", "p000", 0)
	if !(rare > common) {
		t.Errorf("a rare surname alone scores %v, a common given name alone %v", rare, common)
	}
}

// TestScoredExactIsOne: the very same words score 1 whatever their
// frequency; a listed name matched word for word is always a hit.
func TestScoredExactIsOne(t *testing.T) {
	for _, tc := range [][2]string{{"Vladimir Vladimirovich Putin", "putin"}, {"Ali Al Rashid", "p001"}, {"Muhammad Omar Al Rashid", "p003"}, {"Ali Khan", "p013"}} {
		res := scoredSearch(t, query.Query{Names: tc[0], Fuzzy: 2})
		if h := hitOf(res, tc[1]); h == nil || h.Score != 1 || !h.Exact || &res.Hits[0] != h {
			t.Errorf("%q: %v; want %s first with score 1", tc[0], scoredKeys(res), tc[1])
		}
	}
}

// TestScoredOrderFree: a word order that puts the family name first costs
// nothing.
func TestScoredOrderFree(t *testing.T) {
	for _, tc := range [][3]string{
		{"Vladimir Putin", "Putin Vladimir", "putin"},
		{"Tarek Khaled", "KHALED, Tarek", "khaled"},
		{"Kwok Wing Wong", "Wong Kwok Wing", "wong"},
	} {
		a, b := scoreFor(t, tc[0], tc[2], 2), scoreFor(t, tc[1], tc[2], 2)
		if a != b || a == 0 {
			t.Errorf("%q scores %v, %q %v", tc[0], a, tc[1], b)
		}
	}
}

// TestScoredOrdering: closer spellings score more; a missing word costs,
// a missing common word less than a rare one; a differing legal form
// costs, a missing one less.
func TestScoredOrdering(t *testing.T) {
	type pair struct{ better, worse string }
	for _, tc := range []struct {
		id    string
		pairs []pair
	}{
		{"putin", []pair{
			{"Vladimir Putin", "Vladimir Puttin"},
			{"Vladimir Puttin", "Vladimir Pootin"},
			{"Vladimir Vladimirovich Putin", "Vladimir Putin"},
			{"Vladimir Putin", "Vladimir Putin Xylophon"},
		}},
		{"acme", []pair{
			{"Acme Trading LLC", "Acme Trading"},
			{"Acme Trading", "Acme Trading Ltd"},
			{"Acme Trading", "Acme Trading Mining"},
		}},
		{"smith", []pair{
			{"John Smith", "John Muhammad Smith"},
			{"John Muhammad Smith", "John Xylophon Smith"},
		}},
	} {
		for _, p := range tc.pairs {
			b, w := scoreFor(t, p.better, tc.id, 2), scoreFor(t, p.worse, tc.id, 2)
			if !(b > w) {
				t.Errorf("%s: %q scores %v, not more than %q (%v)", tc.id, p.better, b, p.worse, w)
			}
		}
	}
}

// TestScoredVariantClassesKeepNamesApart: two words of different given-name
// classes never pair, however alike (Hassan, Hussein); two spellings of
// one class pair even at fuzzy 0.
func TestScoredVariantClassesKeepNamesApart(t *testing.T) {
	res := scoredSearch(t, query.Query{Names: "Kamal Abdel Hussein", Fuzzy: 2, MinScore: 0.001})
	if h := hitOf(res, "hassan"); h != nil {
		for _, p := range h.Reason.Pairs {
			if p.Query == "hussein" {
				t.Errorf("hussein paired with %s (%s)", p.Record, p.Kind)
			}
		}
	}
	h := hitOf(scoredSearch(t, query.Query{Names: "Yusuf Khalil", Fuzzy: 0, MinScore: 0.001}), "yusuf")
	if h == nil || h.Reason.Pairs[0].Kind != "variant" {
		t.Errorf("Yusuf, Youssef at fuzzy 0: %+v", h)
	}
}

// TestScoredReason: a hit says which name string, which pairs of which
// kind, what each brought and which words went without a partner; the
// contributions add up to the logit, and the score follows from it.
func TestScoredReason(t *testing.T) {
	res := scoredSearch(t, query.Query{Names: "Jon Michael Smith", Fuzzy: 2, MinScore: 0.001})
	h := hitOf(res, "smith")
	if h == nil {
		t.Fatal("no hit")
	}
	r := h.Reason
	if r.Field != "name" || r.Name != "SMITH, John" || r.Score != h.Score || h.Field != "name" {
		t.Errorf("reason %+v", r)
	}
	kinds := map[string]string{}
	sum := r.Complete + r.Prior + r.Offset
	for _, p := range r.Pairs {
		kinds[p.Query+"~"+p.Record] = p.Kind
		sum += p.Contribution
		if p.Similarity <= 0 || p.Similarity > 1 || p.Weight < 0 {
			t.Errorf("pair %+v out of range", p)
		}
	}
	for _, u := range r.UnpairedQuery {
		sum += u.Contribution
	}
	for _, u := range r.UnpairedRecord {
		sum += u.Contribution
	}
	if kinds["jon~john"] != "edit" || kinds["smith~smith"] != "exact" || len(r.UnpairedQuery) != 1 || r.UnpairedQuery[0].Word != "michael" {
		t.Errorf("pairs %v, unpaired %+v", kinds, r.UnpairedQuery)
	}
	if math.Abs(sum-r.Logit) > 1e-3 {
		t.Errorf("contributions add up to %v, logit %v", sum, r.Logit)
	}
	if want := 1 / (1 + math.Exp(-r.Logit/scoreTemperature)); math.Abs(want-r.Score) > 1e-3 {
		t.Errorf("score %v, from the logit %v", r.Score, want)
	}
}

// TestScoredTotalAndRanking: records are ranked by score, Total counts
// those at or above the threshold, the limit cuts the hits but not Total.
func TestScoredTotalAndRanking(t *testing.T) {
	all := scoredSearch(t, query.Query{Names: "Muhammad Ali Khan", Fuzzy: 1, MinScore: 0.05})
	if all.Total < 20 || all.Hits[0].Record.ID != "p013" {
		t.Fatalf("%d hits, first %v; want many, Ali Khan first", all.Total, scoredKeys(all)[:1])
	}
	for i, h := range all.Hits {
		if h.Score < 0.05 || h.Score > 1 || i > 0 && h.Score > all.Hits[i-1].Score {
			t.Errorf("hit %d %s scores %v: out of order or below the threshold", i, h.Record.ID, h.Score)
		}
	}
	cut := scoredSearch(t, query.Query{Names: "Muhammad Ali Khan", Fuzzy: 1, MinScore: 0.05, Limit: 2})
	if cut.Total != all.Total || len(cut.Hits) != 2 || cut.Hits[0].Record.ID != all.Hits[0].Record.ID {
		t.Errorf("limit 2: total %d, hits %v; without: %d", cut.Total, scoredKeys(cut), all.Total)
	}
	high := scoredSearch(t, query.Query{Names: "Muhammad Ali Khan", Fuzzy: 1, MinScore: 0.2})
	for _, h := range all.Hits {
		if (h.Score >= 0.2) != (hitOf(high, h.Record.ID) != nil) {
			t.Errorf("%s scores %v; at min 0.2 it is found: %v", h.Record.ID, h.Score, hitOf(high, h.Record.ID) != nil)
		}
	}
}

// TestScoredFilters: dob, sources and the check's entity types apply
// exactly as in strict mode; gender and citizenship filter in strict mode
// only, and in scored mode a record of another gender or citizenship stays,
// at a lower score (scored_evidence.go).
func TestScoredFilters(t *testing.T) {
	base := query.Query{Names: "Olga Kuznetsova", Fuzzy: 2}
	plain := hitOf(scoredSearch(t, base), "kuznetsova")
	for _, tc := range []struct {
		mod           func(*query.Query)
		found, strict bool
	}{
		{func(q *query.Query) {}, true, true},
		{func(q *query.Query) { q.DOB = "12/05/1970" }, true, true},
		{func(q *query.Query) { q.DOB = "00/00/1970" }, true, true},
		{func(q *query.Query) { q.DOB = "12/05/1971" }, false, false},
		{func(q *query.Query) { q.Gender = "female" }, true, true},
		{func(q *query.Query) { q.Gender = "male" }, true, false},
		{func(q *query.Query) { q.Citizenship = "ru" }, true, true},
		{func(q *query.Query) { q.Citizenship = "UA" }, true, false},
		{func(q *query.Query) { q.Sources = map[string]bool{"un": true} }, true, true},
		{func(q *query.Query) { q.Sources = map[string]bool{"ofac": true} }, false, false},
		{func(q *query.Query) { q.Kind = query.Individual }, true, true},
		{func(q *query.Query) { q.Kind = query.Entity }, false, false},
	} {
		q := base
		tc.mod(&q)
		res := scoredSearch(t, q)
		h := hitOf(res, "kuznetsova")
		if (h != nil) != tc.found {
			t.Errorf("%+v: found %v, want %v", q, !tc.found, tc.found)
		}
		if h != nil && tc.found && !tc.strict && h.Score >= plain.Score {
			t.Errorf("%+v: a record the strict filter drops scores %v, not below %v", q, h.Score, plain.Score)
		}
		strict := q
		strict.Names = "KUZNETSOVA, Olga"
		sres, _ := scoredIndexOnly().Search(strict)
		if (hitOf(sres, "kuznetsova") != nil) != tc.strict {
			t.Errorf("strict %+v: found %v, want %v", strict, !tc.strict, tc.strict)
		}
	}
	if res := scoredSearch(t, query.Query{Names: "Acme Trading LLC", Kind: query.Individual}); res.Total != 0 {
		t.Errorf("checkIndividual found a company: %v", scoredKeys(res))
	}
}

func scoredIndexOnly() *Index { ix, _ := scoredIndex(); return ix }

// TestScoredParams: a search refuses the scored-mode parameters that
// break the rules, and a query of a legal form alone finds nothing.
func TestScoredParams(t *testing.T) {
	ix, _ := scoredIndex()
	for _, tc := range []struct {
		q     query.Query
		param string
	}{
		{query.Query{Names: "x", MinScore: 0.5}, "min_score"},
		{query.Query{Names: "x", Match: query.Scored, MinScore: 2}, "min_score"},
		{query.Query{Names: "x", Match: query.Scored, MinScore: math.NaN()}, "min_score"},
		{query.Query{SearchAll: "x", Match: query.Scored}, "match"},
		{query.Query{Names: "x", Match: 7}, "match"},
	} {
		_, err := ix.Search(tc.q)
		var pe *query.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("%+v: %v, want a ParamError of %s", tc.q, err, tc.param)
		}
	}
	if res, err := ix.Search(query.Query{Names: "LLC", Match: query.Scored}); err != nil || res.Total != 0 {
		t.Errorf("a query of a legal form alone: %v, %v", res, err)
	}
}

// TestScoredAfterChanges: what scored mode keeps (word counts, key maps)
// follows every change set once built: after adds, updates and deletes,
// the index answers like a brute-force reference over the records it now
// holds, and like an index built afresh.
func TestScoredAfterChanges(t *testing.T) {
	skipUnderRace(t)
	recs := generated(1500, 9)
	ix := NewIndex(recs[:1000])
	ix.PrepareScored()
	live := map[string]*record.Record{}
	for _, r := range recs[:1000] {
		live[r.ID] = r
	}
	var changes []record.Change
	for i, r := range recs[1000:] {
		changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
		live[r.ID] = r
		if i%5 == 0 {
			old := recs[i]
			changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: old.ID}})
			delete(live, old.ID)
		}
		if i%7 == 0 {
			upd := *recs[i+300]
			upd.AliasNames = append([]string{r.Name}, upd.AliasNames...)
			changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: upd})
			live[upd.ID] = &upd
		}
	}
	for i := 0; i < len(changes); i += 97 {
		ix.Apply(changes[i:min(i+97, len(changes))])
	}
	var final []*record.Record
	ix.ForEach(func(r *record.Record) { final = append(final, live[r.ID]) })
	nQueries := 36 // AMLSCREEN_LONG_TESTS=1: 150
	if longTests() {
		nQueries = 150
	}
	qs := scoredQueries(recs, nQueries, 4)
	scoredAgreesWithBrute(t, ix, final, qs)
	fresh := NewIndex(final)
	for _, q := range qs {
		a, _ := ix.Search(q)
		b, _ := fresh.Search(q)
		if fmt.Sprint(scoredKeys(a)) != fmt.Sprint(scoredKeys(b)) {
			t.Errorf("%q: after changes %v, afresh %v", q.Names, scoredKeys(a), scoredKeys(b))
		}
	}
}

// TestScoredConcurrent: scored searches run alongside change sets and
// strict searches (run with -race).
func TestScoredConcurrent(t *testing.T) {
	recs := generated(600, 5)
	ix := NewIndex(recs[:400])
	qs := scoredQueries(recs, 60, 6)
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i, q := range qs {
				if (i+w)%2 == 0 {
					q.Match, q.MinScore = query.Strict, 0
				}
				if _, err := ix.Search(q); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for _, r := range recs[400:] {
		ix.Apply([]record.Change{{Type: record.ChangeAdd, Record: *r}})
	}
	wg.Wait()
}

// TestScoreRecord: scoring one record answers as the whole check does for
// it: hit or not, score, reason.
func TestScoreRecord(t *testing.T) {
	ix, _ := scoredIndex()
	for _, q := range []query.Query{
		{Names: "John Michael Smith", Fuzzy: 2, MinScore: 0.3},
		{Names: "Acme Trading Ltd", Fuzzy: 1, MinScore: 0.3},
		{Names: "Olga Kuznetsova", Fuzzy: 2, DOB: "12/05/1971"},
		{Names: "Olga Kuznetsov", Fuzzy: 2, DOB: "00/05/1970", Gender: "male", Citizenship: "RU", MinScore: 0.1},
		{Names: "Muhammad Ali Khan", Fuzzy: 1, MinScore: 0.05, Kind: query.Individual},
	} {
		q.Match = query.Scored
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"smith", "acme", "kuznetsova", "p013", "p012", "putin", "nobody"} {
			h, ok, err := ix.ScoreRecord(q, id)
			if err != nil {
				t.Fatal(err)
			}
			want := hitOf(res, id)
			if ok != (want != nil) || ok && (h.Score != want.Score || h.Field != want.Field || h.Reason.Logit != want.Reason.Logit) {
				t.Errorf("%q, %s: ScoreRecord %v %+v; Search %+v", q.Names, id, ok, h, want)
			}
		}
	}
	if _, _, err := ix.ScoreRecord(query.Query{Names: "x"}, "smith"); err == nil {
		t.Error("a strict query gave no error")
	}
	// Matching one record without its list cannot score: refused, never
	// answered by the strict rule instead.
	if _, _, err := MatchRecord(query.Query{Names: "John Smith", Match: query.Scored}, ix.Get("smith")); err == nil {
		t.Error("MatchRecord took a scored query")
	}
}
