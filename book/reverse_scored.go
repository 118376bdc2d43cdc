package book

import (
	"cmp"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// scoredReverse is the reverse index of a book in scored mode: the words
// of each customer's scored check, posted under the keys scored mode pairs
// words by (engine.WordKeys: the word itself, its variant class, its
// sound key and consonant skeleton, the n-grams of the edit look-up), with
// each adjacent pair of words joined (Ali Akbar against Aliakbar) and the
// pieces of each word split (Aliakbar against Ali Akbar). It holds no word
// statistics, so it lasts as long as the book: which words of a customer
// a hit cannot do without (engine.ScoredStats.Essential) is asked of the
// serving index at each change set.
//
// A changed record finds the customers one of whose words, joined pairs
// or pieces may pair with one of its words (a piece with a pair of
// adjacent words); a customer is scored against it only when one of them
// is a unit its check cannot do without, and when the units the record
// reaches, at the similarity they pair at, could lift it to the threshold
// (engine.ScoredBound). Every scored hit passes both tests, so no match is
// lost (TestScoredCandidatesLoseNoMatch checks it against scoring every
// customer on every record).
type scoredReverse struct {
	n, fuzzy int
	d        *dict.Dict // customer words and joined pairs; the edit look-up
	// words: the dict ids of each customer's two token lists (raw, then
	// legal), from off[2i] to off[2i+1] and off[2i+1] to off[2i+2]. A
	// customer whose check cannot be made has none (bad).
	words []uint32
	off   []uint32
	bad   []int32
	// syllabic: the customers whose names are written in Han, Hangul or
	// kana, whose one-letter words are syllables (engine.SyllabicQuery).
	syllabic []bool
	// arabic has a bit per dict id, set for the words and joined words of
	// the customers whose names are written in Arabic script
	// (engine.ArabicQuery), which pair with Latin spellings more closely:
	// only they are read both ways (engine.RelatedToks).
	arabic []uint64
	// facts: each customer's filters and evidence beyond its names, which
	// bound it against each record on its own.
	facts []engine.ScoredFacts
	// maxEv: the most each customer's facts add to a record's logit
	// (ScoredFacts.MaxEvidence), read once for every change set's bounds.
	maxEv []float64
	// post: dict id -> entries (entry), for words and joined pairs.
	post [][]uint32
	// info: dict id -> what weighing the word needs beyond the statistics.
	info []engine.ScoredWordInfo
	// keyed: the dict ids by variant class, sound key and consonant
	// skeleton (classKey, keyOf 3 and 4).
	keyed keyIndex[uint32]
	// Splits of customer words in two pieces and in three
	// (engine.ScoredSplits3), each under the keys of its rarest piece, by
	// the number of that piece (buildPieces).
	pieces  [2]keyIndex[wordSplit]
	pieces3 [3]keyIndex[wordSplit3]
	// triple marks the dict ids that are three adjacent customer words
	// joined (Van Der Bilt as vanderbilt). Such an id is posted as the
	// three words, and reached at similarity 1: a record word pairing
	// with the three joined gains no more than the three words each paired
	// whole (engine.ScoredBound.Gain), so the bound holds without a unit
	// of its own.
	triple []bool
	// byFirst and byLast: at fuzzy 1, the joined pairs and triples that
	// are no word of a customer, which the edit look-up's bigram index
	// leaves out, by the dict id of their first word and of their last,
	// each list by length in runes (joinedEdits).
	byFirst, byLast map[uint32][]uint32
	// ess cuts the posting lists by the units that may be essential, for
	// the change sets' statistics (essential.go).
	ess essentialCut
}

// wordSplit is a customer word (dict id) cut in two pieces at byte offset at.
type wordSplit struct{ id, at uint32 }

// wordSplit3 is a customer word (dict id) cut in three pieces at byte
// offsets at1 and at2.
type wordSplit3 struct{ id, at1, at2 uint32 }

// An entry of a posting list: the customer, whether the word is of its
// legal list, whether it is a joined pair, and the position of the
// (first) word.
const (
	entryPos    = 0x1f
	entryLegal  = 1 << 5
	entryJoined = 1 << 6
	entryShift  = 7
)

// scoredLists is a customer's scored check as newScoredReverse indexes
// it: its two token lists, its facts, whether its names are syllabic; ok
// is false when the check cannot be made.
type scoredLists struct {
	raw, legal []string
	facts      engine.ScoredFacts
	ok         bool
	syllabic   bool
	arabic     bool
}

// checkLists returns the scored checks of customers as sc builds them.
func checkLists(customers []Customer, sc *batch.Screener) []scoredLists {
	ls := make([]scoredLists, len(customers))
	parallel(len(customers), max(1, runtime.GOMAXPROCS(0)), func(i int) {
		q, rej := sc.Query(customers[i].Row())
		if rej != nil {
			return
		}
		raw, legal, facts, err := engine.ScoredCheck(q)
		if err != nil {
			return
		}
		ls[i] = scoredLists{raw: raw, legal: legal, facts: facts, ok: true, syllabic: engine.SyllabicQuery(q.Names),
			arabic: engine.ArabicQuery(q.Names) || engine.ArabicQuery(q.SearchAll)}
	})
	return ls
}

// newScoredReverse indexes the customers' scored checks as sc builds
// them.
func newScoredReverse(customers []Customer, sc *batch.Screener) *scoredReverse {
	ls := checkLists(customers, sc)
	rv := &scoredReverse{n: len(customers), fuzzy: sc.Fuzzy, d: dict.New(),
		off: make([]uint32, 0, 2*len(customers)+1)}
	d := rv.d
	// intern adds a word or joined pair the first time it is seen, with
	// its keys; a word is noted for its pieces the first time it is seen
	// as a word.
	var split []bool
	var splitWords []uint32
	// single marks the ids that are a word of some customer; fuzzy those
	// that may pair within the edit radius (no legal form).
	var single, fuzzy []bool
	// joined: each joined pair's and triple's text, first word and last
	// word.
	var joined [][3]string
	var keyed []keyedSplit[uint32]
	intern := func(w string, isJoined bool) uint32 {
		n := d.Len()
		id := d.Intern(w)
		if d.Len() > n {
			rv.post = append(rv.post, nil)
			split = append(split, false)
			single = append(single, false)
			rv.triple = append(rv.triple, false)
			k, info := engine.ScoredWordKeysInfo(w)
			rv.info = append(rv.info, info)
			keyed = rv.key(keyed, id, k)
			fuzzy = append(fuzzy, !k.Legal)
		}
		if !isJoined {
			single[id] = true
		}
		if !isJoined && !split[id] {
			split[id] = true
			splitWords = append(splitWords, id)
		}
		return id
	}
	arabic := arabicCustomers(ls)
	rv.syllabic = make([]bool, len(ls))
	rv.facts = make([]engine.ScoredFacts, len(ls))
	rv.maxEv = make([]float64, len(ls))
	for i := range ls {
		rv.syllabic[i] = ls[i].syllabic
		rv.facts[i] = ls[i].facts
		rv.maxEv[i] = ls[i].facts.MaxEvidence()
		rv.off = append(rv.off, uint32(len(rv.words)))
		if !ls[i].ok {
			rv.bad = append(rv.bad, int32(i))
			rv.off = append(rv.off, uint32(len(rv.words)))
			continue
		}
		post := func(list []string, flag uint32) {
			for j, w := range list {
				id := intern(w, false)
				rv.words = append(rv.words, id)
				e := uint32(i)<<entryShift | flag | uint32(j)
				if p := rv.post[id]; len(p) == 0 || p[len(p)-1] != e {
					rv.post[id] = append(p, e)
				}
				// In a syllabic name a one-letter word is a syllable,
				// which Search joins as any other word.
				syl := ls[i].syllabic
				joins := func(w string) bool {
					k := engine.ScoredWordKeys(w)
					return !k.Optional || syl && !k.Legal
				}
				if j+1 < len(list) && joins(w) && joins(list[j+1]) {
					jid := intern(w+list[j+1], true)
					joined = append(joined, [3]string{d.Token(jid), w, list[j+1]})
					rv.post[jid] = append(rv.post[jid], e|entryJoined)
					if j+2 < len(list) && joins(list[j+2]) {
						tid := intern(w+list[j+1]+list[j+2], true)
						rv.triple[tid] = true
						joined = append(joined, [3]string{d.Token(tid), w, list[j+2]})
						for u := range uint32(3) {
							rv.post[tid] = append(rv.post[tid], e+u)
						}
					}
				}
			}
		}
		post(ls[i].raw, 0)
		rv.off = append(rv.off, uint32(len(rv.words)))
		if !slices.Equal(ls[i].raw, ls[i].legal) {
			post(ls[i].legal, entryLegal)
		}
		ls[i] = scoredLists{}
	}
	rv.off = append(rv.off, uint32(len(rv.words)))
	rv.markArabic(arabic)
	rv.keyed = newKeyIndex(keyed)
	rv.pieces, rv.pieces3 = buildPieces(splitWords, d.Token, rv.fuzzy)
	rv.indexEdits(single, fuzzy, joined)
	return rv
}

// arabicCustomers returns a bit per customer of ls, set for those whose
// names are written in Arabic script.
func arabicCustomers(ls []scoredLists) []uint64 {
	bits := make([]uint64, (len(ls)+63)/64)
	for i := range ls {
		if ls[i].arabic {
			bits[i/64] |= 1 << (i % 64)
		}
	}
	return bits
}

// markArabic sets rv.arabic for the dict ids posted for a customer with a
// bit set in custs (arabicCustomers): its words and joined words.
func (rv *scoredReverse) markArabic(custs []uint64) {
	rv.arabic = make([]uint64, (rv.d.Len()+63)/64)
	for id, p := range rv.post {
		for _, e := range p {
			if c := e >> entryShift; custs[c/64]&(1<<(c%64)) != 0 {
				rv.arabic[id/64] |= 1 << (id % 64)
				break
			}
		}
	}
}

// indexEdits puts the dict's words that may pair within the edit radius
// in its bigram index, and its joined pairs and triples too at fuzzy 2;
// at fuzzy 1 a joined pair or triple that is no word of a customer goes
// in byFirst and byLast instead (joinedEdits finds it there). joined
// holds each joined pair's and triple's text, first word and last word.
func (rv *scoredReverse) indexEdits(single, fuzzy []bool, joined [][3]string) {
	if rv.fuzzy == 0 {
		return
	}
	d := rv.d
	for id := range uint32(d.Len()) {
		if fuzzy[id] && (single[id] || rv.fuzzy != 1) {
			d.Index(id)
		}
	}
	if rv.fuzzy != 1 {
		return
	}
	rv.byFirst, rv.byLast = map[uint32][]uint32{}, map[uint32][]uint32{}
	for _, j := range joined {
		id, _ := d.ID(j[0])
		if single[id] || !fuzzy[id] {
			continue
		}
		first, _ := d.ID(j[1])
		last, _ := d.ID(j[2])
		rv.byFirst[first] = append(rv.byFirst[first], id)
		rv.byLast[last] = append(rv.byLast[last], id)
	}
	byRunes := func(a, b uint32) int { return cmp.Or(cmp.Compare(d.Runes(a), d.Runes(b)), cmp.Compare(a, b)) }
	for _, m := range []map[uint32][]uint32{rv.byFirst, rv.byLast} {
		for k, l := range m {
			slices.SortFunc(l, byRunes)
			m[k] = slices.Clip(slices.Compact(l))
		}
	}
}

// joinedEdits calls try with every joined pair or triple of byFirst and
// byLast within one edit of t (runes tr), as the bigram index's look-up
// would. One edit (an insertion, deletion, substitution or swap of two
// adjacent runes) of words w1 … wk written together either leaves w1 at
// the start of t, or leaves wk at its end, or swaps the last rune of w1
// with the first of w2 of a pair: of a triple it cannot touch both w1 and
// w3, since w2 lies between them. So the entries are those whose first
// word is a prefix of t, whose last word is a suffix of t, or that t is
// with two adjacent runes swapped, within one edit.
func (rv *scoredReverse) joinedEdits(t string, tr []rune, try func(uint32)) {
	d := rv.d
	n := len(tr)
	var buf []rune
	within := func(id uint32) bool {
		buf = buf[:0]
		for _, r := range d.Token(id) {
			buf = append(buf, r)
		}
		return dict.Distance(tr, buf, 1) <= 1
	}
	look := func(m map[uint32][]uint32, w string) {
		id, ok := d.ID(w)
		if !ok {
			return
		}
		l := m[id]
		if len(l) == 0 {
			return
		}
		k, _ := slices.BinarySearchFunc(l, n-1, func(id uint32, r int) int { return cmp.Compare(d.Runes(id), r) })
		for ; k < len(l) && d.Runes(l[k]) <= n+1; k++ {
			if within(l[k]) {
				try(l[k])
			}
		}
	}
	// t itself may be the first or last word (dragon against dragon 2).
	for i := range t {
		look(rv.byLast, t[i:])
		if i > 0 {
			look(rv.byFirst, t[:i])
		}
	}
	look(rv.byFirst, t)
	sw := slices.Clone(tr)
	for i := 1; i < n; i++ {
		sw[i-1], sw[i] = sw[i], sw[i-1]
		if id, ok := d.ID(string(sw)); ok && !d.Indexed(id) {
			try(id)
		}
		sw[i-1], sw[i] = sw[i], sw[i-1]
	}
}

// key returns keyed with dict id added under its word's pairing keys k.
func (rv *scoredReverse) key(keyed []keyedSplit[uint32], id uint32, k engine.WordKeys) []keyedSplit[uint32] {
	if k.Legal {
		return keyed
	}
	if k.Class != 0 {
		keyed = append(keyed, keyedSplit[uint32]{classKey(k.Class), id})
	}
	if rv.fuzzy == 0 {
		return keyed
	}
	if k.Sound != "" {
		keyed = append(keyed, keyedSplit[uint32]{keyOf(3, k.Sound), id})
	}
	if k.Skel != "" {
		keyed = append(keyed, keyedSplit[uint32]{keyOf(4, k.Skel), id})
	}
	return keyed
}

// wordIDs returns the dict ids of the token list (legal or raw) of
// customer i.
func (rv *scoredReverse) wordIDs(i int, legal bool) []uint32 {
	lo, hi := rv.off[2*i], rv.off[2*i+1]
	if legal {
		lo, hi = rv.off[2*i+1], rv.off[2*i+2]
		if lo == hi {
			return rv.wordIDs(i, false)
		}
	}
	return rv.words[lo:hi]
}

// weigher bounds customers under one change set's statistics, keeping
// the statistics of the words it has weighed (customers share most
// words): one per goroutine.
type weigher struct {
	st       *engine.ScoredStats
	minScore float64
	// stats: by dict id, of customers whose names are not syllabic,
	// shared by the change set's weighers (each word weighed once).
	stats []atomic.Pointer[engine.ScoredWordStat]
	buf   []engine.ScoredWordStat
	// bounds are the raw and legal bounds of the customer being looked
	// at, rewritten for the next.
	bounds [2]engine.ScoredBound
	// Scratch of recordsToScore, rewritten for each customer.
	cands []int32
	legal []bool
	units []uint64
	best  []float64
	touch touchMarks
}

// bound returns the bound of customer c's token list (legal or raw), in
// wg's bounds, valid until it bounds the next customer.
func (wg *weigher) bound(rv *scoredReverse, c int, legal bool) *engine.ScoredBound {
	wg.buf = wg.buf[:0]
	syllabic := rv.syllabic[c]
	for _, id := range rv.wordIDs(c, legal) {
		if !syllabic {
			if ws := wg.stats[id].Load(); ws != nil {
				wg.buf = append(wg.buf, *ws)
				continue
			}
		}
		ws := wg.stat(rv, id, syllabic)
		if !syllabic {
			wg.stats[id].Store(&ws)
		}
		wg.buf = append(wg.buf, ws)
	}
	b := &wg.bounds[0]
	if legal {
		b = &wg.bounds[1]
	}
	wg.st.BoundFactsInto(b, wg.buf, wg.minScore, rv.maxEv[c])
	return b
}

// stat returns the statistics of customer word id under wg's, of a
// customer whose names are syllabic or not: from the words' counts of the
// change set (rv.ess.now, by the word's number in rv.ess.words) when it
// has them, else looked up.
func (wg *weigher) stat(rv *scoredReverse, id uint32, syllabic bool) engine.ScoredWordStat {
	if now := rv.ess.now; now != nil {
		if k, ok := slices.BinarySearch(rv.ess.words, id); ok {
			return wg.st.WordStatDF(rv.d.Token(id), rv.info[id], syllabic, int(now[k]))
		}
	}
	return wg.st.WordStatOf(rv.d.Token(id), rv.info[id], syllabic)
}

// scoredPairsMarked returns, for each customer that may score a hit
// against one of the changed records under the word statistics st, the
// records to score it against (indices into changed, ascending), by
// customer index, ascending; minScore is the books' threshold (0: the
// default). marked has a bit per dict id, set for the customer words and joined pairs a changed word
// pairs with (or a changed pair of words with one of their splits): a
// word of the dict it leaves unset pairs with no word of the changed
// records (engine.ChangeSetScorer.SetPaired).
func (rv *scoredReverse) scoredPairsMarked(changed []*record.Record, st *engine.ScoredStats, minScore float64) (custs []int32, recs [][]int32, marked []uint64) {
	workers := max(1, runtime.GOMAXPROCS(0))
	cw := changedWordsOf(changed)
	// Each changed word's keys, computed once for its pairs and triples.
	rts := make([]*engine.ScoredTok, len(cw.toks))
	pks := make([]pieceKeys, len(cw.toks))
	parallel(len(cw.toks), workers, func(i int) {
		rts[i], pks[i] = engine.NewScoredTok(cw.toks[i]), pieceFindKeys(cw.toks[i], rv.fuzzy)
	})
	reach := map[uint32][]reached{}
	wp := rv.wordPartners(cw.toks, rts, workers, newTokCache(rv.d))
	pp := rv.pairPartners(&cw, rts, pks, workers)
	tp := rv.triplePartners(&cw, rts, pks, workers)
	addReach(reach, wp, cw.holders)
	addReach(reach, pp, cw.pairHolders)
	addReach(reach, tp, cw.tripleHolders)
	ids, lists := sortReach(reach, workers)
	rw := newRecordWords(changed, &cw, st, ids, wp, pp, tp, workers)
	if recordWordsHook != nil {
		recordWordsHook(rw, ids, wp)
	}
	marked = make([]uint64, (rv.d.Len()+63)/64)
	for _, id := range ids {
		marked[id/64] |= 1 << (id % 64)
	}
	rv.ess.mu.Lock()
	defer rv.ess.mu.Unlock()
	groups := rv.hitsByCustomer(ids, rv.candidates(ids, st, minScore, workers))
	out := make([][]int32, len(groups))
	weighers := make([]weigher, workers)
	stats := make([]atomic.Pointer[engine.ScoredWordStat], rv.d.Len())
	for w := range weighers {
		weighers[w] = weigher{st: st, minScore: minScore, stats: stats}
	}
	facts := make([]*engine.ScoredRecordFacts, len(changed))
	parallel(len(changed), workers, func(i int) { facts[i] = engine.NewScoredRecordFacts(changed[i]) })
	parallelWorkers(len(groups), workers, func(w, g int) {
		out[g] = rv.recordsToScore(groups[g], lists, facts, rw, &weighers[w])
	})
	rv.ess.now = nil // the next change set counts its own
	for g, keep := range out {
		if len(keep) > 0 {
			custs, recs = append(custs, groups[g][0].cust), append(recs, keep)
		}
	}
	return custs, recs, marked
}

// paired reports whether w, a customer word or joined pair of the dict,
// is marked in marked (of scoredPairsMarked): every one a changed word
// pairs with is. known is false for a word the dict does not hold.
func (rv *scoredReverse) paired(marked []uint64, w string) (pairs, known bool) {
	id, ok := rv.d.ID(w)
	if !ok {
		return false, false
	}
	return marked[id/64]&(1<<(id%64)) != 0, true
}

// changedWords are the changed records' distinct words and adjacent pairs
// of words (a customer's word split in two pairs with such a pair), and
// the records holding each (indices into changed, ascending).
type changedWords struct {
	toks        []string
	holders     [][]int32
	pairs       [][2]string
	pairHolders [][]int32
	// triples: three adjacent words, which a customer's word split in
	// three pairs with.
	triples       [][3]string
	tripleHolders [][]int32
	// tokID: the number of each word in toks.
	tokID map[string]int32
}

// changedWordsOf collects the words and pairs of words of changed.
func changedWordsOf(changed []*record.Record) changedWords {
	var cw changedWords
	tokID := map[string]int32{}
	cw.tokID = tokID
	pairID := map[[2]string]int32{}
	tripleID := map[[3]string]int32{}
	hold := func(h []int32, ri int) []int32 {
		if len(h) == 0 || h[len(h)-1] != int32(ri) {
			h = append(h, int32(ri))
		}
		return h
	}
	for ri, r := range changed {
		legal := r.EntityType != record.EntityIndividual
		for _, ns := range engine.NameStrings(r) {
			ts := normalize.RecordName(ns.Text, legal).Tokens
			for k, t := range ts {
				id, ok := tokID[t]
				if !ok {
					id = int32(len(cw.toks))
					tokID[t] = id
					cw.toks = append(cw.toks, t)
					cw.holders = append(cw.holders, nil)
				}
				cw.holders[id] = hold(cw.holders[id], ri)
				if k+1 < len(ts) {
					p := [2]string{t, ts[k+1]}
					id, ok := pairID[p]
					if !ok {
						id = int32(len(cw.pairs))
						pairID[p] = id
						cw.pairs = append(cw.pairs, p)
						cw.pairHolders = append(cw.pairHolders, nil)
					}
					cw.pairHolders[id] = hold(cw.pairHolders[id], ri)
				}
				if k+2 < len(ts) {
					p := [3]string{t, ts[k+1], ts[k+2]}
					id, ok := tripleID[p]
					if !ok {
						id = int32(len(cw.triples))
						tripleID[p] = id
						cw.triples = append(cw.triples, p)
						cw.tripleHolders = append(cw.tripleHolders, nil)
					}
					cw.tripleHolders[id] = hold(cw.tripleHolders[id], ri)
				}
			}
		}
	}
	return cw
}

// partner is a customer word (dict id) a record word, or pair of words,
// may pair with, and at what similarity.
type partner struct {
	id  uint32
	sim float64
}

// wordPartners returns the customer words each of toks (whose keys are
// rts) may pair with. ct holds the customer words' keys for the change set.
func (rv *scoredReverse) wordPartners(toks []string, rts []*engine.ScoredTok, workers int, ct *tokCache) [][]partner {
	d, fuzzy := rv.d, rv.fuzzy
	partners := make([][]partner, len(toks))
	// Each goroutine marks the ids it has tried for a word with the
	// word's number (plus one): no map to allocate or clear per word.
	tried := make([][]uint32, workers)
	parallelWorkers(len(toks), workers, func(w, i int) {
		t, rt := toks[i], rts[i]
		if tried[w] == nil {
			tried[w] = make([]uint32, d.Len())
		}
		seen, mark := tried[w], uint32(i)+1
		var found []partner
		try := func(id uint32) {
			if seen[id] == mark {
				return
			}
			seen[id] = mark
			related := engine.RelatedToksLatin
			if rv.arabic[id/64]&(1<<(id%64)) != 0 {
				related = engine.RelatedToks
			}
			if sim, ok := related(ct.get(id), rt, fuzzy); ok {
				if rv.triple[id] {
					sim = 1 // see triple
				}
				found = append(found, partner{id, sim})
			}
		}
		if id, ok := d.ID(t); ok {
			try(id)
		}
		k := engine.ScoredWordKeys(t)
		if !k.Legal {
			if k.Class != 0 {
				rv.keyed.each(classKey(k.Class), try)
			}
			if fuzzy > 0 {
				d.Lookup(t, fuzzy, func(id uint32, _ int) { try(id) })
				if rv.byFirst != nil {
					rv.joinedEdits(t, []rune(t), try)
				}
				if k.Sound != "" {
					rv.keyed.each(keyOf(3, k.Sound), try)
				}
				if k.Skel != "" {
					rv.keyed.each(keyOf(4, k.Skel), try)
				}
			}
		}
		partners[i] = found
	})
	return partners
}

// tokCache holds the keys of the customer words (by dict id) a change set
// compares, each computed once and shared by the change set's goroutines:
// a customer word is compared with many of its words.
type tokCache struct {
	d    *dict.Dict
	toks []atomic.Pointer[engine.ScoredTok]
}

func newTokCache(d *dict.Dict) *tokCache {
	return &tokCache{d: d, toks: make([]atomic.Pointer[engine.ScoredTok], d.Len())}
}

// get returns the keys of customer word id. Two goroutines may compute
// the same keys at once; either copy serves.
func (c *tokCache) get(id uint32) *engine.ScoredTok {
	if t := c.toks[id].Load(); t != nil {
		return t
	}
	t := engine.NewScoredTok(c.d.Token(id))
	c.toks[id].Store(t)
	return t
}

// pairPartners returns the customer words each pair of words may pair
// with, split in two pieces. rts and pks are the keys of cw.toks.
func (rv *scoredReverse) pairPartners(cw *changedWords, rts []*engine.ScoredTok, pks []pieceKeys, workers int) [][]partner {
	d, fuzzy := rv.d, rv.fuzzy
	out := make([][]partner, len(cw.pairs))
	relaters := make([]engine.ScoredSplitRelater, workers)
	sps := make([][]wordSplit, workers)
	parallelWorkers(len(cw.pairs), workers, func(w, i int) {
		t := [2]int32{cw.tokID[cw.pairs[i][0]], cw.tokID[cw.pairs[i][1]]}
		sps[w] = sps[w][:0]
		for p := range rv.pieces {
			rv.pieces[p].find(pks[t[p]], func(sp wordSplit) { sps[w] = append(sps[w], sp) })
		}
		out[i] = splitPartners(sps[w], func(sp wordSplit) uint32 { return sp.id }, func(sp wordSplit) (float64, bool) {
			return relaters[w].RelatedAtToks(d.Token(sp.id), int(sp.at), rts[t[0]], rts[t[1]], fuzzy)
		})
	})
	return out
}

// triplePartners returns the customer words that each three adjacent
// words may pair with, split in three pieces. rts and pks are the keys
// of cw.toks.
func (rv *scoredReverse) triplePartners(cw *changedWords, rts []*engine.ScoredTok, pks []pieceKeys, workers int) [][]partner {
	d, fuzzy := rv.d, rv.fuzzy
	out := make([][]partner, len(cw.triples))
	relaters := make([]engine.ScoredSplitRelater, workers)
	sps := make([][]wordSplit3, workers)
	parallelWorkers(len(cw.triples), workers, func(w, i int) {
		tr := cw.triples[i]
		t := [3]int32{cw.tokID[tr[0]], cw.tokID[tr[1]], cw.tokID[tr[2]]}
		sps[w] = sps[w][:0]
		for p := range rv.pieces3 {
			rv.pieces3[p].find(pks[t[p]], func(sp wordSplit3) { sps[w] = append(sps[w], sp) })
		}
		out[i] = splitPartners(sps[w], func(sp wordSplit3) uint32 { return sp.id }, func(sp wordSplit3) (float64, bool) {
			return relaters[w].RelatedAt3(d.Token(sp.id), int(sp.at1), int(sp.at2), rts[t[0]], rts[t[1]], rts[t[2]], fuzzy)
		})
	})
	return out
}

// splitPartners relates each distinct split of sps (relate) and returns
// the customer words (id) of those that pair, each once at the highest
// similarity of its splits.
func splitPartners[S comparable](sps []S, id func(S) uint32, relate func(S) (float64, bool)) []partner {
	checked := map[S]bool{}
	best := map[uint32]int{} // dict id -> its index in found
	var found []partner
	for _, sp := range sps {
		if checked[sp] {
			continue
		}
		checked[sp] = true
		sim, ok := relate(sp)
		if !ok {
			continue
		}
		if j, seen := best[id(sp)]; seen {
			found[j].sim = max(found[j].sim, sim)
			continue
		}
		best[id(sp)] = len(found)
		found = append(found, partner{id(sp), sim})
	}
	return found
}

// addReach adds to reach the records (hs, by word) that reach each
// customer word of ps.
func addReach(reach map[uint32][]reached, ps [][]partner, hs [][]int32) {
	for i, p := range ps {
		for _, pt := range p {
			l := reach[pt.id]
			for _, r := range hs[i] {
				l = append(l, reached{r, pt.sim})
			}
			reach[pt.id] = l
		}
	}
}

// sortReach returns the customer words reached, ascending, and aligned
// with them their records, sorted by record, once each at its best
// similarity.
// The lists are sorted on workers goroutines: a change set of 10,000
// records reaches about a hundred thousand customer words, and sorting
// their lists on one was a serial phase of it.
func sortReach(reach map[uint32][]reached, workers int) (ids []uint32, lists [][]reached) {
	ids = make([]uint32, 0, len(reach))
	for id := range reach {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	lists = make([][]reached, len(ids))
	for i, id := range ids {
		lists[i] = reach[id]
	}
	parallel(len(lists), workers, func(i int) {
		l := lists[i]
		slices.SortFunc(l, func(a, b reached) int { return cmp.Or(cmp.Compare(a.rec, b.rec), cmp.Compare(b.sim, a.sim)) })
		lists[i] = slices.CompactFunc(l, func(a, b reached) bool { return a.rec == b.rec })
	})
	return ids, lists
}

// unitHit is a customer unit reached: the customer, its entry without the
// customer, and the word reached (an index into the words sortReach
// returns).
type unitHit struct {
	cust int32
	e    uint8 // entryLegal | entryJoined | position
	word uint32
}

// unit returns whether h is of the customer's legal-form spelling, and
// the unit's position (joined units from 32).
func (h unitHit) unit() (legal bool, unit int) {
	unit = int(h.e & entryPos)
	if h.e&entryJoined != 0 {
		unit += 32
	}
	return h.e&entryLegal != 0, unit
}

// hitsByCustomer returns every customer unit the words ids reach, of the
// customers with a bit set in cand, grouped by customer, customers
// ascending. The units are placed by a counting
// sort on the customer: a comparison sort of the million units a quiet day
// reaches in a large book was a serial tail of the change set.
func (rv *scoredReverse) hitsByCustomer(ids []uint32, cand []uint64) [][]unitHit {
	// start[c+1] counts the units of customer c, then is where they start.
	start := make([]int32, rv.n+1)
	n := 0
	for _, id := range ids {
		for _, e := range rv.post[id] {
			if c := e >> entryShift; cand[c/64]&(1<<(c%64)) != 0 {
				start[c+1]++
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	groups := 0
	for c := 1; c <= rv.n; c++ {
		if start[c] > 0 {
			groups++
		}
		start[c] += start[c-1]
	}
	hits := make([]unitHit, n)
	next := start[:rv.n]
	for k, id := range ids {
		for _, e := range rv.post[id] {
			c := e >> entryShift
			if cand[c/64]&(1<<(c%64)) == 0 {
				continue
			}
			hits[next[c]] = unitHit{int32(c), uint8(e & (1<<entryShift - 1)), uint32(k)}
			next[c]++
		}
	}
	// next[c] is now the end of customer c's units.
	out := make([][]unitHit, 0, groups)
	lo := int32(0)
	for c := range rv.n {
		if hi := next[c]; hi > lo {
			out = append(out, hits[lo:hi])
			lo = hi
		}
	}
	return out
}

// recordsToScore returns the records one customer (its units reached, hs)
// is scored against: those that reach one of its essential units, pass
// its filters, and whose units reached, with the evidence the record's
// facts give the customer, could lift it to the threshold. facts are the
// changed records' facts.
//
// The units each candidate record reaches are gathered in one pass over
// the units' records (a merge of two ascending lists, or a binary search
// per candidate when a unit's list is much the longer), and a record that
// could not reach the threshold even with the most evidence the
// customer's facts can give is dropped before its evidence is weighed.
// A record that passes is kept only when one of its name strings could
// also pay for its words that pair with none of the customer's units
// (rw).
func (rv *scoredReverse) recordsToScore(hs []unitHit, reach [][]reached, facts []*engine.ScoredRecordFacts, rw *recordWords, wg *weigher) []int32 {
	c := int(hs[0].cust)
	var bounds [2]*engine.ScoredBound
	bound := func(legal bool) *engine.ScoredBound {
		k := 0
		if legal {
			k = 1
		}
		if bounds[k] == nil {
			bounds[k] = wg.bound(rv, c, legal)
		}
		return bounds[k]
	}
	cands := wg.cands[:0]
	for _, h := range hs {
		legal, unit := h.unit()
		if bound(legal).Essential&(1<<unit) == 0 {
			continue
		}
		for _, r := range reach[h.word] {
			cands = append(cands, r.rec)
		}
	}
	wg.cands = cands
	if len(cands) == 0 {
		return nil
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	n := len(cands)
	// A customer whose legal-form spelling differs pairs it with every
	// record but an individual's (engine.ScoredCheck).
	hasLegal := rv.off[2*c+1] != rv.off[2*c+2]
	wg.legal = slices.Grow(wg.legal[:0], n)[:n]
	for i, r := range cands {
		wg.legal[i] = hasLegal && facts[r].LegalForms()
	}
	wg.noteUnits(hs, reach, cands)
	var keep []int32
	f := &rv.facts[c]
	marked := false
	for i, r := range cands {
		units := wg.units[i]
		if units == 0 {
			continue
		}
		b := bound(wg.legal[i])
		if units&b.Essential == 0 {
			continue
		}
		gain, covered, whole := unitsGain(b, units, wg.best[64*i:64*i+64])
		// The evidence adds at most maxEv (ScoredFacts.Evidence), and
		// more evidence only lowers the target: a record that misses it
		// with maxEv misses it with its own.
		if !b.ReachesRecord(gain, covered, whole, rv.maxEv[c]) {
			continue
		}
		add, ok := f.Evidence(facts[r])
		if !ok || !b.ReachesRecord(gain, covered, whole, add) {
			continue
		}
		if !marked {
			wg.touch.mark(rw, hs)
			marked = true
		}
		if rw.reaches(b, &wg.touch, r, gain, covered, whole, add) {
			keep = append(keep, r)
		}
	}
	return keep
}

// noteUnits writes into wg.units[i] the units of hs of candidate i's
// spelling (wg.legal[i]) that record cands[i] reaches, and into
// wg.best[64i+u] the best similarity it reaches unit u at. cands are
// ascending: each unit's records are merged with them, or when the
// unit's list is much the longer, searched for each.
func (wg *weigher) noteUnits(hs []unitHit, reach [][]reached, cands []int32) {
	n := len(cands)
	wg.units = slices.Grow(wg.units[:0], n)[:n]
	clear(wg.units)
	wg.best = slices.Grow(wg.best[:0], 64*n)[:64*n]
	clear(wg.best)
	note := func(i int, legal bool, unit int, sim float64) {
		if wg.legal[i] != legal {
			return
		}
		wg.units[i] |= 1 << unit
		b := &wg.best[64*i+unit]
		*b = max(*b, sim)
	}
	for _, h := range hs {
		legal, unit := h.unit()
		rs := reach[h.word]
		if len(rs) <= 8*n {
			i := 0
			for _, x := range rs {
				for i < n && cands[i] < x.rec {
					i++
				}
				if i == n {
					break
				}
				if cands[i] == x.rec {
					note(i, legal, unit, x.sim)
				}
			}
			continue
		}
		for i, r := range cands {
			if k, ok := slices.BinarySearchFunc(rs, r, func(x reached, r int32) int { return cmp.Compare(x.rec, r) }); ok {
				note(i, legal, unit, rs[k].sim)
			}
		}
	}
}

// unitsGain returns the most the units (bits of b.Essential) reached at
// similarities best (by unit) gain in all, the words they cover, and the
// words reached whole (at similarity 1), as ScoredBound.ReachesRecord
// reads them.
func unitsGain(b *engine.ScoredBound, units uint64, best []float64) (gain float64, covered, whole uint64) {
	for rest := units; rest != 0; rest &= rest - 1 {
		u := bits.TrailingZeros64(rest)
		gain += b.Gain(u, best[u])
		if u < 32 {
			covered |= 1 << u
			if best[u] >= 1 {
				whole |= 1 << u
			}
		} else {
			covered |= 3 << (u - 32)
		}
	}
	return gain, covered, whole
}

// reached is a changed record reaching a customer's word, at the best
// similarity of its words to it.
type reached struct {
	rec int32
	sim float64
}

// parallelWorkers calls fn for every index below n on workers goroutines,
// with the number of the goroutine (below workers) for its own state. The
// goroutines take the next index as they finish one, so that a few costly
// indices (a common word, a customer many records reach) do not leave one
// goroutine working alone at the end.
func parallelWorkers(n, workers int, fn func(w, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(w, i)
			}
		})
	}
	wg.Wait()
}
