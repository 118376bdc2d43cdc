package engine

import (
	"math"
	"slices"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/query"
)

// This file exports what a reverse index of scored-mode queries needs (the
// book's customers, indexed so that a change set's records find the
// customers they may score against): the words a query pairs, the keys
// under which a record word may pair with them, and which of them a hit
// cannot do without under an index's word statistics.

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

// ScoredSplits3 calls fn with the three pieces of every split of query
// word w that scored mode pairs with three adjacent record words
// (Vanderbilt against Van der Bilt), the pieces pairing as ScoredSplits'
// do.
func ScoredSplits3(w string, fn func(a, b, c string)) {
	if t := newTokInfo(w); t.optional || t.digit {
		return
	}
	splitPieces3(w, fn)
}

// ScoredSplitRelater reports whether a query word pairs with a record
// word (RelatedWord) or, split in two pieces, with two adjacent record
// words (RelatedAt), keeping the keys of
// the words and pieces it has seen: a change set's pairs of words are
// tried against the same customer words many times, and a word's keys
// (sound key, skeleton, variant class) cost more than the comparison. Its
// zero value is ready; it is not safe for concurrent use.
type ScoredSplitRelater struct {
	toks map[string]*tokInfo
}

// maxRelaterWords bounds the words a ScoredSplitRelater keeps: past it,
// it forgets them and starts again.
const maxRelaterWords = 1 << 18

func (sr *ScoredSplitRelater) tok(w string) *tokInfo {
	if t, ok := sr.toks[w]; ok {
		return t
	}
	if sr.toks == nil || len(sr.toks) >= maxRelaterWords {
		sr.toks = map[string]*tokInfo{}
	}
	t := newTokInfo(w)
	sr.toks[w] = &t
	return &t
}

// RelatedAtToks reports whether query word w, split at byte offset at,
// pairs with the adjacent record words r1 and r2 at fuzzy (w[:at] against
// r1, w[at:] against r2, the pieces together agreeing enough: a split
// edge of scored mode), and at what similarity. The split is one
// ScoredSplits gives, the one a reverse index posted w under; the record
// words' keys are computed once (NewScoredTok) for the many customer
// words tried.
func (sr *ScoredSplitRelater) RelatedAtToks(w string, at int, r1, r2 *ScoredTok, fuzzy int) (sim float64, ok bool) {
	a, b := w[:at], w[at:]
	pa, oka := relatePiece(sr.tok(a), &r1.t, fuzzy)
	if !oka {
		return 0, false
	}
	pb, okb := relatePiece(sr.tok(b), &r2.t, fuzzy)
	if !okb {
		return 0, false
	}
	sp := scoredSplit{ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b)}
	if v := sp.sim(pa, pb, partner{}); v >= model.JoinMinSim {
		return v, true
	}
	return 0, false
}

// RelatedAt3 is RelatedAtToks for query word w split at byte offsets at1 and
// at2 (a split ScoredSplits3 gives), against the adjacent record words
// r1, r2 and r3, whose keys are computed (NewScoredTok).
func (sr *ScoredSplitRelater) RelatedAt3(w string, at1, at2 int, r1, r2, r3 *ScoredTok, fuzzy int) (sim float64, ok bool) {
	a, b, c := w[:at1], w[at1:at2], w[at2:]
	pa, oka := relatePiece(sr.tok(a), &r1.t, fuzzy)
	if !oka {
		return 0, false
	}
	pb, okb := relatePiece(sr.tok(b), &r2.t, fuzzy)
	if !okb {
		return 0, false
	}
	pc, okc := relatePiece(sr.tok(c), &r3.t, fuzzy)
	if !okc {
		return 0, false
	}
	sp := scoredSplit{ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b), rc: utf8.RuneCountInString(c)}
	if v := sp.sim(pa, pb, pc); v >= model.JoinMinSim {
		return v, true
	}
	return 0, false
}

// relatedEither reports whether query word qt pairs with record word rt
// at fuzzy in scored mode, and at what similarity at most: a word of a
// query in Arabic script may pair closer (arabicSim), so the higher of
// the two readings is given, a bound for a query in any script.
func relatedEither(qt, rt *tokInfo, fuzzy int) (sim float64, ok bool) {
	p, ok := relate(qt, rt, fuzzy)
	if qt.legal || qt.digit {
		return p.sim, ok
	}
	qa := *qt
	qa.arabic = true
	if pa, oka := relate(&qa, rt, fuzzy); oka && (!ok || pa.sim > p.sim) {
		return pa.sim, true
	}
	return p.sim, ok
}

// ScoredTok is a word with the keys scored mode pairs it by (its letters,
// sound key, skeleton, variant class), computed once: a change set
// compares each of its words with many customer words, and a customer
// word with many of its words.
type ScoredTok struct{ t tokInfo }

// NewScoredTok returns word w with its keys.
func NewScoredTok(w string) *ScoredTok { return &ScoredTok{t: newTokInfo(w)} }

// RelatedToks is RelatedWord of query word q and record word r whose keys
// are computed: whether they pair at fuzzy, and at what similarity at
// most (the higher of the readings of a query in any script and in
// Arabic script).
func RelatedToks(q, r *ScoredTok, fuzzy int) (sim float64, ok bool) {
	return relatedEither(&q.t, &r.t, fuzzy)
}

// RelatedToksLatin is RelatedToks of a query word of a query not written
// in Arabic script (ArabicQuery): its one reading, which is how such a
// query pairs the word, at the cost of one comparison where RelatedToks
// makes two.
func RelatedToksLatin(q, r *ScoredTok, fuzzy int) (sim float64, ok bool) {
	p, ok := relate(&q.t, &r.t, fuzzy)
	return p.sim, ok
}

// ScoredStats are the word statistics of one state of an index, as scored
// mode weighs words with them: held until Release.
type ScoredStats struct {
	v  *view
	vs *viewScored
}

// ScoredWordStat is what a ScoredBound needs of one word of a query under
// the statistics: its weight, the cost of leaving it unpaired, and
// whether it is optional. A book's customers share most words, so a
// caller weighing many of them keeps these by word.
type ScoredWordStat struct {
	w, miss  float64
	optional bool
}

// WordStat returns the statistics of word, of a query whose names are
// syllabic or not (SyllabicQuery).
func (s *ScoredStats) WordStat(word string, syllabic bool) ScoredWordStat {
	t := newQueryTokInfo(word, syllabic)
	df := s.v.tokenDF(s.vs, t.text)
	w := tokenWeight(&t, df, s.v.live)
	return ScoredWordStat{w: w, miss: queryMiss(&t, df, w, prior(s.v.live)), optional: t.optional}
}

// ScoredWordInfo is what WordStat reads of a word beyond the statistics
// (its share of a culture's people, whether it is optional): a reverse
// index of checks computes it once for each of its words.
type ScoredWordInfo struct {
	share           float64
	optional, legal bool
}

// ScoredWordKeysInfo returns ScoredWordKeys of w and its ScoredWordInfo.
func ScoredWordKeysInfo(w string) (WordKeys, ScoredWordInfo) {
	t := newTokInfo(w)
	return WordKeys{Class: t.class, Sound: t.sound, Skel: t.skel, Legal: t.legal, Digit: t.digit, Optional: t.optional},
		ScoredWordInfo{share: t.share, optional: t.optional, legal: t.legal}
}

// WordStatOf is WordStat of word, whose ScoredWordInfo is info.
func (s *ScoredStats) WordStatOf(word string, info ScoredWordInfo, syllabic bool) ScoredWordStat {
	return s.WordStatDF(word, info, syllabic, s.v.tokenDF(s.vs, word))
}

// WordStatDF is WordStatOf of a word that df live records hold under s
// (as ScoredDFs counts them): a caller that has counted its words under s
// spares a look-up of each word in every segment.
func (s *ScoredStats) WordStatDF(word string, info ScoredWordInfo, syllabic bool, df int) ScoredWordStat {
	t := tokInfo{text: word, share: info.share, optional: info.optional && (!syllabic || info.legal)} // newQueryTokInfo
	return wordStatAt(&t, df, s.v.live)
}

// wordStatAt is the statistics of query word t held by df of n live
// records.
func wordStatAt(t *tokInfo, df, n int) ScoredWordStat {
	w := tokenWeight(t, df, n)
	return ScoredWordStat{w: w, miss: queryMiss(t, df, w, prior(n)), optional: t.optional}
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
	// base is the target before the evidence, which lowers it by evMax.
	base, evMax float64
	lambda      float64 // the prior of the statistics
	w, miss     []float64
	optional    uint64
	m           int
}

// SyllabicQuery reports whether a query of these names is written in Han,
// Hangul or kana, where a word of one letter is a syllable and not an
// optional initial: WordStat needs it to weigh the words as Search does.
func SyllabicQuery(names string) bool { return syllabicQuery(names) }

// ArabicQuery reports whether a query of these names is written in Arabic
// script, whose romanised words pair with Latin spellings more closely
// (RelatedToks reads a word both ways; RelatedToksLatin serves the words
// of other queries).
func ArabicQuery(names string) bool { return arabicQuery(names) }

// Bound returns the bound of the words whose statistics (WordStat) are ws
// (a token list of ScoredCheck of a query) at minScore (0: the default)
// under the statistics s. The words weigh as Search weighs them (rarity
// in the list, at most their share of a culture), and the target is
// lowered by the most the evidence beyond the name (dob, gender,
// citizenship) can add to any query, so that no hit the evidence lifts is
// bounded out.
func (s *ScoredStats) Bound(ws []ScoredWordStat, minScore float64) *ScoredBound {
	b := &ScoredBound{}
	s.BoundInto(b, ws, minScore)
	return b
}

// BoundInto is Bound written into b, whose slices it reuses: for a caller
// that bounds many customers one after another and keeps none.
func (s *ScoredStats) BoundInto(b *ScoredBound, ws []ScoredWordStat, minScore float64) {
	s.boundInto(b, ws, minScore, maxEvidenceAny, false)
}

// BoundFactsInto is BoundInto for a check whose evidence adds at most
// evMax (ScoredFacts.MaxEvidence), as Search bounds it: the target is
// lowered by evMax only, and Essential also marks the unit of the check's
// rarest word that is not optional, which a pairing of the very same words
// (scored 1 whatever its logit) pairs on its own.
func (s *ScoredStats) BoundFactsInto(b *ScoredBound, ws []ScoredWordStat, minScore, evMax float64) {
	s.boundInto(b, ws, minScore, evMax, true)
}

func (s *ScoredStats) boundInto(b *ScoredBound, ws []ScoredWordStat, minScore, evMax float64, markExact bool) {
	m := min(len(ws), maxScoredWords)
	if minScore == 0 {
		minScore = query.DefaultMinScore
	}
	n := s.v.live
	lambda := prior(n)
	*b = ScoredBound{m: m, wmax: wordWeight(1, n), bonus: maxBonus(lambda), w: slices.Grow(b.w[:0], m)[:m], miss: slices.Grow(b.miss[:0], m)[:m],
		base: logitFloor(minScore) - model.Intercept + lambda, evMax: evMax, lambda: lambda}
	if m == 0 {
		b.target = b.base - evMax
		return
	}
	for j := range m {
		b.w[j], b.miss[j] = ws[j].w, ws[j].miss
		b.base += b.miss[j]
		if ws[j].optional {
			b.optional |= 1 << j
		}
	}
	b.target = b.base - evMax
	type unit struct {
		bit  int
		gain float64
	}
	var buf [2 * maxScoredWords]unit
	units := buf[:0]
	for j := range m {
		units = append(units, unit{bit: j, gain: b.Gain(j, 1)})
		if j+1 < m && b.optional&(3<<j) == 0 {
			units = append(units, unit{bit: 32 + j, gain: b.Gain(32+j, 1)})
		}
	}
	// Highest gain first, ties in order: an insertion sort, as stable as
	// slices.SortStableFunc and cheaper on the few units of a check, which
	// a change set bounds for every customer it reaches.
	for i := 1; i < len(units); i++ {
		for k := i; k > 0 && units[k].gain > units[k-1].gain; k-- {
			units[k], units[k-1] = units[k-1], units[k]
		}
	}
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
	k := -1 // the rarest word that is not optional (else the first)
	for j := range m {
		if k < 0 || b.optional&(1<<j) == 0 && (b.optional&(1<<k) != 0 || b.w[j] > b.w[k]) {
			k = j
		}
	}
	if markExact {
		b.Essential |= 1 << k
	}
	if rem+b.bonus >= b.target {
		// A complete match pairs every word that is not optional: all
		// the units of the rarest such word are marked.
		b.Essential |= 1 << k
		if k > 0 {
			b.Essential |= 1 << (32 + k - 1)
		}
		if k+1 < m {
			b.Essential |= 1 << (32 + k)
		}
	}
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
	return b.reaches(gain, covered, b.target)
}

func (b *ScoredBound) reaches(gain float64, covered uint64, target float64) bool {
	if gain >= target {
		return true
	}
	all := uint64(1)<<b.m - 1
	return covered|b.optional&all == all && gain+b.bonus >= target
}

// ReachesRecord is Reaches for one record whose evidence adds add to the
// logit (ScoredFacts.Evidence, at most the bound's evMax), in place of the
// most any record could add. whole marks the words (bit j for word j) the
// record pairs on their own at similarity 1: when it holds every word and
// the evidence is not against the record, a pairing of the very same
// words may score 1 whatever its logit, so the record is kept.
func (b *ScoredBound) ReachesRecord(gain float64, covered, whole uint64, add float64) bool {
	all := uint64(1)<<b.m - 1
	if add >= 0 && b.m > 0 && whole&all == all {
		return true
	}
	return b.reaches(gain, covered, b.base-add)
}

// ScoredTolerance is how far word statistics may move from those a bound
// was made under while MayBeEssential still holds: the live records n by
// at most Live in ln(n+1), and each word's count of records f by at most
// DF in ln(f+1). A word no record holds stays one, since DF is below ln 2.
type ScoredTolerance struct{ DF, Live float64 }

// Live returns the live records of the statistics' index state.
func (s *ScoredStats) Live() int { return s.v.live }

// TokenDF returns the live records holding word in a name string, the
// count WordStat weighs it by.
func (s *ScoredStats) TokenDF(word string) int { return s.v.tokenDF(s.vs, word) }

// Within reports whether counts moved from f0 to f1 stay within tolerance.
func (tol ScoredTolerance) Within(f0, f1 int) bool {
	return math.Abs(math.Log1p(float64(f1))-math.Log1p(float64(f0))) <= tol.DF
}

// WithinLive reports whether live records moved from n0 to n1 stay within
// tolerance.
func (tol ScoredTolerance) WithinLive(n0, n1 int) bool {
	return math.Abs(math.Log1p(float64(n1))-math.Log1p(float64(n0))) <= tol.Live
}

// MayBeEssential returns the units (bits as Essential's) that may be
// essential in the bound of the same words, minScore and evidence under
// any statistics within tol of those b was made under: a unit it leaves
// unset is not in Essential of any such bound. Units past the bound's
// words are set.
//
// Under such statistics a word's weight w moves by at most
// dw = DF + Live, its cost unpaired (QueryMiss + QueryMissRare·w/λ) by
// dm = |QueryMissRare|·(DF + 2·Live)/(λ − Live), a unit's gain by at most
// dg = 2·(dw + dm) (a joined pair's two words) and the target by
// dt = Live + m·dm. A unit is essential when the units ranked at or after
// it (by gain, highest first) gain the target in all; after the move
// those are among the units whose gain was at most dg·2 above its own,
// each gaining at most dg more. The units of the words that may be the
// rarest (Essential marks them for an exact or complete match) are kept.
func (b *ScoredBound) MayBeEssential(tol ScoredTolerance) uint64 {
	return b.mayBeEssential(tol, 1)
}

// mayBeEssential is MayBeEssential with its margins dg and dt times scale
// (1 in use; a test shows less loses essential units).
func (b *ScoredBound) mayBeEssential(tol ScoredTolerance, scale float64) uint64 {
	m := b.m
	keep := ^uint64(0)
	if m == 0 {
		return keep
	}
	lo := b.lambda - tol.Live
	if lo <= 0.1 || tol.DF < 0 || tol.Live < 0 || tol.DF >= math.Ln2 {
		return keep
	}
	dw := tol.DF + tol.Live
	dm := math.Abs(model.QueryMissRare) * (tol.DF + 2*tol.Live) / lo
	dg := scale * 2 * max(joinSim, 1) * (dw + dm)
	dt := scale * (tol.Live + float64(m)*dm)
	var gains [2 * maxScoredWords]float64
	var bitsOf [2 * maxScoredWords]int
	units := 0
	for j := range m {
		gains[units], bitsOf[units] = b.Gain(j, 1), j
		units++
		if j+1 < m && b.optional&(3<<j) == 0 {
			gains[units], bitsOf[units] = b.Gain(32+j, 1), 32+j
			units++
		}
	}
	// The words that may be the rarest that is not optional (the first
	// when all are).
	rarest := uint64(1)
	top := math.Inf(-1)
	for j := range m {
		if b.optional&(1<<j) == 0 {
			top = max(top, b.w[j])
		}
	}
	if !math.IsInf(top, -1) {
		rarest = 0
		for j := range m {
			if b.optional&(1<<j) == 0 && b.w[j] >= top-2*scale*dw {
				rarest |= 1 << j
			}
		}
	}
	for u := range units {
		bit := bitsOf[u]
		if bit < 32 && rarest&(1<<bit) != 0 || bit >= 32 && rarest&(3<<(bit-32)) != 0 {
			continue
		}
		sum := 0.0
		for v := range units {
			if gains[v] <= gains[u]+2*dg {
				sum += gains[v] + dg
			}
		}
		if sum+dt < b.target {
			keep &^= 1 << bit
		}
	}
	return keep
}

// RecordWordMiss returns what record word w costs a record's logit when
// no word of a check pairs with it, under the statistics (the cost a
// change set's scorer charges it), whether it is optional, and whether
// the index knows it (a word it does not know pairs by other rules, so a
// caller takes it as paired).
func (s *ScoredStats) RecordWordMiss(w string) (miss float64, optional, known bool) {
	n := s.v.live
	return recordMiss(w, recordWeight(w, s.v.tokenDF(s.vs, w), n), prior(n)), optionalWord(w), s.v.knows(w)
}

// ReachesName is ReachesRecord for one name string of the record, of
// which untouched words pair with no unit of the check (no edge touches
// them), extra of them not optional, costing missed in all
// (RecordWordMiss): every pairing pays missed; a name string with a word
// left unpaired is no exact match; and it earns the completeness term
// only with no word left that is not optional, or one for a person's name
// (the near-complete share). A record reaches the threshold only through
// a name string that does.
func (b *ScoredBound) ReachesName(gain float64, covered, whole uint64, add, missed float64, untouched, extra int, person bool) bool {
	all := uint64(1)<<b.m - 1
	if untouched == 0 && add >= 0 && b.m > 0 && whole&all == all {
		return true
	}
	if model.Substitute < 0 {
		// The swap of one word left on each side would take back some
		// of the cost: it is not counted.
		missed = 0
	}
	target := b.base - add + missed
	if gain >= target {
		return true
	}
	bonus := extra == 0 || extra == 1 && person
	return bonus && covered|b.optional&all == all && gain+b.bonus >= target
}

// ScoredDFs counts the live records holding each of a fixed list of
// words in successive states of one index, as TokenDF counts them. A
// segment it has read before is read by the words' ids in it, kept from
// then; a segment published since is read through its own words. A
// state costs an array read per word and segment and a look-up per word
// of its new segments, not a look-up of every word in every segment. It
// is not safe for concurrent use.
type ScoredDFs struct {
	words map[string]int32 // word -> its number
	n     int
	// seen: by segment read before, the id in it of each word (by
	// number), noWordID for a word it does not hold.
	seen map[*Segment][]uint32
}

const noWordID = ^uint32(0)

// NewScoredDFs returns a counter of words, numbered by their place.
func NewScoredDFs(words []string) *ScoredDFs {
	d := &ScoredDFs{words: make(map[string]int32, len(words)), n: len(words), seen: map[*Segment][]uint32{}}
	for i, w := range words {
		d.words[w] = int32(i)
	}
	return d
}

// Counts writes into dfs, by word number, each word's count of live
// records under the statistics s (len(dfs) is the number of words).
func (d *ScoredDFs) Counts(s *ScoredStats, dfs []int32) {
	clear(dfs)
	cur := make(map[*Segment]bool, len(s.v.segs))
	for i := range s.v.segs {
		seg := s.v.segs[i].Segment
		cur[seg] = true
		ids, ok := d.seen[seg]
		if !ok {
			ids = make([]uint32, d.n)
			for k := range ids {
				ids[k] = noWordID
			}
			for id := range uint32(seg.Len()) {
				if k, ok := d.words[seg.Token(id)]; ok {
					ids[k] = id
				}
			}
			d.seen[seg] = ids
		}
		live := s.vs.live[i]
		for k, id := range ids {
			if id != noWordID {
				dfs[k] += int32(live[id])
			}
		}
	}
	for seg := range d.seen {
		if !cur[seg] {
			delete(d.seen, seg)
		}
	}
}
