package engine

import (
	"slices"
	"sync"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// ChangeSetScorer scores many scored queries (a customer book's checks)
// against the few records of a change set with ScoreUnindexed's rules and
// the word statistics of one state of an index. A prepared query keeps,
// of each word's partners in the whole index, only those that are words of
// the change set's records, the only ones a pairing with them can use:
// preparing a check costs its few words, not their hundreds of partners.
// The records' words are weighed once, not at every check. A check scores
// what ScoreUnindexed scores it. It is safe for concurrent use; each
// goroutine prepares with its own ChangeSetPreparer. Release it when done.
type ChangeSetScorer struct {
	ix   *Index
	v    *view
	vs   *viewScored
	ids  map[string]uint32 // the records' words (of their scored name strings)
	recs []csRecord
	// own is an index of the records alone, to find whether a unit of a
	// check (a word, two words joined, a piece) pairs with one of their
	// words before its partners are looked up in the whole index; toks
	// are the records' words' keys, by ids. When a record holds a word
	// the whole index does not know (own is nil), a check needs all its
	// partners: such a word is weighed by them.
	own  *view
	owns *viewScored
	toks []tokInfo
	// memo is what its preparers have found, shared by all of them.
	memo csMemo
	// paired, when set, answers for words and joined pairs of words
	// whether they pair with a word of the records (SetPaired).
	paired func(unit string) (pairs, known bool)
}

// SetPaired gives s a test of whether a word of a check, or two words
// joined, pairs (by relate, as a whole unit) with a word of the records'
// name strings, known reports whether the test knows the unit. The
// caller knows it from its own reverse look-up (a book's customers' words
// against the change set's words). A unit that pairs with none has no
// partners among the records, without a look-up; one that pairs has its
// partners looked up in the whole index at once, without first asking
// the records' own index. pairs may be true of a unit that does not pair
// (it costs a look-up), never false of one that does. It is not used for
// a piece of a split word, nor when a record holds a word the index does
// not know. Set it before preparing.
func (s *ChangeSetScorer) SetPaired(paired func(unit string) (pairs, known bool)) { s.paired = paired }

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
	s.memo.reset()
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
	s.toks = make([]tokInfo, len(s.ids))
	allKnown := true
	for t, id := range s.ids {
		s.toks[id] = newTokInfo(t)
		allKnown = allKnown && v.knows(t)
	}
	if allKnown && len(recs) > 0 {
		rs := make([]*record.Record, len(recs))
		for i, p := range recs {
			rs[i] = p.br.rec
		}
		s.own = NewIndex(rs).acquire()
		s.owns = s.own.scored()
	}
	return s
}

// Release lets the index drop the state s holds.
func (s *ChangeSetScorer) Release() {
	s.v.release()
	if s.own != nil {
		s.own.release()
	}
}

// pairsRecords reports whether t pairs (by relate, by relatePiece for a
// piece; as accept accepts) with a word of the records: a superset of the
// partners of t in the whole index that are words of the records, since
// both are found by lookupPartners over the same words. Without an own
// index it answers true.
func (s *ChangeSetScorer) pairsRecords(t *tokInfo, fuzzy int, piece bool, accept func(partner) bool) bool {
	if s.own == nil {
		return true
	}
	if !piece && s.paired != nil {
		// A unit of a check is used only through its partners among
		// the records' words: one that pairs with none of them has the
		// same (none) whether its partners are looked up or not.
		if pairs, known := s.paired(t.text); known {
			return pairs
		}
	}
	found := false
	for si := range s.own.segs {
		seg := s.own.segs[si].Segment
		lookupPartners(seg, s.owns.keys[si], t, fuzzy, piece, func(id uint32) {
			if found || !seg.keyed(id) {
				return
			}
			k, ok := s.ids[seg.Token(id)]
			if !ok {
				return // a word no name string scored holds
			}
			var p partner
			if piece {
				p, ok = relatePiece(t, &s.toks[k], fuzzy)
			} else {
				p, ok = relate(t, &s.toks[k], fuzzy)
			}
			found = ok && (accept == nil || accept(p))
		})
		if found {
			return true
		}
	}
	return false
}

// maxPreparerWords bounds the units a ChangeSetScorer's memo keeps: past
// it, it forgets them and starts again.
const maxPreparerWords = 200_000

// ChangeSetPreparer prepares checks for a ChangeSetScorer. What it finds
// of a unit (its partners, its splits, its word's keys) goes into the
// scorer's memo, which every preparer of the scorer shares: the
// goroutines of a change set prepare customers with the same words, and
// each unit's partners are looked up once per change set, not once per
// goroutine. A preparer is not safe for concurrent use; a goroutine takes
// its own.
type ChangeSetPreparer struct {
	s *ChangeSetScorer
}

// csMemo is what the preparers of one scorer have found, guarded by mu.
type csMemo struct {
	mu     sync.RWMutex
	memo   map[unitKey]*globalPartners
	splits map[unitKey][]globalSplit // by the word split
	words  map[unitKey]*csWord       // by the word, syllabic (kind bit 1) or not, Arabic (bit 2) or not
	kept   map[*globalPartners]map[uint32]partner
}

func (m *csMemo) reset() {
	m.memo, m.splits, m.words = map[unitKey]*globalPartners{}, map[unitKey][]globalSplit{}, map[unitKey]*csWord{}
	m.kept = map[*globalPartners]map[uint32]partner{}
}

// trim forgets what m holds once it holds more than maxPreparerWords
// units. The checks prepared before keep what they took from it.
func (m *csMemo) trim() {
	m.mu.RLock()
	n := len(m.memo)
	m.mu.RUnlock()
	if n <= maxPreparerWords {
		return
	}
	m.mu.Lock()
	if len(m.memo) > maxPreparerWords {
		m.reset()
	}
	m.mu.Unlock()
}

// unitKey is a unit of a check at a fuzzy level: a word (kind 'w', or
// 'a' in a check written in Arabic script: wordUnitKind), two words
// joined ('c', a and b), three words joined ('3', a the first two parted
// by a zero byte, b the third), a piece of a word ('p').
type unitKey struct {
	fuzzy int
	kind  byte
	a, b  string
}

// csWord is a word of a check with its keys and the records holding it.
type csWord struct {
	t  tokInfo
	df int
}

// noPartners are the partners of a unit that pairs with no word of the
// change set's records.
var noPartners = &globalPartners{}

// Preparer returns a preparer of checks for s.
func (s *ChangeSetScorer) Preparer() *ChangeSetPreparer {
	return &ChangeSetPreparer{s: s}
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
	s.memo.trim()
	out.q.raw = p.textQuery(p.prepare(c, c.raw[0]))
	out.q.legal = out.q.raw
	if !slices.Equal(c.raw[0], c.legal[0]) {
		out.q.legal = p.textQuery(p.prepare(c, c.legal[0]))
	}
	return out, nil
}

// partners returns the partners in the whole index of the unit key whose
// keys tok gives, as prepareScored finds them, or noPartners when it
// pairs with no word of the records: its partners are then never used.
func (p *ChangeSetPreparer) partners(k unitKey, tok func() tokInfo, piece bool, accept func(partner) bool) *globalPartners {
	m := &p.s.memo
	m.mu.RLock()
	gp, ok := m.memo[k]
	m.mu.RUnlock()
	if ok {
		return gp
	}
	gp = noPartners
	if t := tok(); p.s.pairsRecords(&t, k.fuzzy, piece, accept) {
		key := string(k.kind) + "\x00" + k.a
		if k.kind == 'c' || k.kind == '3' {
			key += "\x00" + k.b
		}
		ck := cacheKey(k.fuzzy, key)
		v := p.s.v
		var ok bool
		if gp, ok = v.pc.get(ck); !ok {
			gp = v.pc.put(ck, v.scoredPartners(p.s.vs, &t, k.fuzzy, piece, accept))
		}
	}
	m.mu.Lock()
	if old, ok := m.memo[k]; ok {
		gp = old // another goroutine's, the same partners: keep one
	} else {
		m.memo[k] = gp
	}
	m.mu.Unlock()
	return gp
}

// unpaired reports whether unit w of a check (a word, or two or three
// words joined) is known to pair with no word of the records (SetPaired):
// partners would then give it noPartners. Asking first spares the joined
// units' keys and the memo's lock, for the many units of a check that
// pair with none of a change set's words.
func (p *ChangeSetPreparer) unpaired(w string) bool {
	s := p.s
	if s.own == nil || s.paired == nil {
		return false
	}
	pairs, known := s.paired(w)
	return known && !pairs
}

// word returns word w of a check, syllabic or not, of a check in Arabic
// script or not, with its keys and the records holding it.
func (p *ChangeSetPreparer) word(w string, syllabic, arabic bool) *csWord {
	k := unitKey{kind: 0, a: w}
	if syllabic {
		k.kind |= 1
	}
	if arabic {
		k.kind |= 2
	}
	m := &p.s.memo
	m.mu.RLock()
	cw, ok := m.words[k]
	m.mu.RUnlock()
	if ok {
		return cw
	}
	t := newQueryTokInfo(w, syllabic)
	t.arabic = arabic
	cw = &csWord{t: t, df: p.s.v.tokenDF(p.s.vs, t.text)}
	m.mu.Lock()
	m.words[k] = cw
	m.mu.Unlock()
	return cw
}

// prepare is prepareScored for the change set: the same words, weights
// and partners, except that a unit pairing with no word of the records
// has none (noPartners), and a split is kept only when both its pieces
// pair with one.
func (p *ChangeSetPreparer) prepare(c *compiled, words []string) *globalQuery {
	v := p.s.v
	m := min(len(words), maxScoredWords)
	n := v.live
	gq := &globalQuery{fuzzy: c.Fuzzy, lambda: prior(n), n: n, evMax: maxEvidence(c)}
	syllabic, arabic := syllabicQuery(c.text), arabicQuery(c.text)
	for j := 0; j < m; j++ {
		cw := p.word(words[j], syllabic, arabic)
		t, df := cw.t, cw.df
		gq.words = append(gq.words, t)
		gp := noPartners
		if !p.unpaired(t.text) {
			gp = p.partners(unitKey{c.Fuzzy, wordUnitKind(&t)[0], t.text, ""}, func() tokInfo { return t }, false, nil)
		}
		gq.part = append(gq.part, gp)
		w := tokenWeight(&t, df, n)
		gq.w = append(gq.w, w)
		if t.optional {
			gq.opt |= 1 << j
		}
		gq.miss = append(gq.miss, queryMiss(&t, df, w, gq.lambda))
	}
	for j := 0; j+1 < m; j++ {
		var gp *globalPartners
		a, b := &gq.words[j], &gq.words[j+1]
		if !a.optional && !b.optional && p.unpaired(a.text+b.text) {
			gp = noPartners
		} else if !a.optional && !b.optional {
			gp = p.partners(unitKey{c.Fuzzy, 'c', a.text, b.text}, func() tokInfo { return newTokInfo(a.text + b.text) }, false,
				func(pp partner) bool { return joinedPair(pp, a, b) })
		}
		gq.cat = append(gq.cat, gp)
	}
	for j := 0; j+2 < m; j++ {
		var gp *globalPartners
		a, b, d := &gq.words[j], &gq.words[j+1], &gq.words[j+2]
		if !a.optional && !b.optional && !d.optional && p.unpaired(a.text+b.text+d.text) {
			gp = noPartners
		} else if !a.optional && !b.optional && !d.optional {
			gp = p.partners(unitKey{c.Fuzzy, '3', a.text + "\x00" + b.text, d.text}, func() tokInfo { return newTokInfo(a.text + b.text + d.text) }, false,
				func(pp partner) bool { return joinedPair3(pp, a, b, d) })
		}
		gq.cat3 = append(gq.cat3, gp)
	}
	gq.splits = make([][]globalSplit, m)
	for j := 0; j < m; j++ {
		if gq.words[j].optional || gq.words[j].digit {
			continue
		}
		sk := unitKey{c.Fuzzy, 's', gq.words[j].text, ""}
		p.s.memo.mu.RLock()
		sp, ok := p.s.memo.splits[sk]
		p.s.memo.mu.RUnlock()
		if ok {
			gq.splits[j] = sp
			continue
		}
		gq.splits[j] = wordSplits(gq.words[j].text, func(a string) *globalPartners {
			return p.partners(unitKey{c.Fuzzy, 'p', a, ""}, func() tokInfo { return newTokInfo(a) }, true, nil)
		})
		p.s.memo.mu.Lock()
		p.s.memo.splits[sk] = gq.splits[j]
		p.s.memo.mu.Unlock()
	}
	return gq
}

// textQuery is gq with its partners cut to the records' words, by the
// scorer's ids: a record word that is no partner has no unit, as in
// unindexedEdges, so the edges of every name string of the records are
// those of the uncut query.
func (p *ChangeSetPreparer) textQuery(gq *globalQuery) *textQuery {
	ids := p.s.ids
	memo := &p.s.memo
	return &textQuery{gq: gq, ids: ids, sq: gq.with(func(gp *globalPartners) map[uint32]partner {
		memo.mu.RLock()
		m, ok := memo.kept[gp]
		memo.mu.RUnlock()
		if ok {
			return m
		}
		m = map[uint32]partner{}
		for i, t := range gp.texts {
			if id, ok := ids[t]; ok {
				m[id] = gp.ps[i]
			}
		}
		memo.mu.Lock()
		if old, ok := memo.kept[gp]; ok {
			m = old
		} else {
			memo.kept[gp] = m
		}
		memo.mu.Unlock()
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
			// As in unindexedEdges: the next words pair as a split's
			// later pieces only when the index knows them.
			edges = tq.sq.wordEdges(edges, cn.ids[k], k, knownNext(cn.ids, cn.known, k))
		}
		if len(edges) > 0 {
			sh.kOpt, sh.kMiss = cn.kOpt, cn.kMiss
		}
		return edges
	})
}
