package engine

import (
	"math"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestQuickBoundHoldsAndIsTight checks quickBound, which spares the
// pairing search of a name string that cannot reach the threshold,
// against that search on every name string of a generated index, for
// generated queries at each fuzzy level: it is never below the best
// pairing's logit, and for name strings with words no edge touches it
// equals that logit often enough that taking anything more off (the
// untouched words' costs once more, or the cost of a word an edge does
// touch) would drop hits.
func TestQuickBoundHoldsAndIsTight(t *testing.T) {
	t.Parallel()
	w := generatedWorld(1500, 23)
	recs, ix := w.recs, w.ix
	v := ix.acquire()
	defer v.release()
	scr := new(scoredScratch)
	checked, untouched, tight := 0, 0, 0
	eachScoredQuery(v, diffQueries(recs, 24, 31), func(q query.Query, ss *scoredSeg, sq *scoredQuery) {
		for ns := uint32(0); int(ns) < len(ss.nsRec); ns++ {
			words := ss.nameWords(ns)
			edges := sq.nameEdges(words, scr)
			if len(edges) == 0 {
				continue
			}
			sh := ss.nameShape(sq, words, scr)
			sh.person = ss.et(ss.nsRec[ns]) == etIndividual
			b := quickBound(&sh, edges)
			var kTouched uint64
			for e := range edges {
				kTouched |= edges[e].kmask()
			}
			cost := 0.0
			for k := range sh.kMiss {
				if kTouched&(1<<k) == 0 {
					cost += sh.kMiss[k]
				}
			}
			ev, ok := ss.scoreName(sq, ns, scr, math.Inf(-1))
			if !ok {
				t.Fatalf("%q: name string %d has edges but no pairing", q.Names, ns)
			}
			checked++
			if b < ev.logit-1e-9 {
				t.Fatalf("%q, name string %q: bound %.6f below the best pairing's logit %.6f", q.Names, ss.nameTexts(ns), b, ev.logit)
			}
			if cost > 0 {
				untouched++
				if b < ev.logit+1e-9 {
					tight++
				}
			}
		}
	})
	t.Logf("%d name strings checked, %d with untouched words, %d of those with the bound equal to the logit", checked, untouched, tight)
	if untouched < 100 || tight < 10 {
		t.Errorf("%d name strings with untouched words, %d with a tight bound: want at least 100 and 10, so that the test can catch a bound too tight", untouched, tight)
	}
}

// eachScoredQuery calls fn with every segment of v and scored query of
// each of queries, asked in scored mode at fuzzy 0, 1 and 2 in turn,
// without dob, gender or citizenship. A query that does not compile, or
// holds only legal-form words, is passed over.
func eachScoredQuery(v *view, queries []query.Query, fn func(q query.Query, ss *scoredSeg, sq *scoredQuery)) {
	for i, q := range queries {
		q.Match, q.Fuzzy, q.DOB, q.Gender, q.Citizenship = query.Scored, i%3, "", "", ""
		c, err := compile(q)
		if err != nil || c.onlyLegal {
			continue
		}
		segs, variants, _ := v.scoredVariants(c)
		for si := range segs {
			for _, vr := range variants {
				fn(q, &segs[si], vr.segs[si])
			}
		}
	}
}
