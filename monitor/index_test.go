package monitor

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// genProfiles derives n profiles from recs: names queries of every kind the
// generator makes (exact, reordered, partial, typos, clean), with
// fuzzy_search 0–2, individual and entity kinds, a share of search_all
// queries mixing a name word with another word of the record, filters and
// source policies.
func genProfiles(recs []*record.Record, n int, seed uint64) []*Profile {
	qs := gen.Queries(recs, n, int64(seed))
	r := rand.New(rand.NewPCG(seed, 7))
	byID := make(map[string]*record.Record, len(recs))
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	out := make([]*Profile, 0, n)
	for i, q := range qs {
		p := &Profile{Owner: fmt.Sprintf("owner%d", i%3), Params: Params{ID: fmt.Sprintf("p%06d", i), Names: q.Names}}
		switch q.EntityType {
		case "entity":
			p.Kind = query.Entity
		default:
			p.Kind = query.Individual
			p.DOB, p.Gender = q.DOB, q.Gender
		}
		p.Fuzzy = r.IntN(3)
		if r.IntN(8) == 0 && q.RecordID != "" {
			// search_all: a name word and a word of another field.
			var words []string
			if rec := byID[q.RecordID]; rec != nil {
				rec.TextFields(func(f record.Field) {
					if !f.Name {
						words = append(words, strings.Fields(f.Values[0])...)
					}
				})
			}
			if len(words) > 0 {
				p.SearchAll = strings.Fields(q.Names)[0] + " " + words[r.IntN(len(words))]
				p.Names = ""
			}
		}
		switch r.IntN(6) {
		case 0:
			p.Access.IncludeOther = true
		case 1:
			p.Access.Excluded = []string{recs[r.IntN(len(recs))].SourceID}
		case 2:
			p.Access.Extra = []string{recs[r.IntN(len(recs))].SourceID}
		}
		if p.Validate() != nil {
			continue
		}
		out = append(out, p)
	}
	return out
}

func genRecords(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
}

// TestIndexAgreesWithBruteForce holds the profile index to the engine's
// reference matcher applied to every (profile, record) pair: candidate
// generation may only ever save work, never change an answer. The pairs
// grow with the square of n: 250 records and profiles by default, 200
// under -short, 400 with AMLSCREEN_LONG_TESTS=1.
func TestIndexAgreesWithBruteForce(t *testing.T) {
	n := 250
	switch {
	case os.Getenv("AMLSCREEN_LONG_TESTS") != "":
		n = 400
	case testing.Short():
		n = 200
	}
	recs := genRecords(n, 11)
	profiles := genProfiles(recs, n, 5)
	// Records changed after the profiles were made: typos in names, so
	// that fuzzy profiles matter.
	r := rand.New(rand.NewPCG(3, 3))
	for _, rec := range recs[:n/3] {
		if len(rec.Name) > 6 && r.IntN(2) == 0 {
			b := []byte(rec.Name)
			i := 1 + r.IntN(len(b)-2)
			if b[i] >= 'a' && b[i] <= 'z' {
				b[i] = 'a' + (b[i]-'a'+1)%26
				rec.Name = string(b)
			}
		}
	}

	ix := newProfileIndex()
	for _, p := range profiles {
		if err := ix.put(p); err != nil {
			t.Fatal(err)
		}
	}
	probes := make([]*probe, len(recs))
	for i, rec := range recs {
		probes[i] = newProbe(rec)
	}
	ix.matchAll(probes)

	cqs := make([]*engine.CompiledQuery, len(profiles))
	for i, p := range profiles {
		cq, err := engine.CompileQuery(p.Query())
		if err != nil {
			t.Fatal(err)
		}
		cqs[i] = cq
	}
	// The verifier is the engine's own check: a profile matches exactly the
	// records a check with its parameters returns.
	brute := engine.NewBrute(recs)
	preps := make([]*engine.PreparedRecord, len(recs))
	for i, rec := range recs {
		preps[i] = engine.PrepareRecord(rec)
	}
	// matches[j][i]: profile j's query matches record i. Matching is the
	// cost; both comparisons below read it.
	matches := make([][]bool, len(profiles))
	for j := range profiles {
		matches[j] = make([]bool, len(preps))
		for i, prep := range preps {
			_, matches[j][i] = cqs[j].Match(prep)
		}
	}
	for j, p := range profiles[:min(len(profiles), 150)] {
		q := p.Query()
		q.Limit = len(recs)
		res, err := brute.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, h := range res.Hits {
			want = append(want, h.Record.ID)
		}
		for i := range preps {
			if matches[j][i] {
				got = append(got, recs[i].ID)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("profile %+v: MatchRecord %v, check %v", p.Params, got, want)
		}
	}

	total := 0
	for i, rec := range recs {
		var want []string
		for j, p := range profiles {
			if matches[j][i] && p.Access.Includes(rec.SourceID, rec.SourceType) {
				want = append(want, p.Owner+"/"+p.ID)
			}
		}
		var got []string
		for _, s := range probes[i].matched {
			got = append(got, ix.slots[s].p.Owner+"/"+ix.slots[s].p.ID)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("record %s %q (%s): index %v, brute force %v", rec.ID, rec.Name, rec.EntityType, got, want)
		}
		total += len(want)
	}
	if total < n/4 {
		t.Fatalf("only %d matches over %d records and %d profiles: the test proves little", total, len(recs), len(profiles))
	}
	t.Logf("%d records, %d profiles, %d matches", len(recs), len(profiles), total)
}

func TestIndexRemoveAndCompact(t *testing.T) {
	ix := newProfileIndex()
	for i := range 3000 {
		p := &Profile{Owner: "o", Params: Params{ID: fmt.Sprint(i), Kind: query.Individual, Names: fmt.Sprintf("name%d person", i)}}
		if err := ix.put(p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2500 {
		ix.remove("o", fmt.Sprint(i))
	}
	c := ix.compacted()
	if c == ix || c.live != 500 || c.dead != 0 || len(c.slots) != 500 {
		t.Fatalf("compacted: live %d dead %d slots %d", c.live, c.dead, len(c.slots))
	}
	pr := newProbe(&record.Record{ID: "x", EntityType: record.EntityIndividual, SourceType: record.SourceSanction, Name: "Person Name2999"})
	c.matchAll([]*probe{pr})
	if len(pr.matched) != 1 || c.slots[pr.matched[0]].p.ID != "2999" {
		t.Fatalf("matched %v", pr.matched)
	}
	pr = newProbe(&record.Record{ID: "y", EntityType: record.EntityIndividual, Name: "Person Name1"})
	c.matchAll([]*probe{pr})
	if len(pr.matched) != 0 {
		t.Fatalf("removed profile matched")
	}
}

func TestLegalFormOnlyProfileMatchesNothing(t *testing.T) {
	ix := newProfileIndex()
	if err := ix.put(&Profile{Owner: "o", Params: Params{ID: "llc", Kind: query.Entity, Names: "LLC"}}); err != nil {
		t.Fatal(err)
	}
	pr := newProbe(&record.Record{ID: "x", EntityType: record.EntityEntity, Name: "Acme LLC"})
	ix.matchAll([]*probe{pr})
	if len(pr.matched) != 0 {
		t.Fatal("a legal form alone matched")
	}
}
