package engine

import (
	"cmp"
	"slices"
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
func ScoredWords(q Query) (raw, legal []string, err error) {
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
// fuzzy in scored mode.
func ScoredRelated(q, r string, fuzzy int) bool {
	a, b := newTokInfo(q), newTokInfo(r)
	_, ok := relate(&a, &b, fuzzy)
	return ok
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

// Essential returns a mark per word of words (a token list of ScoredWords,
// at most 64 words) of the words a hit at minScore (0: the default) cannot
// do without: a name string pairing none of them, through a word, a joined
// pair or a split piece, scores below minScore whatever else it pairs. The
// bounds are those of a search's candidates (each word's best possible
// pair, by the weight of the word itself, since no partner weighs more
// than the word it pairs), so a record that pairs no essential word of a
// query is never one of its hits, here or in ScoreUnindexed.
func (s *ScoredStats) Essential(words []string, minScore float64) uint64 {
	m := min(len(words), 64)
	if m == 0 {
		return 0
	}
	if minScore == 0 {
		minScore = DefaultMinScore
	}
	n := s.v.live
	lambda := prior(n)
	toks := make([]tokInfo, m)
	w := make([]float64, m)
	miss := make([]float64, m)
	ub := make([]float64, m)
	for j := range m {
		toks[j] = newTokInfo(words[j])
		df := s.v.tokenDF(s.vs, words[j])
		w[j] = wordWeight(df, n)
		miss[j] = queryMiss(words[j], df, w[j], lambda)
		// No partner weighs more than the word itself (weighPartners
		// counts the word among the partners at least as close; a word
		// the index does not hold weighs the most a word can), nor does a
		// split, whose weight is at most the word's.
		best := pairValue(w[j], 1)
		if toks[j].optional {
			best = optionalValue(w[j])
		}
		ub[j] = max(-miss[j], best)
	}
	for j := 0; j+1 < m; j++ {
		if toks[j].optional || toks[j+1].optional {
			continue
		}
		v := pairValue(w[j]+w[j+1], joinSim) // catWeight: at most the two words' weights
		if v < 0 {
			v /= 2
		}
		ub[j], ub[j+1] = max(ub[j], v), max(ub[j+1], v)
	}
	target := logitFloor(minScore) - model.Intercept + lambda
	gain := make([]float64, m)
	for j := range m {
		target += miss[j]
		gain[j] = ub[j] + miss[j]
	}
	order := make([]int, m)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(gain[b], gain[a]) })
	rem := make([]float64, m+1)
	for i := m - 1; i >= 0; i-- {
		rem[i] = rem[i+1] + gain[order[i]]
	}
	// A word is essential while the words after it could still reach the
	// target; and, while every essential word is optional, also while
	// they could reach it with the completeness bonus, which a match
	// pairing none of the essential words may still earn.
	bonus := maxBonus(lambda)
	var mask uint64
	allOptional := true
	for i := 0; i < m; i++ {
		if rem[i] < target && !(allOptional && rem[i]+bonus >= target) {
			break
		}
		j := order[i]
		mask |= 1 << j
		allOptional = allOptional && toks[j].optional
	}
	return mask
}
