package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// Search answers q. It returns a *ParamError for a query that breaks the
// rules of docs/MATCHING.md. It is SearchContext without a deadline.
func (ix *Index) Search(q query.Query) (*Result, error) {
	return ix.SearchContext(context.Background(), q)
}

// SearchContext answers q, giving up with ctx's error (wrapped) once ctx
// is done: it checks between dictionary look-ups and every few hundred
// candidates, so a caller that has gone away stops costing a core. A heavy
// query (see Admission) first waits for a slot; it returns ErrBusy when
// none comes free in time. The answer is always complete: a search is
// never cut short and answered.
//
// An index that reads its hit records from a RecordSource answers only
// from records of the version it reflects: when the source has moved on
// (a change set committed and not yet applied to the index), the search
// waits for the index to catch up and runs again, so an answer never mixes
// versions.
func (ix *Index) SearchContext(ctx context.Context, q query.Query) (*Result, error) {
	wait := time.Millisecond
	for {
		before := ix.cur.Load()
		res, err := ix.searchOnce(ctx, q)
		if !errors.Is(err, ErrRecordsMoved) {
			return res, err
		}
		deadline := time.Now().Add(movedWait)
		for ix.cur.Load() == before {
			if time.Now().After(deadline) {
				return nil, err
			}
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("search: %w", ctx.Err())
			case <-time.After(wait):
			}
			wait = min(2*wait, 50*time.Millisecond)
		}
	}
}

// movedWait bounds how long a search waits for its index to catch up with
// records that moved on: an index nobody updates (a store written by
// another process) answers with the error instead.
const movedWait = 30 * time.Second

func (ix *Index) searchOnce(ctx context.Context, q query.Query) (*Result, error) {
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	if c.onlyLegal {
		return &Result{}, nil
	}
	if c.Match == query.Scored {
		return ix.searchScored(ctx, c)
	}
	s := searcherPool.Get().(*searcher)
	defer s.release()
	s.ctx = ctx
	s.pairing.looked = 0
	release, err := ix.admit(s, c)
	if err != nil {
		return nil, err
	}
	defer release()
	for si := range s.v.segs {
		s.use(si)
		if slices.EqualFunc(c.raw, c.legal, slices.Equal) {
			s.run(c.raw, anyRecord)
		} else {
			s.run(c.raw, individualsOnly)
			s.run(c.legal, legalOnly)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	hits := make([]Hit, 0, len(s.best))
	for key, b := range s.best {
		si, ord := int(key>>32), uint32(key)
		hits = append(hits, Hit{ID: s.v.segs[si].id(ord), Exact: b.exact, Edits: b.edits, Extra: b.extra, Field: "search_all",
			seg: int32(si), ord: ord, slot: b.slot})
	}
	res := &Result{Total: len(hits), Hits: rankHits(hits, c.limit), work: s.pairing.looked}
	if err := s.v.fill(res.Hits, !c.searchAll); err != nil {
		return nil, err
	}
	return res, nil
}

// fill copies the ids of hits out of the segments' memory and reads their
// records: from beside their segment, or from the record source, all in
// one call. With names set it resolves each hit's Field from its record
// (Field is resolved for returned hits only: NameStrings allocates).
func (v *view) fill(hits []Hit, names bool) error {
	var ids []string
	var at []int
	for i := range hits {
		h := &hits[i]
		h.ID = cloneID(h.ID)
		if recs := v.segs[h.seg].recs; recs != nil {
			h.Record = recs[h.ord]
			continue
		}
		ids = append(ids, h.ID)
		at = append(at, i)
	}
	if len(ids) > 0 {
		if v.src == nil {
			return errNoRecords
		}
		recs, err := v.src.Records(ids)
		if err != nil {
			return fmt.Errorf("read records of hits: %w", err)
		}
		if len(recs) != len(ids) {
			return fmt.Errorf("read records of hits: %d records for %d ids", len(recs), len(ids))
		}
		for k, i := range at {
			if recs[k] == nil || recs[k].ID != ids[k] {
				return fmt.Errorf("read records of hits: record %s missing", ids[k])
			}
			hits[i].Record = recs[k]
		}
	}
	if names {
		for i := range hits {
			hits[i].Field = fieldOf(hits[i].Record, hits[i].slot)
		}
	}
	return nil
}

// admit holds the index's current view for s and looks up the query's
// words (filling s.matches). A heavy query waits for an admission slot
// before it holds a view, so a waiting query keeps no replaced segment
// mapped. The returned release gives back the view and the slot; on error
// nothing is held.
func (ix *Index) admit(s *searcher, c *compiled) (release func(), err error) {
	adm := ix.admission()
	slot := func() {}
	heavy := distinctWords(c) >= adm.MaxWords
	if heavy {
		if slot, err = adm.acquire(s.ctx); err != nil {
			return nil, err
		}
	}
	for {
		v := ix.acquire()
		s.v, s.c = v, c
		cost := s.lookUp(c)
		if s.err != nil {
			v.release()
			slot()
			return nil, s.err
		}
		if heavy || !adm.heavyCost(cost) {
			return func() { v.release(); slot() }, nil
		}
		// Heavy by its postings: wait for a slot without holding the
		// index, then look up again, since it may have changed meanwhile.
		v.release()
		s.v = nil
		s.resetMatches()
		if slot, err = adm.acquireByCost(s.ctx, cost); err != nil {
			return nil, err
		}
		heavy = true
	}
}

// distinctWords counts the distinct words over every spelling of the
// query.
func distinctWords(c *compiled) int {
	var seen []string
	for _, vs := range [][][]string{c.raw, c.legal} {
		for _, v := range vs {
			for _, t := range v {
				if !slices.Contains(seen, t) {
					seen = append(seen, t)
				}
			}
		}
	}
	return len(seen)
}

// lookUp looks up every word of every spelling of the query and returns
// the estimated cost of the search, in posting-list entries: the entries
// its words' matches hold (gathered and intersected), plus, per spelling,
// the candidates the rarest word allows times what verifying one costs in
// entries (verifyCost). It runs while s holds a view, and is cheap next
// to the search: the look-ups it does are the search's own, cached.
func (s *searcher) lookUp(c *compiled) int {
	weight := verifyCost
	if c.searchAll {
		weight = verifyBagCost
	}
	cost := 0
	spellings := [][][]string{c.raw, c.legal}
	if slices.EqualFunc(c.raw, c.legal, slices.Equal) {
		spellings = spellings[:1] // searched once
	}
	for si := range s.v.segs {
		s.use(si)
		sv := s.seg
		seen := map[string]int{} // word → entries of its matches
		for _, vs := range spellings {
			for _, v := range vs {
				rarest := -1
				for _, t := range v {
					n, ok := seen[t]
					if !ok {
						if s.cancelled() {
							return 0
						}
						for id := range s.tokenMatches(t) {
							n += len(sv.postings(id))
							if c.searchAll {
								n += len(sv.bagPostings(id))
							}
						}
						seen[t] = n
						cost += n
					}
					if rarest < 0 || n < rarest {
						rarest = n
					}
				}
				cost += weight * max(rarest, 0)
			}
		}
	}
	return cost
}

// Costs of verifying one candidate, in posting-list entries gathered (about
// 30 ns each), measured with BenchmarkWorstQuery: pairing with a name
// string and filtering its record, about 10; pairing with a record's
// whole search_all bag (some 26 tokens), about 40.
const (
	verifyCost    = 10
	verifyBagCost = 40
)

// cancelled reports whether the search's context is done, recording the
// error in s.err.
func (s *searcher) cancelled() bool {
	if s.err != nil {
		return true
	}
	if err := s.ctx.Err(); err != nil {
		s.err = fmt.Errorf("search: %w", err)
		return true
	}
	return false
}

// tick counts a unit of work and, every ctxCheckEvery units, checks the
// context and yields the processor: a long search then shares its core
// with short checks at that grain instead of the scheduler's 10 ms.
func (s *searcher) tick() bool {
	s.ticks++
	if s.ticks%ctxCheckEvery != 0 {
		return s.err != nil
	}
	runtime.Gosched()
	return s.cancelled()
}

// ctxCheckEvery is how many candidates a search verifies between two
// looks at its context: a few hundred microseconds of work.
const ctxCheckEvery = 256

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

// searcher holds the state of one search. It searches the segments of a
// view one at a time (use); best collects every segment's records.
type searcher struct {
	ctx   context.Context
	err   error // the context's error, once it is done
	ticks int
	v     *view
	c     *compiled
	seg   *segView // the segment being searched
	si    int      // its position in v.segs
	srcOK []bool
	best  map[uint64]candidate // key: segment << 32 | ordinal
	// matches caches, per segment and query token, the segment's
	// dictionary tokens it may pair with and their distance.
	segMatches       []map[string]map[uint32]uint8
	matches          map[string]map[uint32]uint8
	bufA, bufB, bufC []uint32
	used             []bool
	pairing          pairing
	first            []int // by query word: its first occurrence (pair)
}

// searcherPool recycles searchers, whose scratch buffers and maps grow to
// the size of big queries: reusing them keeps a search from allocating
// (and the garbage collector from stealing time from the next one).
var searcherPool = sync.Pool{New: func() any {
	return &searcher{best: make(map[uint64]candidate)}
}}

func (s *searcher) release() {
	s.v, s.c, s.seg, s.srcOK, s.ctx, s.err, s.ticks = nil, nil, nil, nil, nil, nil, 0
	clear(s.best)
	s.resetMatches()
	s.bufA, s.bufB, s.bufC = s.bufA[:0], s.bufB[:0], s.bufC[:0]
	searcherPool.Put(s)
}

// resetMatches forgets the look-ups of every segment (keeping the maps).
func (s *searcher) resetMatches() {
	for i := range s.segMatches {
		clear(s.segMatches[i])
	}
	s.segMatches = s.segMatches[:0]
	s.matches = nil
}

// use makes segment si of the view the one searched.
func (s *searcher) use(si int) {
	for len(s.segMatches) <= si {
		if len(s.segMatches) < cap(s.segMatches) {
			s.segMatches = s.segMatches[:len(s.segMatches)+1] // a cleared map from before
		} else {
			s.segMatches = append(s.segMatches, nil)
		}
	}
	if s.segMatches[si] == nil {
		s.segMatches[si] = make(map[string]map[uint32]uint8)
	}
	s.si, s.seg, s.matches = si, &s.v.segs[si], s.segMatches[si]
	s.srcOK = s.seg.sourceMask(s.c)
}

// key is the key of record ord of the current segment in best.
func (s *searcher) key(ord uint32) uint64 { return uint64(s.si)<<32 | uint64(ord) }

func (s *searcher) selects(sel recordSel, ord uint32) bool {
	switch sel {
	case individualsOnly:
		return s.seg.et(ord) == etIndividual
	case legalOnly:
		return s.seg.et(ord) != etIndividual
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
	d := s.seg
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
func (s *searcher) candidates(ms []map[uint32]uint8, post func(uint32) []uint32) []uint32 {
	type tok struct {
		m    map[uint32]uint8
		size int
	}
	toks := make([]tok, len(ms))
	for i, m := range ms {
		n := 0
		for id := range m {
			n += len(post(id))
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
				other = post(id)
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
// Tokens are taken rarest first; one whose records would cost far more to
// gather than the candidates left is not intersected, since verification
// checks it anyway (as candidates does).
func (s *searcher) bagCandidates(ms []map[uint32]uint8) []uint32 {
	sv := s.seg
	type tok struct {
		m    map[uint32]uint8
		size int
	}
	toks := make([]tok, len(ms))
	for i, m := range ms {
		n := 0
		for id := range m {
			n += len(sv.postings(id)) + len(sv.bagPostings(id))
		}
		toks[i] = tok{m, n}
	}
	slices.SortFunc(toks, func(a, b tok) int { return a.size - b.size })
	var cands []uint32
	for i, t := range toks {
		if i > 0 && t.size > 64*len(cands) {
			continue
		}
		var recs []uint32
		for id := range t.m {
			if s.cancelled() {
				return nil
			}
			for _, ns := range sv.postings(id) {
				recs = append(recs, sv.nsRec[ns])
			}
			recs = append(recs, sv.bagPostings(id)...)
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
func (s *searcher) union(m map[uint32]uint8, post func(uint32) []uint32, buf *[]uint32) []uint32 {
	if len(m) == 1 {
		for id := range m {
			return post(id)
		}
	}
	u := (*buf)[:0]
	for id := range m {
		u = append(u, post(id)...)
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
	sv := s.seg
	for _, v := range variants {
		if s.cancelled() {
			return
		}
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
		// Candidates need each word once; pairing needs every repeat, and
		// finds a repeat's options once (s.first).
		distinct := ms[:0:0]
		s.first = s.first[:0]
		for i, t := range v {
			k := slices.Index(v[:i], t)
			if k < 0 {
				k = i
				distinct = append(distinct, ms[i])
			}
			s.first = append(s.first, k)
		}
		if s.c.searchAll {
			s.runBag(v, ms, distinct, sel)
			continue
		}
		for _, ns := range s.candidates(distinct, sv.postings) {
			if s.tick() {
				return
			}
			ord := sv.nsRec[ns]
			if sv.dead(ord) || !s.selects(sel, ord) || !sv.passes(s.c, s.srcOK, ord) {
				continue
			}
			toks := sv.nameToks(ns)
			edits, ok := s.pair(ms, toks, len(toks))
			if !ok {
				continue
			}
			base := int(sv.nsBase[ns])
			sc := score{edits: edits, extra: max(0, base-len(v))}
			sc.exact = edits == 0 && len(v) == base && s.sameTokens(v, toks[:base])
			s.offer(ord, candidate{score: sc, slot: sv.nsSlot[ns]})
		}
	}
}

// runBag verifies search_all candidates against their whole bag of tokens,
// kept by the index as token ids.
func (s *searcher) runBag(v []string, ms, distinct []map[uint32]uint8, sel recordSel) {
	sv := s.seg
	for _, ord := range s.bagCandidates(distinct) {
		if s.tick() {
			return
		}
		if sv.dead(ord) || !s.selects(sel, ord) || !sv.passes(s.c, s.srcOK, ord) {
			continue
		}
		ids, names := sv.bag(ord)
		edits, ok := s.pair(ms, ids, names)
		if !ok {
			continue
		}
		s.offer(ord, candidate{score: score{edits: edits, extra: max(0, len(ids)-len(v))}})
	}
}

// offer keeps the better of a record's candidates; on a tie the earlier
// name string wins, so the reported field is deterministic.
func (s *searcher) offer(ord uint32, c candidate) {
	k := s.key(ord)
	if old, ok := s.best[k]; ok {
		if !c.score.better(old.score) && !(c.score == old.score && c.slot < old.slot) {
			return
		}
	}
	s.best[k] = c
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
		id, ok := s.seg.ID(q)
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
// exactly. s.first[i] is the first query word equal to word i, whose
// options word i shares: a word repeated k times costs one look-up per
// token, not k. A depth-first search over query tokens, fewest options first,
// pruned by the best total so far: names have a handful of tokens, so this
// is a few dozen steps. Past pairStepBudget steps the Hungarian method
// (assign.go) answers instead, in polynomial time. It allocates nothing
// once the searcher's scratch has grown.
func (s *searcher) pair(ms []map[uint32]uint8, toks []uint32, fuzzyUpTo int) (int, bool) {
	if len(toks) < len(ms) {
		return 0, false // fewer tokens than query words: no pairing
	}
	p := &s.pairing
	p.opts = p.opts[:0]
	p.start = p.start[:0]
	for i, m := range ms {
		p.start = append(p.start, len(p.opts))
		if k := s.first[i]; k < i {
			// A repeated word: the options of its first occurrence.
			p.opts = append(p.opts, p.opts[p.start[k]:p.start[k+1]]...)
			continue
		}
		p.looked += len(toks)
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
	p.best, p.steps, p.budget = -1, 0, pairStepBudget
	if p.budget != 0 {
		p.dfs(0, 0)
		if p.steps <= p.budget || p.budget < 0 {
			return p.best, p.best >= 0
		}
	}
	return p.hungarian(len(ms), len(toks))
}

type pairOption struct{ pos, dist int32 }

// pairing is the scratch state of searcher.pair.
type pairing struct {
	opts  []pairOption // options of query token i: opts[start[i]:start[i+1]]
	start []int
	order []int
	used  []bool
	best  int
	// steps counts the search's calls; past budget (unless negative) it
	// gives up for the Hungarian method.
	steps, budget int
	// looked counts the tokens looked up in query words' matches, over a
	// whole search (Result.work).
	looked int
	// The Hungarian method's matrix, over the columns some option uses.
	cols []int32 // token position → column, -1 for none
	cost []int
	asg  assigner
}

func (p *pairing) dfs(k, sum int) {
	p.steps++
	if p.budget >= 0 && p.steps > p.budget {
		return
	}
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

// hungarian answers pair from the options with the Hungarian method: rows
// are the n query tokens, columns the record tokens some option names.
func (p *pairing) hungarian(n, ntoks int) (int, bool) {
	if cap(p.cols) < ntoks {
		p.cols = make([]int32, ntoks)
	}
	p.cols = p.cols[:ntoks]
	for i := range p.cols {
		p.cols[i] = -1
	}
	m := 0
	for _, o := range p.opts {
		if p.cols[o.pos] < 0 {
			p.cols[o.pos] = int32(m)
			m++
		}
	}
	if m < n {
		return 0, false
	}
	if cap(p.cost) < n*m {
		p.cost = make([]int, n*m)
	}
	p.cost = p.cost[:n*m]
	for i := range p.cost {
		p.cost[i] = forbidden
	}
	for i := range n {
		for _, o := range p.opts[p.start[i]:p.start[i+1]] {
			p.cost[i*m+int(p.cols[o.pos])] = int(o.dist)
		}
	}
	return p.asg.solve(n, m, p.cost, nil)
}
