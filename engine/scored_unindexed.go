package engine

import "github.com/amlscreen/amlscreen/record"

// ScoreUnindexed answers whether r is a hit of q in scored mode, like
// ScoreRecord, for a record the index need not hold: the new state of a
// record in a change set that the index has not applied yet, which is
// what ongoing monitoring scores against its scored profiles inside the
// applying transaction. Filters and entity types apply as in Search; the
// word weights and the prior come from the index.
//
// Words of r the index knows pair exactly as Search pairs them. A word it
// does not know (a new spelling the change set brings) pairs with a query
// word when relate accepts the two, weighed as weighPartners would weigh
// it had the index counted the record (it adds one record to the partners
// at its similarity and above); it pairs with two query words joined the
// same way, but not as a piece of a split query word. For a record the
// index holds with the same content, the hit is that of ScoreRecord.
func (ix *Index) ScoreUnindexed(q Query, r *record.Record) (Hit, bool, error) {
	if q.Match != Scored {
		return Hit{}, false, &ParamError{Param: "match", Msg: "ScoreUnindexed scores match=scored checks only"}
	}
	c, err := compile(q)
	if err != nil {
		return Hit{}, false, err
	}
	if c.onlyLegal || !passesFilters(c, r) {
		return Hit{}, false, nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sc := ix.ensureScored()
	words := c.raw[0]
	if usesLegalForms(r.EntityType) {
		words = c.legal[0]
	}
	sq := ix.prepareScored(sc, c, words, nil)
	scr := scoredPool.Get().(*scoredScratch)
	defer scoredPool.Put(scr)
	br := newBruteRecord(r)
	type found struct {
		hit    Hit
		best   scoredBest
		reason *ScoreReason
	}
	var best *found
	for slot, name := range br.names {
		toks := name.Tokens[:min(name.Base, maxScoredWords)]
		edges := ix.unindexedEdges(sc, sq, toks, scr.edges[:0])
		scr.edges = edges
		if len(edges) == 0 {
			continue
		}
		sh := nameShape{m: len(sq.words), n: len(toks), qOpt: sq.opt, qMiss: sq.miss, lambda: sq.lambda}
		for k, t := range toks {
			if optionalWord(t) {
				sh.kOpt |= 1 << k
			}
			sh.kMiss = append(sh.kMiss, recordMiss(t, wordWeight(sc.tokenDF(ix, t), sq.n), sq.lambda))
		}
		scr.ps.run(&sh, edges)
		ev := scr.ps.bestEv
		s := scoreOf(ev)
		if s < c.minScore {
			continue
		}
		f := found{best: scoredBest{score: s, sc: pairingScore(ev, scr.ps.best, len(toks)), slot: uint16(slot)}}
		if best != nil && !betterScored(f.best, best.best) {
			continue
		}
		f.hit = Hit{Record: r, Exact: f.best.sc.exact, Edits: f.best.sc.edits, Extra: f.best.sc.extra, Score: s, Field: name.Field}
		f.reason = buildReason(sh, ev, scr.ps.best, wordTexts(sq.words), toks, name.Field, name.Text)
		best = &f
	}
	if best == nil {
		return Hit{}, false, nil
	}
	best.hit.Reason = best.reason
	return best.hit, true, nil
}

// unindexedEdges lists the ways the query pairs with the words toks of a
// name string, as scoreName does for a name string of the index, words
// the index does not know related directly.
func (ix *Index) unindexedEdges(sc *scoredStats, sq *scoredQuery, toks []string, edges []edge) []edge {
	ids := make([]uint32, len(toks))
	known := make([]bool, len(toks))
	for k, t := range toks {
		ids[k], known[k] = ix.d.ID(t)
	}
	for k, t := range toks {
		if !known[k] {
			edges = ix.newWordEdges(sc, sq, t, k, edges)
			continue
		}
		for _, r := range sq.refs[ids[k]] {
			switch r.unit {
			case unitWord:
				edges = append(edges, edge{q0: int8(r.j), q1: -1, k0: int8(k), k1: -1, kind: r.p.kind, edits: r.p.edits,
					sim: r.p.sim, weight: r.p.w, value: sq.edgeValue(int(r.j), r.p)})
			case unitCat:
				edges = append(edges, edge{q0: int8(r.j), q1: int8(r.j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: r.p.edits,
					sim: r.p.sim * joinSim, weight: sq.catWeight(int(r.j), r.p), value: sq.catValue(int(r.j), r.p)})
			case unitPieceA:
				if k+1 >= len(toks) || !known[k+1] {
					continue
				}
				sp := &sq.splits[r.j][r.s]
				pb, ok := sp.b[ids[k+1]]
				if !ok {
					continue
				}
				if e, ok := sq.splitEdge(int(r.j), sp, r.p, pb); ok {
					e.k0, e.k1 = int8(k), int8(k+1)
					edges = appendSplitEdge(edges, e)
				}
			}
		}
	}
	return edges
}

// newWordEdges pairs t, a word the index does not know, at position k.
func (ix *Index) newWordEdges(sc *scoredStats, sq *scoredQuery, t string, k int, edges []edge) []edge {
	ti := newTokInfo(t)
	for j := range sq.words {
		p, ok := relate(&sq.words[j], &ti, sq.fuzzy)
		if !ok {
			continue
		}
		p.w = newPartnerWeight(sq.part[j], sc, p.sim, sq.n)
		edges = append(edges, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: p.kind, edits: p.edits,
			sim: p.sim, weight: p.w, value: sq.edgeValue(j, p)})
	}
	for j := range sq.cat {
		if sq.cat[j] == nil {
			continue // an optional word is never joined
		}
		a, b := &sq.words[j], &sq.words[j+1]
		joined := newTokInfo(a.text + b.text)
		p, ok := relate(&joined, &ti, sq.fuzzy)
		if !ok || !joinedPair(p, a, b) {
			continue
		}
		p.w = newPartnerWeight(sq.cat[j], sc, p.sim, sq.n)
		edges = append(edges, edge{q0: int8(j), q1: int8(j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
			sim: p.sim * joinSim, weight: sq.catWeight(j, p), value: sq.catValue(j, p)})
	}
	return edges
}

// newPartnerWeight is the weight weighPartners gives a partner at
// similarity sim held by one record the index has not counted: the
// records holding a partner at least as similar, that one included.
func newPartnerWeight(part map[uint32]partner, sc *scoredStats, sim float64, n int) float64 {
	f := 1
	for id, p := range part {
		if p.sim >= sim && int(id) < len(sc.df) {
			f += int(sc.df[id])
		}
	}
	return wordWeight(f, n)
}
