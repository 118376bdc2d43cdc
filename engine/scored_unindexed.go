package engine

import (
	"slices"

	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

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
func (ix *Index) ScoreUnindexed(q query.Query, r *record.Record) (Hit, bool, error) {
	sq, err := ix.PrepareScoredQuery(q)
	if err != nil {
		return Hit{}, false, err
	}
	h, ok := sq.Score(r)
	return h, ok, nil
}

// ScoredQuery is a scored-mode query prepared against an index once, to
// score many records with ScoreUnindexed's rules: monitoring scores every
// changed record of a change set against each scored profile, and the
// look-ups of the query's partners are the dear part. It is safe for
// concurrent use; it reflects the index's word counts when prepared.
type ScoredQuery struct {
	ix         *Index
	c          *compiled
	raw, legal *textQuery // for individuals, for the other records
	script     *normalize.ScriptName
}

// textQuery is one token list of a prepared query with its partners keyed
// by the query's own token table, not by the ids of any segment: the
// record scored is not in the index.
type textQuery struct {
	gq  *globalQuery
	sq  *scoredQuery
	ids map[string]uint32 // partner token → key in sq
}

func newTextQuery(gq *globalQuery) *textQuery {
	ids := map[string]uint32{}
	return &textQuery{gq: gq, sq: gq.with(func(gp *globalPartners) map[uint32]partner { return gp.byText(ids) }), ids: ids}
}

// PrepareScoredQuery validates q (which must be scored) and looks up its
// words' partners in the index.
func (ix *Index) PrepareScoredQuery(q query.Query) (*ScoredQuery, error) {
	if q.Match != query.Scored {
		return nil, &query.ParamError{Param: "match", Msg: "ScoreUnindexed scores match=scored checks only"}
	}
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	out := &ScoredQuery{ix: ix, c: c, script: queryScript(c.text)}
	if c.onlyLegal {
		return out, nil
	}
	v := ix.acquire()
	defer v.release()
	vs := v.scored()
	memo := map[string]*globalPartners{}
	out.raw = newTextQuery(v.prepareScored(vs, c, c.raw[0], memo))
	out.legal = out.raw
	if !slices.Equal(c.raw[0], c.legal[0]) {
		out.legal = newTextQuery(v.prepareScored(vs, c, c.legal[0], memo))
	}
	return out, nil
}

// Score answers whether r is a hit of the prepared query (see
// ScoreUnindexed).
func (q *ScoredQuery) Score(r *record.Record) (Hit, bool) { return q.ScorePrepared(PrepareRecord(r)) }

// ScorePrepared is Score of a record tokenised once for many queries.
func (q *ScoredQuery) ScorePrepared(p *PreparedRecord) (Hit, bool) {
	if q.c.onlyLegal || !passesFilters(q.c, p.br.rec) {
		return Hit{}, false
	}
	v := q.ix.acquire()
	defer v.release()
	vs := v.scored()
	return q.scoreNames(p, func(tq *textQuery, _ int, toks []string, sh *nameShape, edges []edge) []edge {
		edges = v.unindexedEdges(tq, toks, edges)
		if len(edges) == 0 {
			return edges
		}
		for k, t := range toks {
			if optionalWord(t) {
				sh.kOpt |= 1 << k
			}
			sh.kMiss = append(sh.kMiss, recordMiss(t, recordWeight(t, v.tokenDF(vs, t), tq.sq.n), tq.sq.lambda))
		}
		return edges
	})
}

// nameEdges appends to edges the ways tq pairs with the words toks of name
// string slot of a record and, when there are any, sets the record side of
// sh (its optional words and their misses).
type nameEdges func(tq *textQuery, slot int, toks []string, sh *nameShape, edges []edge) []edge

// scoreNames scores the name strings of p, which passes q's filters, with
// the edges and record words' misses nameEdges gives: the best hit.
func (q *ScoredQuery) scoreNames(p *PreparedRecord, edgesOf nameEdges) (Hit, bool) {
	c, r := q.c, p.br.rec
	tq := q.raw
	if usesLegalForms(r.EntityType) {
		tq = q.legal
	}
	sq := tq.sq
	scr := scoredPool.Get().(*scoredScratch)
	defer scoredPool.Put(scr)
	br := &p.br
	evd := weighEvidence(c, factsOf(c, r))
	type found struct {
		hit    Hit
		best   scoredBest
		reason *ScoreReason
	}
	var best *found
	for slot, name := range br.names {
		toks := name.Tokens[:min(name.Base, maxScoredWords)]
		sh := nameShape{m: len(sq.words), n: len(toks), qOpt: sq.opt, qMiss: sq.miss, lambda: sq.lambda,
			person: !usesLegalForms(r.EntityType)}
		if sh.person {
			sh.kSyl = syllableMask(len(toks), func(k int) string { return toks[k] })
		}
		edges := edgesOf(tq, slot, toks, &sh, scr.edges[:0])
		scr.edges = edges
		if len(edges) == 0 {
			continue
		}
		scr.ps.run(&sh, edges)
		ev := inScript(q.script, name.Text, scr.ps.bestEv)
		s := evd.score(ev)
		if s < c.minScore {
			continue
		}
		f := found{best: scoredBest{score: s, sc: pairingScore(ev, scr.ps.best, len(toks)), slot: uint16(slot)}}
		if best != nil && !betterScored(f.best, best.best) {
			continue
		}
		f.hit = Hit{Record: r, Exact: f.best.sc.exact, Edits: f.best.sc.edits, Extra: f.best.sc.extra, Score: s, Field: name.Field}
		f.reason = buildReason(sh, ev, scr.ps.best, wordTexts(sq.words), toks, name.Field, name.Text)
		evd.annotate(f.reason, ev, c)
		best = &f
	}
	if best == nil {
		return Hit{}, false
	}
	best.hit.Reason = best.reason
	return best.hit, true
}

// unindexedEdges lists the ways the query pairs with the words toks of a
// name string, as scoreName does for a name string of the index, words
// the index does not know related directly.
func (v *view) unindexedEdges(tq *textQuery, toks []string, edges []edge) []edge {
	sq := tq.sq
	ids := make([]uint32, len(toks))
	known := make([]bool, len(toks))
	for k, t := range toks {
		var partner bool
		if ids[k], partner = tq.ids[t]; !partner {
			ids[k] = noPartner // a word of the index that pairs with nothing
			known[k] = v.knows(t)
		} else {
			known[k] = true
		}
	}
	for k, t := range toks {
		if !known[k] {
			edges = newWordEdges(tq, t, k, edges)
			continue
		}
		edges = sq.wordEdges(edges, ids[k], k, knownNext(ids, known, k))
	}
	return edges
}

// knownNext is the ids of the (up to two) words after word k that the
// index knows, up to the first it does not: only those pair as a split's
// later pieces (an unknown word has no partner id to match).
func knownNext(ids []uint32, known []bool, k int) []uint32 {
	n := k + 1
	for n < len(ids) && n < k+3 && known[n] {
		n++
	}
	return ids[k+1 : n]
}

// noPartner keys no partner: a word the index knows that pairs with no
// query word.
const noPartner = ^uint32(0)

// knows reports whether a segment of the view has tok in its dictionary.
func (v *view) knows(tok string) bool {
	for i := range v.segs {
		if _, ok := v.segs[i].ID(tok); ok {
			return true
		}
	}
	return false
}

// newWordEdges pairs t, a word the index does not know, at position k.
func newWordEdges(tq *textQuery, t string, k int, edges []edge) []edge {
	sq := tq.sq
	ti := newTokInfo(t)
	for j := range sq.words {
		p, ok := relate(&sq.words[j], &ti, sq.fuzzy)
		if !ok {
			continue
		}
		p.w = newPartnerWeight(tq.gq.part[j], p.sim, sq.words[j].share, ti.share, sq.n)
		edges = append(edges, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: p.kind, edits: p.edits,
			sim: p.sim, weight: p.w, value: sq.edgeValue(j, p)})
	}
	for j := range sq.cat {
		if tq.gq.cat[j] == nil {
			continue // an optional word is never joined
		}
		a, b := &sq.words[j], &sq.words[j+1]
		joined := newTokInfo(a.text + b.text)
		p, ok := relate(&joined, &ti, sq.fuzzy)
		if !ok || !joinedPair(p, a, b) {
			continue
		}
		p.w = newPartnerWeight(tq.gq.cat[j], p.sim, joined.share, ti.share, sq.n)
		edges = append(edges, edge{q0: int8(j), q1: int8(j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
			sim: p.sim * joinSim, weight: sq.catWeight(j, p), value: sq.catValue(j, p)})
	}
	for j := range sq.cat3 {
		if tq.gq.cat3[j] == nil {
			continue // an optional word is never joined
		}
		a, b, c := &sq.words[j], &sq.words[j+1], &sq.words[j+2]
		joined := newTokInfo(a.text + b.text + c.text)
		p, ok := relate(&joined, &ti, sq.fuzzy)
		if !ok || !joinedPair3(p, a, b, c) {
			continue
		}
		p.w = newPartnerWeight(tq.gq.cat3[j], p.sim, joined.share, ti.share, sq.n)
		edges = append(edges, sq.cat3Edge(j, k, p))
	}
	return edges
}

// newPartnerWeight is the weight weighPartners gives a partner at
// similarity sim held by one record the index has not counted: the
// records holding a partner at least as similar, that one included, at
// most the share weight of the most common name among the query unit
// (qShare), those partners and the new one (share).
func newPartnerWeight(gp *globalPartners, sim, qShare, share float64, n int) float64 {
	f := 1
	sh := max(qShare, share)
	for i, p := range gp.ps {
		if p.sim >= sim {
			f += gp.df[i]
			sh = max(sh, normalize.Common().Share(gp.texts[i]))
		}
	}
	return min(wordWeight(f, n), shareWeight(sh))
}
