package engine

import (
	"slices"

	"github.com/amlscreen/amlscreen/query"
)

// ChangeSetScorer scores many scored queries (a customer book's checks)
// against the few records of a change set with ScoreUnindexed's rules and
// the word statistics of one state of an index. It differs from a
// ScoredPreparer in what a prepared query keeps: of each word's partners
// in the whole index only those that are words of the change set's
// records, the only ones a pairing with them can use, so that preparing a
// check costs its few words and not their hundreds of partners; and the
// records' words are weighed once, not at every check. A check scores
// what ScoreUnindexed scores it. It is safe for concurrent use; each
// goroutine prepares with its own ChangeSetPreparer. Release it when done.
type ChangeSetScorer struct {
	ix   *Index
	v    *view
	vs   *viewScored
	ids  map[string]uint32 // the records' words (of their scored name strings)
	recs []csRecord
}

// csRecord is one record of the change set with the words of each of its
// name strings by ids, and what the record side of a pairing needs of
// them.
type csRecord struct {
	p     *PreparedRecord
	names []csName
}

type csName struct {
	ids   []uint32
	known []bool // whether the index holds the word (else it pairs as new)
	kOpt  uint64
	kMiss []float64
}

// ChangeSetScorer returns a scorer of recs over the index's current state.
func (ix *Index) ChangeSetScorer(recs []*PreparedRecord) *ChangeSetScorer {
	v := ix.acquire()
	s := &ChangeSetScorer{ix: ix, v: v, vs: v.scored(), ids: map[string]uint32{}, recs: make([]csRecord, len(recs))}
	n := v.live
	lambda := prior(n)
	for i, p := range recs {
		cr := csRecord{p: p, names: make([]csName, len(p.br.names))}
		for slot, name := range p.br.names {
			toks := name.Tokens[:min(name.Base, maxScoredWords)]
			cn := csName{ids: make([]uint32, len(toks)), known: make([]bool, len(toks)), kMiss: make([]float64, len(toks))}
			for k, t := range toks {
				id, ok := s.ids[t]
				if !ok {
					id = uint32(len(s.ids))
					s.ids[t] = id
				}
				cn.ids[k] = id
				cn.known[k] = v.knows(t)
				if optionalWord(t) {
					cn.kOpt |= 1 << k
				}
				cn.kMiss[k] = recordMiss(t, recordWeight(t, v.tokenDF(s.vs, t), n), lambda)
			}
			cr.names[slot] = cn
		}
		s.recs[i] = cr
	}
	return s
}

// Release lets the index drop the state s holds.
func (s *ChangeSetScorer) Release() { s.v.release() }

// maxPreparerWords bounds the words a ChangeSetPreparer keeps: past it,
// it forgets them and starts again.
const maxPreparerWords = 200_000

// ChangeSetPreparer prepares checks for a ChangeSetScorer, keeping the
// partners of the words it has seen: not safe for concurrent use.
type ChangeSetPreparer struct {
	s    *ChangeSetScorer
	memo map[string]*globalPartners
	kept map[*globalPartners]map[uint32]partner // partners among the records' words
}

// Preparer returns a preparer of checks for s.
func (s *ChangeSetScorer) Preparer() *ChangeSetPreparer {
	return &ChangeSetPreparer{s: s, memo: map[string]*globalPartners{}, kept: map[*globalPartners]map[uint32]partner{}}
}

// ChangeSetQuery is a check prepared by a ChangeSetPreparer, scored
// against the records of its scorer.
type ChangeSetQuery struct {
	s *ChangeSetScorer
	q ScoredQuery
}

// Prepare validates q (which must be scored) and prepares it against the
// change set's records.
func (p *ChangeSetPreparer) Prepare(q query.Query) (*ChangeSetQuery, error) {
	if q.Match != query.Scored {
		return nil, &query.ParamError{Param: "match", Msg: "a change set scores match=scored checks only"}
	}
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	s := p.s
	out := &ChangeSetQuery{s: s, q: ScoredQuery{ix: s.ix, c: c, script: queryScript(c.text)}}
	if c.onlyLegal {
		return out, nil
	}
	if len(p.memo) > maxPreparerWords {
		p.memo = map[string]*globalPartners{}
		p.kept = map[*globalPartners]map[uint32]partner{}
	}
	out.q.raw = p.textQuery(s.v.prepareScored(s.vs, c, c.raw[0], p.memo))
	out.q.legal = out.q.raw
	if !slices.Equal(c.raw[0], c.legal[0]) {
		out.q.legal = p.textQuery(s.v.prepareScored(s.vs, c, c.legal[0], p.memo))
	}
	return out, nil
}

// textQuery is gq with its partners cut to the records' words, by the
// scorer's ids: a record word that is no partner has no unit, as in
// unindexedEdges, so the edges of every name string of the records are
// those of the uncut query.
func (p *ChangeSetPreparer) textQuery(gq *globalQuery) *textQuery {
	ids := p.s.ids
	return &textQuery{gq: gq, ids: ids, sq: gq.with(func(gp *globalPartners) map[uint32]partner {
		if m, ok := p.kept[gp]; ok {
			return m
		}
		m := map[uint32]partner{}
		for i, t := range gp.texts {
			if id, ok := ids[t]; ok {
				m[id] = gp.ps[i]
			}
		}
		p.kept[gp] = m
		return m
	})}
}

// Score answers whether record r (an index into the scorer's records) is
// a hit of the check, as ScoreUnindexed answers it.
func (q *ChangeSetQuery) Score(r int) (Hit, bool) {
	cr := &q.s.recs[r]
	if q.q.c.onlyLegal || !passesFilters(q.q.c, cr.p.br.rec) {
		return Hit{}, false
	}
	return q.q.scoreNames(cr.p, func(tq *textQuery, slot int, toks []string, sh *nameShape, edges []edge) []edge {
		cn := &cr.names[slot]
		for k, t := range toks {
			if !cn.known[k] {
				edges = newWordEdges(tq, t, k, edges)
				continue
			}
			// As in unindexedEdges: the next word pairs as a split's
			// second piece only when the index knows it.
			hasNext := k+1 < len(toks) && cn.known[k+1]
			next := uint32(0)
			if hasNext {
				next = cn.ids[k+1]
			}
			edges = tq.sq.wordEdges(edges, cn.ids[k], k, next, hasNext)
		}
		if len(edges) > 0 {
			sh.kOpt, sh.kMiss = cn.kOpt, cn.kMiss
		}
		return edges
	})
}
