package media

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
)

// ParamError is a request parameter that breaks the rules of docs/API.md
// "Media"; the server answers it with 400, the CLI with exit code
// 2. It is the engine's type, so that code handling check errors handles
// media errors too.
type ParamError = query.ParamError

// MaxQueryWords bounds the words of a name: a mention is found by a search
// over subsets of them.
const MaxQueryWords = 16

// nameQuery is a validated name: its spellings as token lists.
type nameQuery struct {
	variants [][]string
	fuzzy    int
	// none: the name is only legal forms ("LLC") and matches nothing, as
	// in the engine.
	none bool
	// steps counts the work of the mention programme so far.
	steps int
}

// compileName validates text (the search_all parameter) and fuzzy for a
// check of kind. Individuals are matched on their words as written;
// entities and searches also on their legal forms canonicalised, so every
// spelling of a legal form finds every other.
func compileName(text string, kind query.Kind, fuzzy int) (*nameQuery, error) {
	if fuzzy < 0 || fuzzy > 2 {
		return nil, &ParamError{Param: "fuzzy_search", Msg: fmt.Sprintf("%d is not 1 or 2", fuzzy)}
	}
	raw := normalize.QueryVariants(text, false)
	if len(raw) == 0 || len(raw[0]) == 0 {
		if text == "" {
			return nil, &ParamError{Param: "search_all", Msg: "required"}
		}
		return nil, &ParamError{Param: "search_all", Msg: fmt.Sprintf("%q contains no word to search for", text)}
	}
	q := &nameQuery{fuzzy: fuzzy}
	seen := map[string]bool{}
	addAll := func(vs [][]string) {
		for _, v := range vs {
			k := fmt.Sprint(v)
			if !seen[k] {
				seen[k] = true
				q.variants = append(q.variants, v)
			}
		}
	}
	addAll(raw)
	if kind != query.Individual {
		legal := normalize.QueryVariants(text, true)
		if allLegal(legal) {
			q.none = true
		}
		addAll(legal)
	}
	for _, v := range q.variants {
		if len(v) > MaxQueryWords {
			return nil, &ParamError{Param: "search_all", Msg: fmt.Sprintf("more than %d words", MaxQueryWords)}
		}
	}
	return q, nil
}

func allLegal(vs [][]string) bool {
	for _, v := range vs {
		for _, t := range v {
			if !normalize.IsLegalForm(t) {
				return false
			}
		}
	}
	return true
}

// admit waits for one of the slots heavy queries share
// (engine.Admitter.Acquire), as heavy checks do, when q is heavy under the
// corpus's admission: by its distinct words, or by the size of the
// posting lists (documents and positions, in bytes) its words and their
// spellings reach. It returns the function that gives the slot back, or
// engine.ErrBusy or ctx's error when no slot came free in time. The
// caller holds no lock: the corpus is read under c.mu only while the cost
// is estimated.
func (c *Corpus) admit(ctx context.Context, q *nameQuery) (release func(), err error) {
	if q.none {
		return func() {}, nil
	}
	g := c.adm
	if g == nil {
		g = engine.DefaultAdmitter()
	}
	adm := g.Admission()
	words := map[string]bool{}
	for _, v := range q.variants {
		for _, t := range v {
			words[t] = true
		}
	}
	heavy := len(words) >= adm.MaxWords
	if !heavy && adm.MinCost >= 0 {
		heavy = c.cost(words, q.fuzzy) >= adm.MinCost
	}
	if !heavy {
		return func() {}, nil
	}
	return g.Acquire(ctx)
}

// cost returns the bytes of the posting lists of words and of the terms
// they may pair with under fuzzy.
func (c *Corpus) cost(words map[string]bool, fuzzy int) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	seen := map[string]bool{}
	n := 0
	add := func(term string) {
		if p := c.terms[term]; p != nil && !seen[term] {
			seen[term] = true
			n += len(p.blob)
		}
	}
	for w := range words {
		add(w)
		if fuzzy > 0 && engine.MaxEdits(fuzzy, w) > 0 {
			c.vocabulary().lookup(w, fuzzy, add)
		}
	}
	return n
}

// decodedTerm is the document list of one term, decoded for one query.
type decodedTerm struct {
	p    *termPostings
	docs []uint32
	// pos[i] is the byte range of document docs[i]'s positions in p.blob.
	pos [][2]int
}

// decode returns the decoded list of term, from cache when it was decoded
// before in this query. The caller holds c.mu for reading.
func (c *Corpus) decode(cache map[string]*decodedTerm, term string) *decodedTerm {
	if d, ok := cache[term]; ok {
		return d
	}
	p := c.terms[term]
	var d *decodedTerm
	if p != nil {
		d = &decodedTerm{p: p, docs: make([]uint32, 0, p.n), pos: make([][2]int, 0, p.n)}
		it := postingIter{b: p.blob}
		for it.next() {
			d.docs = append(d.docs, it.doc)
			d.pos = append(d.pos, [2]int{it.posStart, it.posEnd})
		}
	}
	cache[term] = d
	return d
}

// matchingDocs returns the live documents that mention the name, in
// increasing document order. The caller holds c.mu for reading.
func (c *Corpus) matchingDocs(ctx context.Context, q *nameQuery) ([]uint32, error) {
	if q.none {
		return nil, nil
	}
	cache := map[string]*decodedTerm{}
	var out []uint32
	for _, v := range q.variants {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		docs, err := c.matchVariant(ctx, cache, v, q.fuzzy, &q.steps)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	if len(q.variants) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out, nil
}

// termMask is a term that may stand for some of the query's tokens.
type termMask struct {
	d    *decodedTerm
	mask uint32 // bit i: may stand for token i
}

// maxMentionSteps bounds the steps of the mention programme
// (mentionMatcher) one query may take, about a tenth of a second of a core.
// A name of many distinct words whose spellings all stand for the same
// common words of the articles could otherwise cost seconds; it is refused
// with a ParamError instead, never answered in part.
const maxMentionSteps = 30_000_000

// matchVariant returns the live documents that mention the token list
// toks, adding the steps of the mention programme to *steps.
func (c *Corpus) matchVariant(ctx context.Context, cache map[string]*decodedTerm, toks []string, fuzzy int, steps *int) ([]uint32, error) {
	masks := map[string]uint32{}
	perToken := make([][]*decodedTerm, len(toks))
	for i, tok := range toks {
		add := func(term string) {
			d := c.decode(cache, term)
			if d == nil {
				return
			}
			if masks[term]&(1<<i) == 0 {
				perToken[i] = append(perToken[i], d)
				masks[term] |= 1 << i
			}
		}
		add(tok)
		if fuzzy > 0 && engine.MaxEdits(fuzzy, tok) > 0 {
			c.vocabulary().lookup(tok, fuzzy, add)
		}
		if len(perToken[i]) == 0 {
			return nil, nil // a token no article has
		}
	}
	// Documents holding every token, rarest token first.
	sets := make([][]uint32, len(toks))
	for i, ds := range perToken {
		sets[i] = unionDocs(ds)
	}
	sort.Slice(sets, func(a, b int) bool { return len(sets[a]) < len(sets[b]) })
	cand := sets[0]
	for _, s := range sets[1:] {
		cand = engine.Intersect(cand, s, make([]uint32, 0, min(len(cand), len(s))))
		if len(cand) == 0 {
			return nil, nil
		}
	}
	terms := make([]termMask, 0, len(masks))
	for t, m := range masks {
		terms = append(terms, termMask{d: cache[t], mask: m})
	}
	tmasks := make([]uint32, len(terms))
	for i, tm := range terms {
		tmasks[i] = tm.mask
	}
	mm := newMentionMatcher(tmasks, len(toks))
	var out []uint32
	var events []event
	var posBuf []uint32
	for n, doc := range cand {
		if n%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if !c.docs[doc].alive {
			continue
		}
		events = events[:0]
		for _, tm := range terms {
			i, ok := slices.BinarySearch(tm.d.docs, doc)
			if !ok {
				continue
			}
			r := tm.d.pos[i]
			posBuf = appendPositions(posBuf[:0], tm.d.p.blob, r[0], r[1])
			for _, p := range posBuf {
				events = append(events, event{pos: p, mask: tm.mask})
			}
		}
		if mm.mentions(events) {
			out = append(out, doc)
		}
		if *steps+mm.steps > maxMentionSteps {
			return nil, &ParamError{Param: "search_all", Msg: "its words match the same words of the articles too often to be searched within the work bound of a request; use fewer or more distinctive words, or a lower fuzzy_search"}
		}
	}
	*steps += mm.steps
	return out, nil
}

// vocabulary returns the fuzzy index, building it on first use. The caller
// holds c.mu for reading; imports (holding it for writing) keep it current.
func (c *Corpus) vocabulary() *vocab {
	c.vmu.Lock()
	defer c.vmu.Unlock()
	if c.vocab == nil {
		v := newVocab()
		for t := range c.terms {
			v.add(t)
		}
		c.vocab = v
	}
	return c.vocab
}

// unionDocs merges the document lists of the terms that may stand for one
// token.
func unionDocs(ds []*decodedTerm) []uint32 {
	if len(ds) == 1 {
		return ds[0].docs
	}
	n := 0
	for _, d := range ds {
		n += len(d.docs)
	}
	out := make([]uint32, 0, n)
	for _, d := range ds {
		out = append(out, d.docs...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// event is a position of the document holding a term that may stand for
// the query tokens in mask.
type event struct {
	pos  uint32
	mask uint32
}

// tokenGroups partitions the query tokens into groups of interchangeable
// ones: tokens that every term stands for alike (a repeated word, say).
// A chain of positions is then described by how many tokens of each group
// it has used, not by which, so that k copies of one word give k+1 states
// instead of 2^k.
type tokenGroups struct {
	n     int                   // groups
	rep   [MaxQueryWords]uint32 // one token bit of each group
	mult  [MaxQueryWords]uint32 // tokens of each group
	radix [MaxQueryWords]uint32 // weight of each group's count in a state
	full  uint32                // the state that uses every token
}

// groupTokens groups the k tokens by the masks of the terms that may stand
// for them.
func groupTokens(masks []uint32, k int) tokenGroups {
	var g tokenGroups
	for i := 0; i < k; i++ {
		gi := -1
		for j := 0; j < g.n && gi < 0; j++ {
			r := bits.TrailingZeros32(g.rep[j])
			same := true
			for _, m := range masks {
				if (m>>i)&1 != (m>>r)&1 {
					same = false
					break
				}
			}
			if same {
				gi = j
			}
		}
		if gi < 0 {
			gi = g.n
			g.rep[gi] = 1 << i
			g.n++
		}
		g.mult[gi]++
	}
	size := uint32(1)
	for j := 0; j < g.n; j++ {
		g.radix[j] = size
		size *= g.mult[j] + 1
	}
	g.full = size - 1
	return g
}

// groupsOf returns the groups a term of token mask m may stand for, one bit
// each.
func (g *tokenGroups) groupsOf(m uint32) uint32 {
	var out uint32
	for j := 0; j < g.n; j++ {
		if m&g.rep[j] != 0 {
			out |= 1 << j
		}
	}
	return out
}

// gevent is a position of a document and the token groups it may stand
// for (every term at that position together: a position serves one token).
type gevent struct {
	pos    uint32
	groups uint32
}

// mentionMatcher decides mentions for one query token list, document after
// document, reusing its tables. Its work is counted in steps (one per state
// looked at and per group tried from it).
type mentionMatcher struct {
	g     tokenGroups
	k     int
	last  []uint32 // by state: last position + 1 of its latest chain; 0 for none
	live  []bool   // by state: listed in states
	touch []uint32 // states whose last is set, to clear after a run
	list  []uint32 // live states of the run
	evs   []gevent
	steps int
}

// newMentionMatcher prepares the matcher of k tokens whose terms have the
// token masks masks.
func newMentionMatcher(masks []uint32, k int) *mentionMatcher {
	g := groupTokens(masks, k)
	return &mentionMatcher{g: g, k: k, last: make([]uint32, g.full+1), live: make([]bool, g.full+1)}
}

// mentions reports whether the tokens can each be given a distinct
// position from events such that, in position order, neighbouring ones are
// at most MaxGap apart. events may be reordered.
//
// It is a dynamic programme over positions: a chain is the count of tokens
// it used per group and its last position, and of the chains with the same
// counts only the one ending last is kept (it can be extended by every
// position the others can). Only runs of positions with neighbours at most
// MaxGap apart and at least k positions can hold a mention, so the
// programme runs on those alone. Its work is at most positions × states ×
// groups, where states is the product of (tokens in the group + 1): k+1
// for one word repeated k times.
func (m *mentionMatcher) mentions(events []event) bool {
	if len(events) < m.k {
		return false
	}
	slices.SortFunc(events, func(a, b event) int { return cmp.Compare(a.pos, b.pos) })
	m.evs = m.evs[:0]
	for _, e := range events {
		gm := m.g.groupsOf(e.mask)
		if n := len(m.evs); n > 0 && m.evs[n-1].pos == e.pos {
			m.evs[n-1].groups |= gm
			continue
		}
		m.evs = append(m.evs, gevent{pos: e.pos, groups: gm})
	}
	m.steps += len(m.evs)
	start := 0
	for i := 1; i <= len(m.evs); i++ {
		if i < len(m.evs) && m.evs[i].pos-m.evs[i-1].pos <= MaxGap {
			continue
		}
		if i-start >= m.k && m.chain(m.evs[start:i]) {
			return true
		}
		start = i
	}
	return false
}

// chain runs the programme over one run of positions.
func (m *mentionMatcher) chain(run []gevent) bool {
	defer m.clear()
	g := &m.g
	for _, e := range run {
		// Chains that end too far back can never grow again.
		n := 0
		for _, s := range m.list {
			if e.pos-(m.last[s]-1) <= MaxGap {
				m.list[n] = s
				n++
			} else {
				m.live[s] = false
			}
		}
		m.list = m.list[:n]
		// Grow the empty chain and every live one by this position. A state
		// reached here is set to end at e.pos at once: growing it further
		// by this same position gives only what growing its older chain
		// gives, which is allowed.
		for i := -1; i < n; i++ {
			s := uint32(0)
			if i >= 0 {
				s = m.list[i]
			}
			m.steps++
			for gm := e.groups; gm != 0; gm &= gm - 1 {
				j := bits.TrailingZeros32(gm)
				m.steps++
				if (s/g.radix[j])%(g.mult[j]+1) == g.mult[j] {
					continue
				}
				s2 := s + g.radix[j]
				if s2 == g.full {
					return true
				}
				if m.last[s2] == 0 {
					m.touch = append(m.touch, s2)
				}
				m.last[s2] = e.pos + 1
				if !m.live[s2] {
					m.live[s2] = true
					m.list = append(m.list, s2)
				}
			}
		}
	}
	return false
}

// clear resets the tables after a run.
func (m *mentionMatcher) clear() {
	for _, s := range m.touch {
		m.last[s] = 0
		m.live[s] = false
	}
	m.touch = m.touch[:0]
	m.list = m.list[:0]
}
