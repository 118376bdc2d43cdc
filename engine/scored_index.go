package engine

import (
	"cmp"
	"slices"
	"sync"
	"unicode/utf8"
)

// This file answers scored-mode checks from the index. Candidates come from
// the dictionary, never from a scan of the records: each query word's
// partners (the tokens relate accepts) are found by exact, variant-class,
// edit-radius, sound-key and skeleton look-ups, and the name strings that
// hold a partner are read from the posting lists.
//
// Which name strings need scoring follows from the model (the MaxScore
// method of text retrieval). Each query word j can add at most ub_j to the
// logit (its best pair) and costs miss_j when unpaired, so a name string
// pairing only the words of a set S scores at most
//
//	Σ_{j∈S} (ub_j + miss_j) − Σ_j miss_j + c − λ
//
// when it is not a complete match. Sorting the words by that gain, the
// longest prefix whose gains stay under the threshold's logit is
// "non-essential": a name string pairing none but those words cannot reach
// the threshold, so only name strings holding a partner of an essential
// word are scored. When every word is non-essential, only complete
// matches (every query word paired, which earns the completeness term) can
// reach it, and those are in the intersection of every word's name
// strings. Nothing above the threshold is left out, and common words that
// cannot make a hit together never cost a scan of their posting lists.

// scoredSplit is one way of cutting a query word in two pieces that pair
// with two adjacent record words.
type scoredSplit struct {
	a, b   map[uint32]partner
	ra, rb int     // runes of the pieces
	w      float64 // the weight of the pair
	ub     float64
}

// scoredQuery is one token list of a query prepared for the index.
type scoredQuery struct {
	fuzzy  int
	lambda float64
	words  []tokInfo
	w      []float64 // weight of each word
	miss   []float64 // cost of each word left unpaired
	legal  uint64
	part   []map[uint32]partner // partners of each word
	cat    []map[uint32]partner // partners of words j and j+1 joined
	catW   []float64
	splits [][]scoredSplit
	ub     []float64
	// refs maps a token to every way it pairs with the query, so that a
	// name string costs one look-up per word.
	refs map[uint32][]unitRef
}

// unitRef says that a token is a partner of word j (unitWord), of words j
// and j+1 joined (unitCat), or of the first or second piece of split s of
// word j.
type unitRef struct {
	unit uint8
	j, s int16
	p    partner
}

const (
	unitWord uint8 = iota
	unitCat
	unitPieceA
	unitPieceB
)

// scoredBest is the best name string of one record so far.
type scoredBest struct {
	score float64
	sc    score
	slot  uint16
	ns    uint32
	sel   recordSel
}

// scoredScratch is the reusable state of one scored search.
type scoredScratch struct {
	ps    pairSearch
	edges []edge
	bufA  []uint32
	bufB  []uint32
	bufC  []uint32
}

var scoredPool = sync.Pool{New: func() any { return new(scoredScratch) }}

func (ix *Index) searchScored(c *compiled) *Result {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sc := ix.ensureScored()
	scr := scoredPool.Get().(*scoredScratch)
	defer scoredPool.Put(scr)
	srcOK := ix.sourceMask(c)
	best := make(map[uint32]scoredBest)
	queries := map[recordSel]*scoredQuery{}
	run := func(words []string, sel recordSel) {
		sq := ix.prepareScored(sc, c, words)
		queries[sel] = sq
		for _, ns := range ix.scoredCandidates(sq, c.minScore, scr) {
			ord := ix.nsRec[ns]
			if ix.recs[ord] == nil || !selects(ix, sel, ord) || !ix.passes(c, srcOK, ord) {
				continue
			}
			ev, ok := ix.scoreName(sq, ns, scr)
			if !ok {
				continue
			}
			s := scoreOf(ev)
			if s < c.minScore {
				continue
			}
			cand := scoredBest{score: s, sc: pairingScore(ev, scr.ps.best, len(ix.nameWords(ns))), slot: ix.nsSlot[ns], ns: ns, sel: sel}
			if old, ok := best[ord]; ok && !betterScored(cand, old) {
				continue
			}
			best[ord] = cand
		}
	}
	if slices.Equal(c.raw[0], c.legal[0]) {
		run(c.raw[0], anyRecord)
	} else {
		run(c.raw[0], individualsOnly)
		run(c.legal[0], legalOnly)
	}
	hits := make([]Hit, 0, len(best))
	for ord, b := range best {
		hits = append(hits, Hit{Record: ix.recs[ord], Exact: b.sc.exact, Edits: b.sc.edits, Extra: b.sc.extra, Score: b.score})
	}
	sortScoredHits(hits)
	res := &Result{Total: len(hits), Hits: hits[:min(len(hits), c.limit)]}
	for i := range res.Hits {
		h := &res.Hits[i]
		b := best[ix.ids[h.Record.ID]]
		h.Field = fieldOf(h.Record, b.slot)
		sq := queries[b.sel]
		ev, _ := ix.scoreName(sq, b.ns, scr)
		h.Reason = buildReason(sq.shape(len(ix.nameWords(b.ns)), ix.nameLegal(b.ns)), ev, scr.ps.best, wordTexts(sq.words), ix.nameTexts(b.ns), h.Field, nameText(h.Record, b.slot))
	}
	return res
}

func selects(ix *Index, sel recordSel, ord uint32) bool {
	switch sel {
	case individualsOnly:
		return ix.info[ord].et == etIndividual
	case legalOnly:
		return ix.info[ord].et != etIndividual
	}
	return true
}

// betterScored reports whether a is the better name string of a record:
// the higher score, then the strict ranking, then the earlier name string.
func betterScored(a, b scoredBest) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.sc != b.sc {
		return a.sc.better(b.sc)
	}
	return a.slot < b.slot
}

// sortScoredHits ranks hits by score, then as strict mode does (exact,
// fewer edits, fewer extra words), then by record id.
func sortScoredHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if sa, sb := a.score(), b.score(); sa != sb {
			if sa.better(sb) {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Record.ID, b.Record.ID)
	})
}

// pairingScore is the strict-style ranking of a scored pairing: exact when
// the words are the very same, the edits of its pairs, the record words
// left without a partner.
func pairingScore(ev evaluation, best []edge, n int) score {
	s := score{exact: ev.exact}
	var kCov uint64
	for i := range best {
		s.edits += int(best[i].edits)
		kCov |= best[i].kmask()
	}
	for k := 0; k < n; k++ {
		if kCov&(1<<k) == 0 {
			s.extra++
		}
	}
	return s
}

// nameWords returns the words of name string ns that scored mode pairs:
// its base words, at most maxScoredWords.
func (ix *Index) nameWords(ns uint32) []uint32 {
	off := ix.nsOff[ns]
	return ix.nsTok[off : off+uint32(min(int(ix.nsBase[ns]), maxScoredWords))]
}

func (ix *Index) nameLegal(ns uint32) uint64 {
	var m uint64
	for k, id := range ix.nameWords(ns) {
		if isLegalToken(ix.d.Token(id)) {
			m |= 1 << k
		}
	}
	return m
}

func (ix *Index) nameTexts(ns uint32) []string {
	ws := ix.nameWords(ns)
	out := make([]string, len(ws))
	for i, id := range ws {
		out[i] = ix.d.Token(id)
	}
	return out
}

func isLegalToken(t string) bool { return len(t) > 0 && t[0] == '~' }

// prepareScored finds the partners and weights of one token list of the
// query.
func (ix *Index) prepareScored(sc *scoredStats, c *compiled, words []string) *scoredQuery {
	m := min(len(words), maxScoredWords)
	sq := &scoredQuery{fuzzy: c.Fuzzy, lambda: prior(ix.live), refs: make(map[uint32][]unitRef)}
	n := ix.live
	for j := 0; j < m; j++ {
		t := newTokInfo(words[j])
		sq.words = append(sq.words, t)
		p := ix.scoredPartners(sc, &t, c.Fuzzy, false)
		sq.part = append(sq.part, p)
		sq.w = append(sq.w, wordWeight(sc.frequency(p), n))
		if t.legal {
			sq.legal |= 1 << j
			sq.miss = append(sq.miss, legalMissCost)
		} else {
			sq.miss = append(sq.miss, queryMissCost)
		}
	}
	for j := 0; j+1 < m; j++ {
		var p map[uint32]partner
		w := 0.0
		if !sq.words[j].legal && !sq.words[j+1].legal {
			t := newTokInfo(sq.words[j].text + sq.words[j+1].text)
			p = ix.scoredPartners(sc, &t, c.Fuzzy, false)
			for id, pp := range p {
				if !catCovers(pp, &sq.words[j], &sq.words[j+1]) {
					delete(p, id)
				}
			}
			w = min(wordWeight(sc.frequency(p), n), sq.w[j]+sq.w[j+1])
		}
		sq.cat = append(sq.cat, p)
		sq.catW = append(sq.catW, w)
	}
	sq.splits = make([][]scoredSplit, m)
	for j := 0; j < m; j++ {
		if sq.words[j].legal || sq.words[j].digit {
			continue
		}
		splitPieces(sq.words[j].text, func(a, b string) {
			ta, tb := newTokInfo(a), newTokInfo(b)
			pa := ix.scoredPartners(sc, &ta, c.Fuzzy, true)
			if len(pa) == 0 {
				return
			}
			pb := ix.scoredPartners(sc, &tb, c.Fuzzy, true)
			if len(pb) == 0 {
				return
			}
			w := min(sq.w[j], wordWeight(sc.frequency(pa), n)+wordWeight(sc.frequency(pb), n))
			sq.splits[j] = append(sq.splits[j], scoredSplit{a: pa, b: pb, ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b), w: w})
		})
	}
	sq.bound()
	for j := range sq.part {
		for id, p := range sq.part[j] {
			sq.refs[id] = append(sq.refs[id], unitRef{unit: unitWord, j: int16(j), p: p})
		}
	}
	for j := range sq.cat {
		for id, p := range sq.cat[j] {
			sq.refs[id] = append(sq.refs[id], unitRef{unit: unitCat, j: int16(j), p: p})
		}
	}
	for j := range sq.splits {
		for s := range sq.splits[j] {
			for id, p := range sq.splits[j][s].a {
				sq.refs[id] = append(sq.refs[id], unitRef{unit: unitPieceA, j: int16(j), s: int16(s), p: p})
			}
			for id, p := range sq.splits[j][s].b {
				sq.refs[id] = append(sq.refs[id], unitRef{unit: unitPieceB, j: int16(j), s: int16(s), p: p})
			}
		}
	}
	return sq
}

// frequency is F of the model: the records holding any of the partners,
// counted once per partner (an upper bound of the records holding one).
func (sc *scoredStats) frequency(p map[uint32]partner) int {
	f := 0
	for id := range p {
		f += int(sc.df[id])
	}
	return f
}

// scoredPartners returns the tokens of the dictionary that t pairs with,
// by relate (by relatePiece for a piece of a split word).
func (ix *Index) scoredPartners(sc *scoredStats, t *tokInfo, fuzzy int, piece bool) map[uint32]partner {
	m := make(map[uint32]partner)
	seen := make(map[uint32]bool)
	try := func(id uint32) {
		if seen[id] {
			return
		}
		seen[id] = true
		if int(id) >= len(sc.keyed) || !sc.keyed[id] {
			return // not a word of any name string
		}
		rt := newTokInfo(ix.d.Token(id))
		var p partner
		var ok bool
		if piece {
			p, ok = relatePiece(t, &rt, fuzzy)
		} else {
			p, ok = relate(t, &rt, fuzzy)
		}
		if ok {
			m[id] = p
		}
	}
	if id, ok := ix.d.ID(t.text); ok {
		try(id)
	}
	if t.legal {
		if !piece {
			for _, id := range sc.legal {
				try(id)
			}
		}
		return m
	}
	if t.digit {
		return m
	}
	if t.class != 0 {
		for _, id := range sc.class[t.class] {
			try(id)
		}
	}
	if fuzzy == 0 {
		return m
	}
	if !piece {
		ix.d.Lookup(t.text, maxAllowed(fuzzy, t.text), func(id uint32, _ int) { try(id) })
		if t.skel != "" {
			for _, id := range sc.skel[t.skel] {
				try(id)
			}
		}
	}
	if t.sound != "" {
		for _, id := range sc.sound[t.sound] {
			try(id)
		}
	}
	return m
}

// edgeValue is the value of a pair of query word j with partner p.
func (sq *scoredQuery) edgeValue(j int, p partner) float64 {
	if sq.legal&(1<<j) != 0 || p.kind == kindLegal {
		return legalValue(p.kind, sq.w[j])
	}
	return pairValue(sq.w[j], p.sim)
}

func (sq *scoredQuery) catValue(j int, p partner) float64 {
	return pairValue(sq.catW[j], p.sim*joinSim)
}

func (sp *scoredSplit) sim(pa, pb partner) float64 {
	return (float64(sp.ra)*pa.sim + float64(sp.rb)*pb.sim) / float64(sp.ra+sp.rb) * joinSim
}

// bound fills ub: the most each word can add to a logit, by its best
// possible pair anywhere (a joined pair counted whole for both of its
// words, halved when negative).
func (sq *scoredQuery) bound() {
	m := len(sq.words)
	sq.ub = make([]float64, m)
	for j := 0; j < m; j++ {
		ub := -sq.miss[j]
		for _, p := range sq.part[j] {
			ub = max(ub, sq.edgeValue(j, p))
		}
		for s := range sq.splits[j] {
			sp := &sq.splits[j][s]
			ma, mb := 0.0, 0.0
			for _, p := range sp.a {
				ma = max(ma, p.sim)
			}
			for _, p := range sp.b {
				mb = max(mb, p.sim)
			}
			sp.ub = pairValue(sp.w, sp.sim(partner{sim: ma}, partner{sim: mb}))
			ub = max(ub, sp.ub)
		}
		sq.ub[j] = ub
	}
	for j := range sq.cat {
		for _, p := range sq.cat[j] {
			v := sq.catValue(j, p)
			if v < 0 {
				v /= 2
			}
			sq.ub[j] = max(sq.ub[j], v)
			sq.ub[j+1] = max(sq.ub[j+1], v)
		}
	}
}

// shape is the nameShape of the query against a name string.
func (sq *scoredQuery) shape(n int, kLegal uint64) nameShape {
	return nameShape{m: len(sq.words), n: n, qLegal: sq.legal, kLegal: kLegal, lambda: sq.lambda}
}

// unitTokens returns every token through which a name string can pair
// word j: its partners, those of the joined pairs it is part of, and those
// of the first piece of each of its splits.
func (sq *scoredQuery) unitTokens(j int, fn func(id uint32)) {
	for id := range sq.part[j] {
		fn(id)
	}
	if j < len(sq.cat) {
		for id := range sq.cat[j] {
			fn(id)
		}
	}
	if j > 0 {
		for id := range sq.cat[j-1] {
			fn(id)
		}
	}
	for s := range sq.splits[j] {
		for id := range sq.splits[j][s].a {
			fn(id)
		}
	}
}

// scoredCandidates returns the name strings to score, ascending, each
// once (see the comment at the top of this file).
func (ix *Index) scoredCandidates(sq *scoredQuery, minScore float64, scr *scoredScratch) []uint32 {
	m := len(sq.words)
	if m == 0 {
		return nil
	}
	floor := logitFloor(minScore)
	base := scoreIntercept - sq.lambda
	gain := make([]float64, m)
	for j := range gain {
		base -= sq.miss[j]
		gain[j] = sq.ub[j] + sq.miss[j]
	}
	order := make([]int, m)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(gain[a], gain[b]) })
	acc := base
	ne := 0
	for ne < m && acc+gain[order[ne]] < floor {
		acc += gain[order[ne]]
		ne++
	}
	if ne < m {
		// Name strings holding a partner of an essential word.
		u := scr.bufA[:0]
		for _, j := range order[ne:] {
			sq.unitTokens(j, func(id uint32) { u = append(u, ix.post[id]...) })
		}
		slices.Sort(u)
		u = slices.Compact(u)
		scr.bufA = u
		return u
	}
	// Only a complete match can reach the threshold: intersect, rarest
	// word first, skipping words whose lists would cost far more than the
	// candidates left (scoring checks them anyway).
	type wordSize struct{ j, size int }
	sizes := make([]wordSize, m)
	for j := range sizes {
		n := 0
		sq.unitTokens(j, func(id uint32) { n += len(ix.post[id]) })
		sizes[j] = wordSize{j, n}
	}
	slices.SortStableFunc(sizes, func(a, b wordSize) int { return a.size - b.size })
	cands := scr.bufA[:0]
	sq.unitTokens(sizes[0].j, func(id uint32) { cands = append(cands, ix.post[id]...) })
	slices.Sort(cands)
	cands = slices.Compact(cands)
	for _, ws := range sizes[1:] {
		if len(cands) == 0 {
			break
		}
		if ws.size > 32*len(cands) {
			continue
		}
		other := scr.bufB[:0]
		sq.unitTokens(ws.j, func(id uint32) { other = append(other, ix.post[id]...) })
		slices.Sort(other)
		other = slices.Compact(other)
		scr.bufB = other
		scr.bufC = Intersect(cands, other, scr.bufC[:0])
		cands, scr.bufC = scr.bufC, cands
	}
	scr.bufA = cands
	return cands
}

// scoreName scores name string ns: its edges, then the best pairing.
// scr.ps.best holds the pairing afterwards.
func (ix *Index) scoreName(sq *scoredQuery, ns uint32, scr *scoredScratch) (evaluation, bool) {
	words := ix.nameWords(ns)
	edges := scr.edges[:0]
	var kLegal uint64
	for k, id := range words {
		if isLegalToken(ix.d.Token(id)) {
			kLegal |= 1 << k
		}
		for _, r := range sq.refs[id] {
			switch r.unit {
			case unitWord:
				edges = append(edges, edge{q0: int8(r.j), q1: -1, k0: int8(k), k1: -1, kind: r.p.kind, edits: r.p.edits,
					sim: r.p.sim, weight: sq.w[r.j], value: sq.edgeValue(int(r.j), r.p)})
			case unitCat:
				edges = append(edges, edge{q0: int8(r.j), q1: int8(r.j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: r.p.edits,
					sim: r.p.sim * joinSim, weight: sq.catW[r.j], value: sq.catValue(int(r.j), r.p)})
			case unitPieceA:
				if k+1 >= len(words) {
					continue
				}
				sp := &sq.splits[r.j][r.s]
				pb, ok := sp.b[words[k+1]]
				if !ok {
					continue
				}
				sim := sp.sim(r.p, pb)
				edges = appendSplitEdge(edges, edge{q0: int8(r.j), q1: -1, k0: int8(k), k1: int8(k + 1), kind: kindJoined,
					edits: r.p.edits + pb.edits, sim: sim, weight: sp.w, value: pairValue(sp.w, sim)})
			}
		}
	}
	scr.edges = edges
	if len(edges) == 0 {
		return evaluation{}, false
	}
	sh := sq.shape(len(words), kLegal)
	scr.ps.run(&sh, edges)
	return scr.ps.bestEv, true
}

// appendSplitEdge appends e unless an edge of the same words is there
// already; of two splits of one word onto the same two record words, the
// better one counts.
func appendSplitEdge(edges []edge, e edge) []edge {
	for i := range edges {
		o := &edges[i]
		if o.q0 == e.q0 && o.q1 == e.q1 && o.k0 == e.k0 && o.k1 == e.k1 {
			if e.value > o.value {
				*o = e
			}
			return edges
		}
	}
	return append(edges, e)
}
