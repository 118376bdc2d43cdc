package engine

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/query"
)

// This file exports what a reverse index of scored-mode queries needs (the
// book's customers, indexed so that a change set's records find the
// customers they may score against): the words a query pairs, the keys
// under which a record word may pair with them, and which of them a hit
// cannot do without under an index's word statistics.

// ScoredWords returns the token lists scored mode pairs for q: raw, for
// individual records, and legal (legal forms canonicalised), for every
// other record; at most the words scored mode pairs. It validates q as
// Search does.
func ScoredWords(q query.Query) (raw, legal []string, err error) {
	c, err := compile(q)
	if err != nil {
		return nil, nil, err
	}
	if c.onlyLegal {
		return nil, nil, nil
	}
	return c.raw[0][:min(len(c.raw[0]), maxScoredWords)], c.legal[0][:min(len(c.legal[0]), maxScoredWords)], nil
}

// WordKeys are the keys under which scored mode may pair a query word with
// a record word (docs/MATCHING.md "Scored mode"): two words pair only when
// they are equal, share a variant class, lie within the edit radius, or
// (at fuzzy 1 and 2) share a sound key or a consonant skeleton.
type WordKeys struct {
	Class       int32 // given-name variant class, 0 for none
	Sound, Skel string
	// Legal words pair only when equal; Digit words only when equal or
	// within the edit radius; Optional words (a legal form, an initial)
	// are never joined or split.
	Legal, Digit, Optional bool
}

// ScoredWordKeys returns the pairing keys of word w.
func ScoredWordKeys(w string) WordKeys {
	t := newTokInfo(w)
	return WordKeys{Class: t.class, Sound: t.sound, Skel: t.skel, Legal: t.legal, Digit: t.digit, Optional: t.optional}
}

// ScoredRelated reports whether query word q pairs with record word r at
// fuzzy in scored mode, and at what similarity.
func ScoredRelated(q, r string, fuzzy int) (sim float64, ok bool) {
	a, b := newTokInfo(q), newTokInfo(r)
	p, ok := relate(&a, &b, fuzzy)
	return p.sim, ok
}

// ScoredSplits calls fn with the two pieces of every split of query word
// w that scored mode pairs with two adjacent record words (Aliakbar
// against Ali Akbar); a piece pairs only when equal, of one variant class
// or (at fuzzy 1 and 2) of one sound key.
func ScoredSplits(w string, fn func(a, b string)) {
	if t := newTokInfo(w); t.optional || t.digit {
		return
	}
	splitPieces(w, fn)
}

// ScoredSplitRelated reports whether query word w pairs, split in two
// pieces, with the adjacent record words r1 and r2 at fuzzy: each piece
// pairs with its record word and the pieces together agree enough (a
// split edge of scored mode); sim is the best such split's similarity.
func ScoredSplitRelated(w, r1, r2 string, fuzzy int) (sim float64, ok bool) {
	t1, t2 := newTokInfo(r1), newTokInfo(r2)
	ScoredSplits(w, func(a, b string) {
		ta, tb := newTokInfo(a), newTokInfo(b)
		pa, oka := relatePiece(&ta, &t1, fuzzy)
		if !oka {
			return
		}
		pb, okb := relatePiece(&tb, &t2, fuzzy)
		if !okb {
			return
		}
		sp := scoredSplit{ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b)}
		if v := sp.sim(pa, pb); v >= model.JoinMinSim {
			sim, ok = max(sim, v), true
		}
	})
	return sim, ok
}

// ScoredStats are the word statistics of one state of an index, as scored
// mode weighs words with them: held until Release.
type ScoredStats struct {
	v  *view
	vs *viewScored
}

// ScoredStats returns the index's current word statistics; call Release
// when done.
func (ix *Index) ScoredStats() *ScoredStats {
	v := ix.acquire()
	return &ScoredStats{v: v, vs: v.scored()}
}

// Release lets the index drop the state s holds.
func (s *ScoredStats) Release() { s.v.release() }

// ScoredBound bounds what a query's words can score against a record,
// without the look-ups of a search: by units, bit j (j < 32) for word j
// paired on its own (as a whole or split in two pieces), bit 32+j for
// words j and j+1 paired joined with one record word.
//
// No partner of a word weighs more than the word itself (weighPartners
// counts the word among the partners at least as close; a partner a hit
// record holds is held by one record at least), a split no more than the
// word, and a joined pair no more than its two words together: a unit
// paired at similarity sim gains at most Gain(unit, sim) over leaving its
// words unpaired, and a name string whose units gain less than the
// target in all (Reaches) scores below the threshold.
type ScoredBound struct {
	// Essential marks the units a hit cannot do without: a name string
	// that pairs none of them scores below the threshold whatever else it
	// pairs. Units are taken by gain, the highest first, while those left
	// could still reach the target; and since a complete match (every
	// word paired) earns a bonus, every unit of one word too, so that a
	// complete match pairs a marked unit.
	Essential           uint64
	target, bonus, wmax float64
	w, miss             []float64
	optional            uint64
	m                   int
}

// SyllabicQuery reports whether a query of these names is written in Han,
// Hangul or kana, where a word of one letter is a syllable and not an
// optional initial: Bound needs it to weigh the words as Search does.
func SyllabicQuery(names string) bool { return syllabicQuery(names) }

// Bound returns the bound of words (a token list of ScoredWords of a query
// whose names are syllabic or not, SyllabicQuery) at minScore (0: the
// default) under the statistics s. The words weigh as Search weighs them
// (rarity in the list, at most their share of a culture), and the target
// is lowered by the most the evidence beyond the name (dob, gender,
// citizenship) can add to any query, so that no hit the evidence lifts is
// bounded out.
func (s *ScoredStats) Bound(words []string, syllabic bool, minScore float64) *ScoredBound {
	m := min(len(words), maxScoredWords)
	if minScore == 0 {
		minScore = query.DefaultMinScore
	}
	n := s.v.live
	lambda := prior(n)
	b := &ScoredBound{m: m, wmax: wordWeight(1, n), bonus: maxBonus(lambda), w: make([]float64, m), miss: make([]float64, m),
		target: logitFloor(minScore) - maxEvidenceAny - model.Intercept + lambda}
	if m == 0 {
		return b
	}
	for j := range m {
		t := newQueryTokInfo(words[j], syllabic)
		df := s.v.tokenDF(s.vs, t.text)
		b.w[j] = tokenWeight(&t, df, n)
		b.miss[j] = queryMiss(&t, df, b.w[j], lambda)
		b.target += b.miss[j]
		if t.optional {
			b.optional |= 1 << j
		}
	}
	type unit struct {
		bit  int
		gain float64
	}
	units := make([]unit, 0, 2*m)
	for j := range m {
		units = append(units, unit{bit: j, gain: b.Gain(j, 1)})
		if j+1 < m && b.optional&(3<<j) == 0 {
			units = append(units, unit{bit: 32 + j, gain: b.Gain(32+j, 1)})
		}
	}
	slices.SortStableFunc(units, func(x, y unit) int { return cmp.Compare(y.gain, x.gain) })
	rem := 0.0
	for _, u := range units {
		rem += u.gain
	}
	for _, u := range units {
		if rem < b.target {
			break
		}
		b.Essential |= 1 << u.bit
		rem -= u.gain
	}
	if rem+b.bonus >= b.target {
		// A complete match pairs every word that is not optional: all
		// the units of the rarest such word are marked.
		k := -1
		for j := range m {
			if k < 0 || b.optional&(1<<j) == 0 && (b.optional&(1<<k) != 0 || b.w[j] > b.w[k]) {
				k = j
			}
		}
		b.Essential |= 1 << k
		if k > 0 {
			b.Essential |= 1 << (32 + k - 1)
		}
		if k+1 < m {
			b.Essential |= 1 << (32 + k)
		}
	}
	return b
}

// Gain is the most unit (a bit of Essential) paired at similarity sim
// gains over leaving its words unpaired (0 at least).
func (b *ScoredBound) Gain(unit int, sim float64) float64 {
	if unit < 32 {
		j := unit
		v := pairValue(b.w[j], sim)
		if b.optional&(1<<j) != 0 {
			v = optionalValue(b.w[j])
		}
		return max(v, -b.miss[j]) + b.miss[j]
	}
	j := unit - 32
	if j+1 >= b.m {
		return 0
	}
	v := pairValue(min(b.wmax, b.w[j]+b.w[j+1]), sim*joinSim) // catValue
	return max(v+b.miss[j]+b.miss[j+1], 0)
}

// Reaches reports whether units gaining gain in all, and pairing the
// words covered (bit j for word j), could reach the threshold: gain
// reaches the target, or the words covered are all those that are not
// optional and gain reaches it with the completeness bonus.
func (b *ScoredBound) Reaches(gain float64, covered uint64) bool {
	if gain >= b.target {
		return true
	}
	all := uint64(1)<<b.m - 1
	return covered|b.optional&all == all && gain+b.bonus >= b.target
}

// ScoredPreparer prepares scored queries against one state of an index,
// keeping the partners it looks up for each word, so that the many
// queries of a book, which share most of their words (Mohammed, Ali,
// Ltd), look each word up once: the look-ups are the dear part of
// preparing a query. It is not safe for concurrent use (give each
// goroutine its own); Release it when done.
type ScoredPreparer struct {
	ix   *Index
	v    *view
	vs   *viewScored
	memo map[string]*globalPartners
}

// maxPreparerWords bounds the words a ScoredPreparer keeps: past it, it
// forgets them and starts again.
const maxPreparerWords = 200_000

// ScoredPreparer returns a preparer over the index's current state.
func (ix *Index) ScoredPreparer() *ScoredPreparer {
	v := ix.acquire()
	return &ScoredPreparer{ix: ix, v: v, vs: v.scored(), memo: map[string]*globalPartners{}}
}

// Release lets the index drop the state p holds.
func (p *ScoredPreparer) Release() { p.v.release() }

// Prepare is PrepareScoredQuery against the preparer's state of the index.
func (p *ScoredPreparer) Prepare(q query.Query) (*ScoredQuery, error) {
	if q.Match != query.Scored {
		return nil, &query.ParamError{Param: "match", Msg: "ScoreUnindexed scores match=scored checks only"}
	}
	c, err := compile(q)
	if err != nil {
		return nil, err
	}
	out := &ScoredQuery{ix: p.ix, c: c}
	if c.onlyLegal {
		return out, nil
	}
	if len(p.memo) > maxPreparerWords {
		p.memo = map[string]*globalPartners{}
	}
	out.raw = newTextQuery(p.v.prepareScored(p.vs, c, c.raw[0], p.memo))
	out.legal = out.raw
	if !slices.Equal(c.raw[0], c.legal[0]) {
		out.legal = newTextQuery(p.v.prepareScored(p.vs, c, c.legal[0], p.memo))
	}
	return out, nil
}
