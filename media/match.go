package media

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
)

// ParamError is a request parameter that breaks the rules of docs/API.md
// "Media"; the server answers it with 400, the CLI with exit code
// 2. It is the engine's type, so that code handling check errors handles
// media errors too.
type ParamError = engine.ParamError

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
}

// compileName validates text (the search_all parameter) and fuzzy for a
// check of kind. Individuals are matched on their words as written;
// entities and searches also on their legal forms canonicalised, so every
// spelling of a legal form finds every other.
func compileName(text string, kind engine.Kind, fuzzy int) (*nameQuery, error) {
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
	if kind != engine.Individual {
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
		docs, err := c.matchVariant(ctx, cache, v, q.fuzzy)
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

func (c *Corpus) matchVariant(ctx context.Context, cache map[string]*decodedTerm, toks []string, fuzzy int) ([]uint32, error) {
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
		if mentions(events, len(toks)) {
			out = append(out, doc)
		}
	}
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

// mentions reports whether the k query tokens can each be given a distinct
// position from events such that, in position order, neighbouring ones are
// at most MaxGap apart. It grows chains of positions left to right; a chain
// is its set of tokens and its last position, and dies once the next event
// is more than MaxGap past it.
func mentions(events []event, k int) bool {
	if len(events) == 0 {
		return false
	}
	sort.Slice(events, func(a, b int) bool { return events[a].pos < events[b].pos })
	full := uint32(1)<<k - 1
	type chain struct {
		mask uint32
		last uint32
	}
	var chains, grown []chain
	for _, e := range events {
		n := 0
		for _, ch := range chains {
			if e.pos-ch.last <= MaxGap {
				chains[n] = ch
				n++
			}
		}
		chains = chains[:n]
		grown = grown[:0]
		for m := e.mask; m != 0; m &= m - 1 {
			bit := m & -m
			if bit == full {
				return true
			}
			grown = append(grown, chain{bit, e.pos})
			for _, ch := range chains {
				if ch.mask&bit != 0 || ch.last >= e.pos {
					continue
				}
				nm := ch.mask | bit
				if nm == full {
					return true
				}
				grown = append(grown, chain{nm, e.pos})
			}
		}
		for _, g := range grown {
			if !slices.Contains(chains, g) {
				chains = append(chains, g)
			}
		}
	}
	return false
}
