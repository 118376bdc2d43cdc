package engine

import (
	"slices"
	"sync"
)

// Search answers q. It returns a *ParamError for a query that breaks the
// rules of SEMANTICS.md.
func (ix *Index) Search(q Query) (*Result, error) {
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	if c.onlyLegal {
		return &Result{}, nil
	}
	if c.Match == Scored {
		return ix.searchScored(c), nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := searcherPool.Get().(*searcher)
	defer s.release()
	s.ix, s.c, s.srcOK = ix, c, ix.sourceMask(c)
	if slices.EqualFunc(c.raw, c.legal, slices.Equal) {
		s.run(c.raw, anyRecord)
	} else {
		s.run(c.raw, individualsOnly)
		s.run(c.legal, legalOnly)
	}
	hits := make([]Hit, 0, len(s.best))
	for ord, b := range s.best {
		hits = append(hits, Hit{Record: ix.recs[ord], Exact: b.exact, Edits: b.edits, Extra: b.extra, Field: "search_all"})
	}
	res := &Result{Total: len(hits), Hits: rankHits(hits, c.limit)}
	// Field is resolved for returned hits only: NameStrings allocates.
	if !c.searchAll {
		for i := range res.Hits {
			h := &res.Hits[i]
			h.Field = fieldOf(h.Record, s.best[ix.ids[h.Record.ID]].slot)
		}
	}
	return res, nil
}

type recordSel uint8

const (
	anyRecord       recordSel = iota
	individualsOnly           // records whose names keep their legal-form words
	legalOnly                 // records whose names have legal forms canonicalised
)

type candidate struct {
	score
	slot uint16
}

// searcher holds the state of one search.
type searcher struct {
	ix    *Index
	c     *compiled
	srcOK []bool
	best  map[uint32]candidate
	// matches caches, per query token, the dictionary tokens it may pair
	// with and their distance.
	matches          map[string]map[uint32]uint8
	bufA, bufB, bufC []uint32
	used             []bool
	pairing          pairing
}

// searcherPool recycles searchers, whose scratch buffers and maps grow to
// the size of big queries: reusing them keeps a search from allocating
// (and the garbage collector from stealing time from the next one).
var searcherPool = sync.Pool{New: func() any {
	return &searcher{best: make(map[uint32]candidate)}
}}

func (s *searcher) release() {
	s.ix, s.c, s.srcOK = nil, nil, nil
	clear(s.best)
	clear(s.matches)
	s.bufA, s.bufB, s.bufC = s.bufA[:0], s.bufB[:0], s.bufC[:0]
	searcherPool.Put(s)
}

func (s *searcher) selects(sel recordSel, ord uint32) bool {
	switch sel {
	case individualsOnly:
		return s.ix.info[ord].et == etIndividual
	case legalOnly:
		return s.ix.info[ord].et != etIndividual
	}
	return true
}

// tokenMatches returns the dictionary tokens q may pair with: name tokens
// within its allowed edits and, for search_all, the token itself wherever
// it occurs.
func (s *searcher) tokenMatches(q string) map[uint32]uint8 {
	if m, ok := s.matches[q]; ok {
		return m
	}
	if s.matches == nil {
		s.matches = make(map[string]map[uint32]uint8)
	}
	d := s.ix.d
	m := make(map[uint32]uint8)
	d.Lookup(q, maxAllowed(s.c.Fuzzy, q), func(id uint32, dist int) {
		if dist <= allowedEdits(s.c.Fuzzy, q, d.Token(id)) {
			m[id] = uint8(dist)
		}
	})
	if s.c.searchAll {
		if id, ok := d.ID(q); ok {
			m[id] = 0
		}
	}
	s.matches[q] = m
	return m
}

// candidates returns the records or name strings that hold a partner for
// every query token (not yet distinct ones): the posting lists of each
// token's matches, united, then intersected, rarest token first. A token
// whose union would cost far more than the candidates left is not
// intersected; verification checks it anyway.
func (s *searcher) candidates(ms []map[uint32]uint8, post [][]uint32) []uint32 {
	type tok struct {
		m    map[uint32]uint8
		size int
	}
	toks := make([]tok, len(ms))
	for i, m := range ms {
		n := 0
		for id := range m {
			n += len(post[id])
		}
		toks[i] = tok{m, n}
	}
	slices.SortFunc(toks, func(a, b tok) int { return a.size - b.size })
	cands := s.union(toks[0].m, post, &s.bufA)
	for _, t := range toks[1:] {
		if len(cands) == 0 {
			break
		}
		var other []uint32
		if len(t.m) == 1 {
			for id := range t.m {
				other = post[id]
			}
		} else if t.size <= 32*len(cands) {
			other = s.union(t.m, post, &s.bufB)
		} else {
			continue
		}
		cands = intersect(cands, other, &s.bufC)
		s.bufA, s.bufC = s.bufC, s.bufA
	}
	return cands
}

// bagCandidates is candidates for search_all: the records holding a
// partner of every query token in a name string or elsewhere in the bag.
func (s *searcher) bagCandidates(ms []map[uint32]uint8) []uint32 {
	ix := s.ix
	var cands []uint32
	for i, m := range ms {
		var recs []uint32
		for id := range m {
			for _, ns := range ix.post[id] {
				recs = append(recs, ix.nsRec[ns])
			}
			recs = append(recs, ix.bagPost[id]...)
		}
		slices.Sort(recs)
		recs = slices.Compact(recs)
		if i == 0 {
			cands = recs
		} else {
			cands = intersect(cands, recs, &s.bufC)
			s.bufC = nil // cands owns that buffer now
		}
		if len(cands) == 0 {
			break
		}
	}
	return cands
}

// union returns the sorted union of the posting lists of m's tokens; a
// single list is returned as is, without copying.
func (s *searcher) union(m map[uint32]uint8, post [][]uint32, buf *[]uint32) []uint32 {
	if len(m) == 1 {
		for id := range m {
			return post[id]
		}
	}
	u := (*buf)[:0]
	for id := range m {
		u = append(u, post[id]...)
	}
	slices.Sort(u)
	u = slices.Compact(u)
	*buf = u
	return u
}

// intersect writes the intersection of the sorted lists a and b into buf.
func intersect(a, b []uint32, buf *[]uint32) []uint32 {
	*buf = Intersect(a, b, (*buf)[:0])
	return *buf
}

// Intersect appends the intersection of the ascending lists a and b to
// dst and returns it. When one list is much longer it binary-searches it
// rather than merging. The media index intersects its posting lists with
// it too.
func Intersect(a, b, dst []uint32) []uint32 {
	if len(a) > len(b) {
		a, b = b, a
	}
	out := dst
	if len(b) > 8*len(a) {
		lo := 0
		for _, x := range a {
			i, found := slices.BinarySearch(b[lo:], x)
			lo += i
			if found {
				out = append(out, x)
			}
		}
	} else {
		i, j := 0, 0
		for i < len(a) && j < len(b) {
			switch {
			case a[i] < b[j]:
				i++
			case a[i] > b[j]:
				j++
			default:
				out = append(out, a[i])
				i++
				j++
			}
		}
	}
	return out
}

func (s *searcher) run(variants [][]string, sel recordSel) {
	ix := s.ix
	for _, v := range variants {
		ms := make([]map[uint32]uint8, len(v))
		ok := true
		for i, t := range v {
			ms[i] = s.tokenMatches(t)
			if len(ms[i]) == 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if s.c.searchAll {
			s.runBag(v, ms, sel)
			continue
		}
		for _, ns := range s.candidates(ms, ix.post) {
			ord := ix.nsRec[ns]
			if ix.recs[ord] == nil || !s.selects(sel, ord) || !ix.passes(s.c, s.srcOK, ord) {
				continue
			}
			toks := ix.nsTok[ix.nsOff[ns]:ix.nsOff[ns+1]]
			edits, ok := s.pair(ms, toks, len(toks))
			if !ok {
				continue
			}
			base := int(ix.nsBase[ns])
			sc := score{edits: edits, extra: max(0, base-len(v))}
			sc.exact = edits == 0 && len(v) == base && s.sameTokens(v, toks[:base])
			s.offer(ord, candidate{score: sc, slot: ix.nsSlot[ns]})
		}
	}
}

// runBag verifies search_all candidates against their whole bag of tokens.
func (s *searcher) runBag(v []string, ms []map[uint32]uint8, sel recordSel) {
	ix := s.ix
	var ids []uint32
	for _, ord := range s.bagCandidates(ms) {
		if ix.recs[ord] == nil || !s.selects(sel, ord) || !ix.passes(s.c, s.srcOK, ord) {
			continue
		}
		b := recordBag(ix.recs[ord])
		ids = ids[:0]
		for _, t := range b.names {
			ids = append(ids, ix.tokenID(t))
		}
		for _, t := range b.others {
			ids = append(ids, ix.tokenID(t))
		}
		edits, ok := s.pair(ms, ids, len(b.names))
		if !ok {
			continue
		}
		s.offer(ord, candidate{score: score{edits: edits, extra: max(0, len(ids)-len(v))}})
	}
}

// offer keeps the better of a record's candidates; on a tie the earlier
// name string wins, so the reported field is deterministic.
func (s *searcher) offer(ord uint32, c candidate) {
	if old, ok := s.best[ord]; ok {
		if !c.score.better(old.score) && !(c.score == old.score && c.slot < old.slot) {
			return
		}
	}
	s.best[ord] = c
}

// sameTokens reports whether the query words are exactly the name's words.
func (s *searcher) sameTokens(v []string, toks []uint32) bool {
	if cap(s.used) < len(toks) {
		s.used = make([]bool, len(toks))
	}
	used := s.used[:len(toks)]
	clear(used)
outer:
	for _, q := range v {
		id, ok := s.ix.d.ID(q)
		if !ok {
			return false
		}
		for j, t := range toks {
			if !used[j] && t == id {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// pair finds the least total edits with which every query token pairs with
// a different token of toks; tokens at positions ≥ fuzzyUpTo pair only
// exactly. A depth-first search over query tokens, fewest options first,
// pruned by the best total so far: names have a handful of tokens, so this
// is a few dozen steps. It allocates nothing once the searcher's scratch
// has grown.
func (s *searcher) pair(ms []map[uint32]uint8, toks []uint32, fuzzyUpTo int) (int, bool) {
	p := &s.pairing
	p.opts = p.opts[:0]
	p.start = p.start[:0]
	for _, m := range ms {
		p.start = append(p.start, len(p.opts))
		for j, t := range toks {
			if d, ok := m[t]; ok && (d == 0 || j < fuzzyUpTo) {
				p.opts = append(p.opts, pairOption{int32(j), int32(d)})
			}
		}
		if len(p.opts) == p.start[len(p.start)-1] {
			return 0, false
		}
	}
	p.start = append(p.start, len(p.opts))
	p.order = p.order[:0]
	for i := range ms {
		p.order = append(p.order, i)
	}
	n := func(i int) int { return p.start[i+1] - p.start[i] }
	slices.SortFunc(p.order, func(a, b int) int { return n(a) - n(b) })
	if cap(p.used) < len(toks) {
		p.used = make([]bool, len(toks))
	}
	p.used = p.used[:len(toks)]
	clear(p.used)
	p.best = -1
	p.dfs(0, 0)
	return p.best, p.best >= 0
}

type pairOption struct{ pos, dist int32 }

// pairing is the scratch state of searcher.pair.
type pairing struct {
	opts  []pairOption // options of query token i: opts[start[i]:start[i+1]]
	start []int
	order []int
	used  []bool
	best  int
}

func (p *pairing) dfs(k, sum int) {
	if p.best >= 0 && sum >= p.best {
		return
	}
	if k == len(p.order) {
		p.best = sum
		return
	}
	i := p.order[k]
	for _, o := range p.opts[p.start[i]:p.start[i+1]] {
		if p.used[o.pos] {
			continue
		}
		p.used[o.pos] = true
		p.dfs(k+1, sum+int(o.dist))
		p.used[o.pos] = false
	}
}

// noToken stands for a token the dictionary does not hold: it pairs with
// no query token.
const noToken = ^uint32(0)

func (ix *Index) tokenID(t string) uint32 {
	if id, ok := ix.d.ID(t); ok {
		return id
	}
	return noToken
}
