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
// holding it; computed once per Brute.
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
	})
	return b.toks
}

// bruteUnit is a query word, two joined, or a piece, with its weight.
type bruteUnit struct {
	tok tokInfo
	w   float64
	// a and b are the words of a joined pair.
	a, b *tokInfo
}

type bruteSplit struct {
	a, b   tokInfo
	ra, rb int
	w      float64
}

// bruteQuery is a token list of the query with its weights.
type bruteQuery struct {
	fuzzy  int
	lambda float64
	words  []bruteUnit
	cats   []bruteUnit // words j and j+1 joined; zero tok.text when either is a legal form
	splits [][]bruteSplit
	legal  uint64
}

func (b *Brute) prepareScored(c *compiled, words []string) *bruteQuery {
	toks := b.scoredTokens()
	n := len(b.recs)
	// freq counts the records of the tokens t pairs with; accept, when
	// set, says which pairs count.
	freq := func(t *tokInfo, piece bool, accept func(partner) bool) int {
		f := 0
		for i := range toks {
			rt := &toks[i]
			var p partner
			var ok bool
			if piece {
				p, ok = relatePiece(t, &rt.info, c.Fuzzy)
			} else {
				p, ok = relate(t, &rt.info, c.Fuzzy)
			}
			if ok && (accept == nil || accept(p)) {
				f += rt.df
			}
		}
		return f
	}
	m := min(len(words), maxScoredWords)
	bq := &bruteQuery{fuzzy: c.Fuzzy, lambda: prior(n)}
	for j := 0; j < m; j++ {
		t := newTokInfo(words[j])
		bq.words = append(bq.words, bruteUnit{tok: t, w: wordWeight(freq(&t, false, nil), n)})
		if t.legal {
			bq.legal |= 1 << j
		}
	}
	for j := 0; j+1 < m; j++ {
		var u bruteUnit
		if !bq.words[j].tok.legal && !bq.words[j+1].tok.legal {
			a, b := &bq.words[j].tok, &bq.words[j+1].tok
			u.tok = newTokInfo(words[j] + words[j+1])
			u.w = min(wordWeight(freq(&u.tok, false, func(p partner) bool { return catCovers(p, a, b) }), n), bq.words[j].w+bq.words[j+1].w)
			u.a, u.b = a, b
		}
		bq.cats = append(bq.cats, u)
	}
	bq.splits = make([][]bruteSplit, m)
	for j := 0; j < m; j++ {
		t := &bq.words[j].tok
		if t.legal || t.digit {
			continue
		}
		splitPieces(t.text, func(x, y string) {
			ta, tb := newTokInfo(x), newTokInfo(y)
			fa, fb := freq(&ta, true, nil), freq(&tb, true, nil)
			bq.splits[j] = append(bq.splits[j], bruteSplit{a: ta, b: tb, ra: utf8.RuneCountInString(x), rb: utf8.RuneCountInString(y),
				w: min(bq.words[j].w, wordWeight(fa, n)+wordWeight(fb, n))})
		})
	}
	return bq
}

// edges lists every way the query pairs with words.
func (bq *bruteQuery) edges(words []string) []edge {
	info := make([]tokInfo, len(words))
	for k, w := range words {
		info[k] = newTokInfo(w)
	}
	var out []edge
	for j := range bq.words {
		q := &bq.words[j]
		for k := range info {
			if p, ok := relate(&q.tok, &info[k], bq.fuzzy); ok {
				v := pairValue(q.w, p.sim)
				if q.tok.legal || p.kind == kindLegal {
					v = legalValue(p.kind, q.w)
				}
				out = append(out, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: p.kind, edits: p.edits, sim: p.sim, weight: q.w, value: v})
			}
			if j < len(bq.cats) && bq.cats[j].tok.text != "" {
				cu := &bq.cats[j]
				if p, ok := relate(&cu.tok, &info[k], bq.fuzzy); ok && catCovers(p, cu.a, cu.b) {
					out = append(out, edge{q0: int8(j), q1: int8(j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
						sim: p.sim * joinSim, weight: cu.w, value: pairValue(cu.w, p.sim*joinSim)})
				}
			}
			if k+1 < len(info) {
				var best *edge
				for _, sp := range bq.splits[j] {
					pa, ok := relatePiece(&sp.a, &info[k], bq.fuzzy)
					if !ok {
						continue
					}
					pb, ok := relatePiece(&sp.b, &info[k+1], bq.fuzzy)
					if !ok {
						continue
					}
					sim := (float64(sp.ra)*pa.sim + float64(sp.rb)*pb.sim) / float64(sp.ra+sp.rb) * joinSim
					e := edge{q0: int8(j), q1: -1, k0: int8(k), k1: int8(k + 1), kind: kindJoined, edits: pa.edits + pb.edits,
						sim: sim, weight: sp.w, value: pairValue(sp.w, sim)}
					if best == nil || e.value > best.value {
						best = &e
					}
				}
				if best != nil {
					out = append(out, *best)
				}
			}
		}
	}
	return out
}

// bestBrutePairing tries every pairing of the edges: each query word in
// turn unpaired or given each of its edges whose words are free.
func bestBrutePairing(sh *nameShape, edges []edge) ([]edge, evaluation) {
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
	for i := range b.recs {
		br := &b.recs[i]
		if !passesFilters(c, br.rec) {
			continue
		}
		bq := query(usesLegalForms(br.rec.EntityType))
		var best *found
		for slot, name := range br.names {
			words := name.Tokens[:min(name.Base, maxScoredWords)]
			edges := bq.edges(words)
			if len(edges) == 0 {
				continue
			}
			sh := nameShape{m: len(bq.words), n: len(words), qLegal: bq.legal, lambda: bq.lambda}
			for k, w := range words {
				if isLegalToken(w) {
					sh.kLegal |= 1 << k
				}
			}
			pairing, ev := bestBrutePairing(&sh, edges)
			s := scoreOf(ev)
			if s < c.minScore {
				continue
			}
			f := found{hit: Hit{Record: br.rec, Score: s, Field: name.Field}, sc: pairingScore(ev, pairing, len(words)), slot: slot}
			f.hit.Exact, f.hit.Edits, f.hit.Extra = f.sc.exact, f.sc.edits, f.sc.extra
			qw := make([]string, len(bq.words))
			for j := range bq.words {
				qw[j] = bq.words[j].tok.text
			}
			f.reason = buildReason(sh, ev, pairing, qw, words, name.Field, name.Text)
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
