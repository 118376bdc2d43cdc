package engine

import (
	"slices"
	"unicode/utf8"
)

// This file is scored mode in the brute-force reference: every record is
// scored, word pairs come from relate called on every pair of words, word
// weights from counting every token of every record, and the best pairing
// of a name string from trying every pairing there is. It shares the
// model (relate, pairValue, assignmentLogit) with the index and nothing
// of its look-ups, bounds or search.

// bruteToken is a token of the records' name strings with the number of
// records holding it.
type bruteToken struct {
	info tokInfo
	df   int
}

// scoredTokens returns every token of a name string with the records
// holding it, and sets b.df; computed once per Brute.
func (b *Brute) scoredTokens() []bruteToken {
	b.dfOnce.Do(func() {
		df := make(map[string]int)
		for i := range b.recs {
			seen := map[string]bool{}
			for _, n := range b.recs[i].names {
				for _, t := range n.Tokens {
					if !seen[t] {
						seen[t] = true
						df[t]++
					}
				}
			}
		}
		for t, n := range df {
			b.toks = append(b.toks, bruteToken{info: newTokInfo(t), df: n})
		}
		b.df = df
	})
	return b.toks
}

// bruteQuery is a token list of the query with the partners of its
// words, of adjacent words joined and of the pieces of split words, each
// found by asking relate about every token of the records.
type bruteQuery struct {
	fuzzy  int
	n      int
	lambda float64
	words  []tokInfo
	w      []float64
	miss   []float64
	opt    uint64
	part   []map[string]partner
	cat    []map[string]partner
	cat3   []map[string]partner
	splits [][]bruteSplit
	df     map[string]int
}

// bruteSplit is a split of a query word in two pieces, or three (c not
// nil).
type bruteSplit struct {
	a, b, c    map[string]partner
	ra, rb, rc int
}

// partners asks relate (relatePiece for a piece) about every token of the
// records and weighs those it accepts.
func (b *Brute) partners(t *tokInfo, fuzzy int, piece bool, accept func(partner) bool) map[string]partner {
	toks := b.scoredTokens()
	var names []string
	var ps []partner
	var dfs []int
	var shares []float64
	for i := range toks {
		rt := &toks[i]
		var p partner
		var ok bool
		if piece {
			p, ok = relatePiece(t, &rt.info, fuzzy)
		} else {
			p, ok = relate(t, &rt.info, fuzzy)
		}
		if ok && (accept == nil || accept(p)) {
			names = append(names, rt.info.text)
			ps = append(ps, p)
			dfs = append(dfs, rt.df)
			shares = append(shares, rt.info.share)
		}
	}
	ptrs := make([]*partner, len(ps))
	for i := range ps {
		ptrs[i] = &ps[i]
	}
	weighPartners(ptrs, func(i int) int { return dfs[i] }, func(i int) float64 { return shares[i] }, t.share, len(b.recs))
	m := make(map[string]partner, len(names))
	for i, name := range names {
		m[name] = ps[i]
	}
	return m
}

func (b *Brute) prepareScored(c *compiled, words []string) *bruteQuery {
	b.scoredTokens()
	n := len(b.recs)
	m := min(len(words), maxScoredWords)
	bq := &bruteQuery{fuzzy: c.Fuzzy, n: n, lambda: prior(n), df: b.df}
	syllabic, arabic := syllabicQuery(c.text), arabicQuery(c.text)
	for j := 0; j < m; j++ {
		t := newQueryTokInfo(words[j], syllabic)
		t.arabic = arabic
		bq.words = append(bq.words, t)
		bq.part = append(bq.part, b.partners(&t, c.Fuzzy, false, nil))
		w := tokenWeight(&t, bq.df[t.text], n)
		bq.w = append(bq.w, w)
		if t.optional {
			bq.opt |= 1 << j
		}
		bq.miss = append(bq.miss, queryMiss(&t, bq.df[t.text], w, bq.lambda))
	}
	for j := 0; j+1 < m; j++ {
		var p map[string]partner
		a, x := &bq.words[j], &bq.words[j+1]
		if !a.optional && !x.optional {
			t := newTokInfo(words[j] + words[j+1])
			p = b.partners(&t, c.Fuzzy, false, func(pp partner) bool { return joinedPair(pp, a, x) })
		}
		bq.cat = append(bq.cat, p)
	}
	for j := 0; j+2 < m; j++ {
		var p map[string]partner
		a, x, y := &bq.words[j], &bq.words[j+1], &bq.words[j+2]
		if !a.optional && !x.optional && !y.optional {
			t := newTokInfo(words[j] + words[j+1] + words[j+2])
			p = b.partners(&t, c.Fuzzy, false, func(pp partner) bool { return joinedPair3(pp, a, x, y) })
		}
		bq.cat3 = append(bq.cat3, p)
	}
	bq.splits = make([][]bruteSplit, m)
	pieces := map[string]map[string]partner{} // a piece's partners depend on its text alone
	piece := func(s string) map[string]partner {
		if p, ok := pieces[s]; ok {
			return p
		}
		ti := newTokInfo(s)
		p := b.partners(&ti, c.Fuzzy, true, nil)
		pieces[s] = p
		return p
	}
	for j := 0; j < m; j++ {
		t := &bq.words[j]
		if t.optional || t.digit {
			continue
		}
		splitPieces(t.text, func(x, y string) {
			bq.splits[j] = append(bq.splits[j], bruteSplit{a: piece(x), b: piece(y),
				ra: utf8.RuneCountInString(x), rb: utf8.RuneCountInString(y)})
		})
		splitPieces3(t.text, func(x, y, z string) {
			bq.splits[j] = append(bq.splits[j], bruteSplit{a: piece(x), b: piece(y), c: piece(z),
				ra: utf8.RuneCountInString(x), rb: utf8.RuneCountInString(y), rc: utf8.RuneCountInString(z)})
		})
	}
	return bq
}

// edges lists every way the query pairs with words, in the order the
// index lists them: by record word, then word, joined words, split word.
func (bq *bruteQuery) edges(words []string) []edge {
	var out []edge
	for k, word := range words {
		for j := range bq.words {
			if p, ok := bq.part[j][word]; ok {
				v := pairValue(p.w, p.sim)
				if bq.words[j].optional {
					v = optionalValue(p.w)
				}
				out = append(out, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: p.kind, edits: p.edits, sim: p.sim, weight: p.w, value: v})
			}
		}
		for j := range bq.cat {
			if p, ok := bq.cat[j][word]; ok {
				w := min(p.w, bq.w[j]+bq.w[j+1])
				out = append(out, edge{q0: int8(j), q1: int8(j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
					sim: p.sim * joinSim, weight: w, value: pairValue(w, p.sim*joinSim)})
			}
		}
		for j := range bq.cat3 {
			if p, ok := bq.cat3[j][word]; ok {
				w := min(p.w, bq.w[j]+bq.w[j+1]+bq.w[j+2])
				out = append(out, edge{q0: int8(j), q1: int8(j + 2), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
					sim: p.sim * joinSim, weight: w, value: pairValue(w, p.sim*joinSim)})
			}
		}
		if k+1 >= len(words) {
			continue
		}
		for j := range bq.splits {
			// The best split onto words k and k+1, then onto k to k+2.
			var best [2]*edge
			for _, sp := range bq.splits[j] {
				pa, ok := sp.a[word]
				if !ok {
					continue
				}
				pb, ok := sp.b[words[k+1]]
				if !ok {
					continue
				}
				var pc partner
				three := 0
				if sp.c != nil {
					if k+2 >= len(words) {
						continue
					}
					if pc, ok = sp.c[words[k+2]]; !ok {
						continue
					}
					three = 1
				}
				sim := (float64(sp.ra)*pa.sim + float64(sp.rb)*pb.sim + float64(sp.rc)*pc.sim) / float64(sp.ra+sp.rb+sp.rc)
				if sim < model.JoinMinSim {
					continue
				}
				w := min(bq.w[j], pa.w+pb.w+pc.w)
				e := edge{q0: int8(j), q1: -1, k0: int8(k), k1: int8(k + 1 + three), kind: kindJoined, edits: pa.edits + pb.edits + pc.edits,
					sim: sim * joinSim, weight: w, value: pairValue(w, sim*joinSim)}
				if best[three] == nil || e.value > best[three].value {
					best[three] = &e
				}
			}
			for _, e := range best {
				if e != nil {
					out = append(out, *e)
				}
			}
		}
	}
	return out
}

// bestBrutePairing tries every pairing of the edges: each query word in
// turn unpaired or given each of its edges whose words are free.
func bestBrutePairing(sh *nameShape, edges []edge) ([]edge, evaluation) {
	orderEdges(edges)
	var best []edge
	var bestEv evaluation
	found := false
	var chosen []edge
	var rec func(j int, qCov, kCov uint64)
	rec = func(j int, qCov, kCov uint64) {
		if j == sh.m {
			c := slices.Clone(chosen)
			ev := assignmentLogit(sh, c)
			if !found || ev.exact && !bestEv.exact || !bestEv.exact && ev.logit > bestEv.logit {
				best, bestEv, found = c, ev, true
			}
			return
		}
		if qCov&(1<<j) != 0 {
			rec(j+1, qCov, kCov)
			return
		}
		for i := range edges {
			e := &edges[i]
			if int(e.q0) != j || e.kmask()&kCov != 0 {
				continue
			}
			chosen = append(chosen, *e)
			rec(j+1, qCov|e.qmask(), kCov|e.kmask())
			chosen = chosen[:len(chosen)-1]
		}
		rec(j+1, qCov, kCov)
	}
	rec(0, 0, 0)
	return best, bestEv
}

func (b *Brute) searchScored(c *compiled) *Result {
	res := &Result{}
	if c.onlyLegal {
		return res
	}
	queries := map[bool]*bruteQuery{}
	query := func(legal bool) *bruteQuery {
		if q, ok := queries[legal]; ok {
			return q
		}
		words := c.raw[0]
		if legal {
			words = c.legal[0]
		}
		queries[legal] = b.prepareScored(c, words)
		return queries[legal]
	}
	type found struct {
		hit    Hit
		sc     score
		slot   int
		reason *ScoreReason
	}
	var hits []found
	qs := queryScript(c.text)
	for i := range b.recs {
		br := &b.recs[i]
		if !passesFilters(c, br.rec) {
			continue
		}
		bq := query(usesLegalForms(br.rec.EntityType))
		evd := weighEvidence(c, factsOf(c, br.rec))
		var best *found
		for slot, name := range br.names {
			words := name.Tokens[:min(name.Base, maxScoredWords)]
			edges := bq.edges(words)
			if len(edges) == 0 {
				continue
			}
			sh := nameShape{m: len(bq.words), n: len(words), qOpt: bq.opt, qMiss: bq.miss, lambda: bq.lambda,
				person: !usesLegalForms(br.rec.EntityType)}
			if sh.person {
				sh.kSyl = syllableMask(len(words), func(k int) string { return words[k] })
			}
			for k, w := range words {
				if optionalWord(w) {
					sh.kOpt |= 1 << k
				}
				sh.kMiss = append(sh.kMiss, recordMiss(w, recordWeight(w, bq.df[w], bq.n), bq.lambda))
			}
			pairing, ev := bestBrutePairing(&sh, edges)
			ev = inScript(qs, name.Text, ev)
			s := evd.score(ev)
			if s < c.minScore {
				continue
			}
			f := found{hit: Hit{ID: br.rec.ID, Record: br.rec, Score: s, Field: name.Field}, sc: pairingScore(ev, pairing, len(words)), slot: slot}
			f.hit.Exact, f.hit.Edits, f.hit.Extra = f.sc.exact, f.sc.edits, f.sc.extra
			f.reason = buildReason(sh, ev, pairing, wordTexts(bq.words), words, name.Field, name.Text)
			evd.annotate(f.reason, ev, c)
			if best == nil || betterScored(scoredBest{score: f.hit.Score, sc: f.sc, slot: uint16(slot)}, scoredBest{score: best.hit.Score, sc: best.sc, slot: uint16(best.slot)}) {
				best = &f
			}
		}
		if best != nil {
			best.hit.Reason = best.reason
			hits = append(hits, *best)
		}
	}
	out := make([]Hit, len(hits))
	for i := range hits {
		out[i] = hits[i].hit
	}
	sortScoredHits(out)
	res.Total = len(out)
	res.Hits = out[:min(len(out), c.limit)]
	return res
}
