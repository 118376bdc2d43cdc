package engine

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
)

// This file answers scored-mode checks from the index. Candidates come from
// the dictionary, never from a scan of the records: each query word's
// partners (the tokens relate accepts) are found by exact, variant-class,
// edit-radius, sound-key and skeleton look-ups, and the name strings that
// hold a partner are read from the posting lists.
//
// Which name strings need scoring follows from the model (the MaxScore
// method of text retrieval). Each query word j can add at most ub_j to the
// logit (its best pair) and costs miss_j when unpaired, so a name string
// pairing only the words of a set S scores at most
//
//	Σ_{j∈S} (ub_j + miss_j) − Σ_j miss_j + c − λ
//
// when it is not a complete match. Sorting the words by that gain, the
// longest prefix whose gains stay under the threshold's logit is
// "non-essential": a name string pairing none but those words cannot reach
// the threshold, so only name strings holding a partner of an essential
// word are scored. When every word is non-essential, only complete
// matches (every query word paired, which earns the completeness term) can
// reach it, and those are in the intersection of every word's name
// strings. Nothing above the threshold is left out, and common words that
// cannot make a hit together never cost a scan of their posting lists.

// scoredSplit is one way of cutting a query word in two pieces (or three:
// c not nil) that pair with two (three) adjacent record words.
type scoredSplit struct {
	a, b, c    map[uint32]partner
	ra, rb, rc int // runes of the pieces
}

// scoredQuery is one token list of a query prepared for the index.
type scoredQuery struct {
	fuzzy  int
	n      int // live records
	lambda float64
	words  []tokInfo
	w      []float64            // weight of each word: of the records holding it
	miss   []float64            // cost of each word left unpaired
	opt    uint64               // optional words (tokInfo.optional)
	part   []map[uint32]partner // partners of each word
	cat    []map[uint32]partner // partners of words j and j+1 joined
	cat3   []map[uint32]partner // partners of words j, j+1 and j+2 joined
	splits [][]scoredSplit
	ub     []float64
	// refs maps a token to every way it pairs with the query, so that a
	// name string costs one look-up per word.
	refs map[uint32][]unitRef
	// units lists, for each word, the tokens through which a name string
	// can pair it, ascending; unitGain holds, aligned, the most a name
	// string holding that token can gain from the word (see
	// scoredCandidates).
	units    [][]uint32
	unitGain [][]float64
	// evMax is the most the evidence beyond the name can add to a
	// record's logit (maxEvidence).
	evMax float64
	// exactLogit is the logit of a name string of the very same words as
	// the query, or -Inf when a word has no partner of the same word.
	exactLogit float64
}

// hitFloor is the least logit at which a name string can be a hit at
// minScore: logitFloor, or just under exactLogit when that is lower.
// scoreOf scores the very same words 1 whatever their logit, and their
// logit is low in a list of a few records or for the commonest names; a
// search pruned at logitFloor alone would drop an exact name. The
// candidate search prunes at logitFloor and adds exactCandidates.
func (sq *scoredQuery) hitFloor(minScore float64) float64 {
	f := logitFloor(minScore)
	if math.IsInf(sq.exactLogit, -1) {
		return f // no name string holds the very same words
	}
	return min(f, sq.exactLogit-1e-9)
}

// exactCandidates returns, ascending, the name strings of as many words
// as the query that hold the very same word for each query word: the only
// ones that can be the very same words. They are looked up only when
// exactLogit is under the threshold's logit, which the candidate search
// prunes at.
func (ss *scoredSeg) exactCandidates(sq *scoredQuery) []uint32 {
	if math.IsInf(sq.exactLogit, -1) {
		return nil // a word has no partner of the same word
	}
	lists := make([][]uint32, 0, len(sq.words))
	for j := range sq.words {
		var held []uint32 // the segment's own list, or a merged copy
		n := 0
		for id, p := range sq.part[j] {
			if p.kind != kindExact {
				continue
			}
			if n == 0 {
				held = ss.postings(id)
			} else {
				held = mergeUnion(nil, held, ss.postings(id))
			}
			n++
		}
		lists = append(lists, held)
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return cmp.Compare(len(a), len(b)) })
	cur := lists[0]
	for _, l := range lists[1:] {
		if len(cur) == 0 {
			return nil
		}
		cur = Intersect(cur, l, nil)
	}
	var out []uint32 // not in place: cur may be the segment's memory
	for _, ns := range cur {
		if len(ss.nameWords(ns)) == len(sq.words) {
			out = append(out, ns)
		}
	}
	return out
}

// unitRef says that a token is a partner of word j (unitWord), of words j
// and j+1 joined (unitCat), of words j to j+2 joined (unitCat3), or of the
// first or second piece of split s of word j.
type unitRef struct {
	unit uint8
	j, s int16
	p    partner
}

const (
	unitWord uint8 = iota
	unitCat
	unitPieceA
	unitPieceB
	unitCat3
)

// scoredBest is the best name string of one record so far.
type scoredBest struct {
	score float64
	sc    score
	slot  uint16
	ns    uint32
	sel   recordSel
	// ev is the name string's evaluation (before inScript), and its
	// pairing is scoredScratch.pairs[pair:pair+npair]: a hit's reason
	// reads them instead of scoring the name string again.
	ev    evaluation
	pair  int32
	npair int8
}

// scoredScratch is the reusable state of one scored search.
type scoredScratch struct {
	ps        pairSearch
	sh        nameShape
	edges     []edge
	kMiss     []float64
	acc, acc2 []float64
	cnt, cnt2 []uint8
	has       []bool
	lists     [][]uint32
	arena     []uint32
	arenaG    []float64
	constG    []float64
	held      []float64
	bufA      []uint32
	bufB      []uint32
	bufC      []uint32
	// pairs holds the pairings of the name strings kept in a search's
	// best (scoredBest.pair); pairsOld those before rescoreInScript.
	pairs, pairsOld []edge
	memo            nameMemo
	// sink keeps what warm read, so that its loads stay.
	sink uint32
	// bests holds the best name strings of a chunk of hits read ahead
	// (warmHits): here rather than on the stack, where 6 KB would make a
	// new goroutine's stack grow.
	bests [warmChunk]scoredBest
	// best is the best name string of each record a search keeps
	// (scoreCandidates).
	best bestSet
	// drop marks the records rescoreInScript removes from best.
	drop []bool
	// script keeps the comparisons in the query's script of the names
	// rescoreInScript and scoredResult read.
	script scriptMemo
}

// keepPairing stores the pairing scr.ps.best holds as b's.
func (scr *scoredScratch) keepPairing(b *scoredBest) {
	b.pair, b.npair = int32(len(scr.pairs)), int8(len(scr.ps.best))
	scr.pairs = append(scr.pairs, scr.ps.best...)
}

// pairing returns the pairing keepPairing stored as b's.
func (scr *scoredScratch) pairing(b *scoredBest) []edge {
	return scr.pairs[b.pair : b.pair+int32(b.npair)]
}

var scoredPool = sync.Pool{New: func() any { return new(scoredScratch) }}

// scoredSeg is one segment of a view as a scored search reads it: its
// postings and name strings, and the global weight of each of its tokens.
type scoredSeg struct {
	*segView
	keys *segKeys
	df   []uint32 // token id → live records of the whole view holding it
	// words and wordsN are the view's record-word costs of this segment
	// (viewScored.words) and the live records they were weighed over.
	words  []atomic.Uint64
	wordsN int
}

// maxScoredCandidates caps the name strings one scored query scores:
// about half a second of a core (a variable for the tests). The candidates are those the model's
// bounds leave (words that cannot lift a name string to min_score are not
// scanned, names too short to pair the query are skipped); a query with
// more is refused with a ParamError before any of them is scored beyond
// the cap, never answered in part, so no hit is ever dropped silently.
var maxScoredCandidates = 200_000

// scoredVariant is one token list of a query (the raw or the legal-form
// spelling) prepared for every segment of a view.
type scoredVariant struct {
	sel  recordSel
	segs []*scoredQuery // by segment
}

// searchScored answers a scored-mode check. Like SearchContext it gives
// up once ctx is done (checked between look-ups and every few hundred
// candidates), and a heavy query (by its words, or by the postings its
// words reach once looked up) first waits for an admission slot, without
// holding the index.
//
// Partners and weights are found for the whole view, so that a record
// scores the same in whichever segment it lies; the candidates of each
// segment are then read from its own postings, through the partners'
// token ids there. The view is taken once, so every step reads the same
// state of the index.
func (ix *Index) searchScored(ctx context.Context, c *compiled) (*Result, error) {
	adm := ix.admission()
	slot := func() {}
	heavy := distinctWords(c) >= adm.MaxWords
	if heavy {
		var err error
		if slot, err = adm.acquire(ctx); err != nil {
			return nil, err
		}
	}
	defer func() { slot() }()
	v, segs, variants, err := ix.admitScored(ctx, c, adm, heavy, &slot)
	if err != nil {
		return nil, err
	}
	defer v.release()
	scr := scoredPool.Get().(*scoredScratch)
	defer scoredPool.Put(scr)
	defer scr.script.forget()
	best, scored, err := scoreCandidates(ctx, c, segs, variants, scr)
	if err != nil {
		return nil, err
	}
	qs := queryScript(c.text)
	if qs != nil && best.len() > 0 {
		if err := v.rescoreInScript(c, segs, variants, best, qs, scr); err != nil {
			return nil, err
		}
	}
	return v.scoredResult(c, segs, variants, best, qs, scr, scored)
}

// admitScored takes a view and prepares the query's variants on it. A
// query heavy by the postings its words reach (and not yet holding a
// slot: heavy false) releases the view, waits for a slot of its cost,
// stores the slot's release in *slot and looks up again, since the index
// may have changed meanwhile. A failed wait leaves *slot as it was; the
// caller releases the view returned.
func (ix *Index) admitScored(ctx context.Context, c *compiled, adm *admission, heavy bool, slot *func()) (*view, []scoredSeg, []scoredVariant, error) {
	for {
		v := ix.acquire()
		segs, variants, cost := v.scoredVariants(c)
		if err := ctx.Err(); err != nil {
			v.release()
			return nil, nil, nil, fmt.Errorf("search: %w", err)
		}
		if heavy || !adm.heavyCost(cost) {
			return v, segs, variants, nil
		}
		v.release()
		release, err := adm.acquireByCost(ctx, cost)
		if err != nil {
			return nil, nil, nil, err
		}
		*slot, heavy = release, true
	}
}

// scoredVariants prepares the query's token lists for every segment of
// v: one list for every record, or the raw one for individuals and the
// legal-form one for the others when they differ. cost is the length of
// the posting lists their units reach.
func (v *view) scoredVariants(c *compiled) (segs []scoredSeg, variants []scoredVariant, cost int) {
	vs := v.scored()
	segs = make([]scoredSeg, len(v.segs))
	for i := range v.segs {
		segs[i] = scoredSeg{segView: &v.segs[i], keys: vs.keys[i], df: vs.global[i], words: vs.words[i], wordsN: vs.n}
	}
	memo := map[string]*globalPartners{}
	add := func(words []string, sel recordSel) {
		gq := v.prepareScored(vs, c, words, memo)
		sv := scoredVariant{sel: sel, segs: make([]*scoredQuery, len(segs))}
		for i := range segs {
			sq := gq.local(i)
			for j := range sq.units {
				cost += segs[i].postingSize(sq.units[j])
			}
			sv.segs[i] = sq
		}
		variants = append(variants, sv)
	}
	if slices.Equal(c.raw[0], c.legal[0]) {
		add(c.raw[0], anyRecord)
	} else {
		add(c.raw[0], individualsOnly)
		add(c.legal[0], legalOnly)
	}
	return segs, variants, cost
}

// scoreCandidates scores the candidates of every segment and variant
// that pass the check's filters and keeps each record's best name string
// at min_score or more (key: segment << 32 | ordinal), in scr.best, which
// it returns. scored counts the name strings scored. A query with more
// than maxScoredCandidates candidates is refused before they are scored.
func scoreCandidates(ctx context.Context, c *compiled, segs []scoredSeg, variants []scoredVariant, scr *scoredScratch) (best *bestSet, scored int, err error) {
	best = &scr.best
	best.reset()
	scr.pairs = scr.pairs[:0]
	ticks, considered := 0, 0
	// Without dob, gender or citizenship in the query the evidence is
	// none, and the record's facts need not be read.
	weighs := c.hasDOB || c.gender != "" || c.cit != ""
	for si := range segs {
		ss := &segs[si]
		srcOK := ss.sourceMask(c)
		for _, vr := range variants {
			sq := vr.segs[si]
			cands := ss.scoredCandidates(sq, c.minScore, scr)
			scr.memo.reset()
			floor := logitFloor(c.minScore)
			var exact []uint32 // scored down to hitFloor, which is lower
			if sq.exactLogit < floor {
				exact = ss.exactCandidates(sq)
				cands = mergeUnion(nil, cands, exact)
			}
			if considered += len(cands); considered > maxScoredCandidates {
				return nil, 0, &query.ParamError{Param: "names", Msg: fmt.Sprintf("more than %d name strings could score above min_score %g: add words, or raise min_score", maxScoredCandidates, c.minScore)}
			}
			var ords [warmChunk]uint32
			best.startRun()
			for i, ns := range cands {
				if i%warmChunk == 0 {
					chunk := cands[i:min(i+warmChunk, len(cands))]
					if warmAhead {
						scr.sink += ss.warm(chunk, &ords)
					} else {
						for k, ns := range chunk {
							ords[k] = ss.nsRec[ns]
						}
					}
				}
				if ticks++; ticks%ctxCheckEvery == 0 {
					if err := ctx.Err(); err != nil {
						return nil, 0, fmt.Errorf("search: %w", err)
					}
				}
				ord := ords[i%warmChunk]
				if ss.dead(ord) || !ss.selects(vr.sel, ord) || !ss.passes(c, srcOK, ord) {
					continue
				}
				scored++
				var evd evidence
				if weighs {
					evd = weighEvidence(c, ss.facts(c, ord))
				}
				f := floor
				if _, ok := slices.BinarySearch(exact, ns); ok {
					f = sq.hitFloor(c.minScore)
				}
				cand, ok := ss.scoreCandidateIn(sq, ns, scr, f, c.minScore, &evd, &scr.memo)
				if !ok {
					continue
				}
				cand.sel = vr.sel
				key := uint64(si)<<32 | uint64(ord)
				at, found := best.find(key)
				if found && !betterScored(cand, best.bs[at]) {
					continue
				}
				scr.keepPairing(&cand)
				best.put(at, found, key, cand)
			}
		}
	}
	return best, scored, nil
}

// scoredResult ranks the records of best, fills the hits within the
// check's limit and explains each: the name string that scored, its
// pairing and the evidence beyond the name.
func (v *view) scoredResult(c *compiled, segs []scoredSeg, variants []scoredVariant, best *bestSet, qs *normalize.ScriptName, scr *scoredScratch, scored int) (*Result, error) {
	// The records are ranked by small keys and only those returned become
	// hits: a check of thousands of hits sorted whole Hits before.
	keys := make([]rankedKey, best.len())
	for i, key := range best.keys {
		b := &best.bs[i]
		keys[i] = rankedKey{score: b.score, sc: b.sc, key: key, at: int32(i)}
	}
	for i := 0; i < len(keys); i += warmChunk {
		chunk := keys[i:min(i+warmChunk, len(keys))]
		if warmHitsAhead {
			scr.sink += warmIDs(segs, chunk)
		}
		for j := range chunk {
			k := &chunk[j]
			k.id = segs[k.key>>32].id(uint32(k.key))
			k.pre = idPrefix(k.id)
		}
	}
	slices.SortFunc(keys, compareRanked)
	hits := make([]Hit, min(len(keys), c.limit))
	for i := range hits {
		k := &keys[i]
		b := &best.bs[k.at]
		hits[i] = Hit{ID: k.id, Exact: b.sc.exact, Edits: b.sc.edits, Extra: b.sc.extra, Score: b.score,
			seg: int32(k.key >> 32), ord: uint32(k.key), slot: b.slot}
	}
	res := &Result{Total: len(keys), Hits: hits, work: scored}
	if warmHitsAhead {
		scr.sink += warmRecs(segs, res.Hits)
	}
	if err := v.fill(res.Hits, false); err != nil {
		return nil, err
	}
	// The reasons and their slices are made together, and the query's
	// words once per variant: a check explaining a thousand hits made
	// each apart.
	sel := make(map[recordSel]int, len(variants))
	qWords := make([][]string, len(variants))
	for i, vr := range variants {
		sel[vr.sel] = i
	}
	reasons := make([]ScoreReason, len(res.Hits))
	arena := reasonArena{chunk: 4 * min(len(res.Hits), 128)} // names of about four words
	var kWords []string
	texts := make(map[uint64]string) // the record words' texts, copied once
	var parts reasonParts            // the pairs of the names explained so far
	bs := &scr.bests                 // the best name strings of a chunk of hits
	for i := range res.Hits {
		if i%warmChunk == 0 {
			chunk := res.Hits[i:min(i+warmChunk, len(res.Hits))]
			for j := range chunk {
				bs[j] = best.bs[keys[i+j].at]
			}
			if warmHitsAhead {
				scr.sink += warmHits(segs, chunk, bs[:len(chunk)])
			}
		}
		h := &res.Hits[i]
		ss := &segs[h.seg]
		b := bs[i%warmChunk]
		h.Field, h.Reason = "name", nil
		text := h.Record.Name
		if ns, ok := nameStringAt(h.Record, int(b.slot)); ok {
			h.Field, text = ns.Field, ns.Text
		}
		vi := sel[b.sel]
		sq := variants[vi].segs[h.seg]
		if qWords[vi] == nil {
			qWords[vi] = wordTexts(sq.words) // the same words in every segment
		}
		ev := scr.script.inScript(qs, text, b.ev)
		words := ss.nameWords(b.ns)
		pairing := scr.pairing(&b)
		h.Reason = &reasons[i]
		if ph, p := parts.get(h.seg, vi, words, pairing, ev.swap); p != nil {
			*h.Reason = reasonHead(sq.lambda, ev, h.Field, text)
			h.Reason.Pairs, h.Reason.UnpairedQuery, h.Reason.UnpairedRecord = p.pairs, p.unQ, p.unR
		} else {
			sh := ss.nameShape(sq, words, scr)
			kWords = kWords[:0]
			for _, id := range words {
				k := uint64(h.seg)<<32 | uint64(id)
				t, ok := texts[k]
				if !ok {
					t = strings.Clone(ss.Token(id))
					texts[k] = t
				}
				kWords = append(kWords, t)
			}
			writeReason(h.Reason, &arena, sh, ev, pairing, qWords[vi], kWords, h.Field, text)
			parts.put(ph, h.seg, vi, words, pairing, ev.swap, h.Reason)
		}
		evd := weighEvidence(c, ss.facts(c, h.ord))
		evd.annotate(h.Reason, ev, c)
	}
	return res, nil
}

// rescoreInScript scores again, with inScript, every name string of each
// record in best, for a query written in one script that Fold romanises
// (qs): the comparison in the shared script needs the name strings'
// texts, which only the records hold, and it only lowers scores, so the
// records best holds (those with a name string at min_score or more) are
// the only ones it can concern. A record none of whose name strings keeps
// min_score leaves best; the others keep their best name string after
// the check, chosen as the candidate loop chooses.
func (v *view) rescoreInScript(c *compiled, segs []scoredSeg, variants []scoredVariant, best *bestSet, qs *normalize.ScriptName, scr *scoredScratch) error {
	// Every record of best keeps its pairing, is scored again here and
	// keeps a new one, or leaves: the pairings kept so far move to a
	// second buffer, read only to copy those kept.
	kept := scr.pairs
	scr.pairs, scr.pairsOld = scr.pairsOld[:0], kept
	hits := make([]Hit, best.len())
	for i, key := range best.keys {
		si, ord := int(key>>32), uint32(key)
		hits[i] = Hit{ID: segs[si].id(ord), seg: int32(si), ord: ord}
	}
	if warmHitsAhead {
		scr.sink += warmRecs(segs, hits)
	}
	if err := v.fill(hits, false); err != nil {
		return err
	}
	drop := slices.Grow(scr.drop[:0], best.len())[:best.len()]
	clear(drop)
	scr.drop = drop
	dropped := false
	for i, key := range best.keys {
		if i%warmChunk == 0 && warmHitsAhead {
			// Read ahead before this chunk's entries change.
			end := min(i+warmChunk, len(hits))
			scr.sink += warmHits(segs, hits[i:end], best.bs[i:end])
		}
		si, ord := int(key>>32), uint32(key)
		ss := &segs[si]
		old := best.bs[i]
		// A best name string the shared script finds no difference in
		// stays best: inScript leaves its score as it was and only lowers
		// the others', and it was the best of them before (a name string
		// that was no candidate scores under min_score).
		text := hits[i].Record.Name
		if ns, ok := nameStringAt(hits[i].Record, int(old.slot)); ok {
			text = ns.Text
		}
		if _, differs := scr.script.scriptCost(qs, text); !differs {
			at := int32(len(scr.pairs))
			scr.pairs = append(scr.pairs, kept[old.pair:old.pair+int32(old.npair)]...)
			old.pair = at
			best.bs[i] = old
			continue
		}
		var sq *scoredQuery
		for _, vr := range variants {
			if vr.sel == old.sel {
				sq = vr.segs[si]
			}
		}
		names := NameStrings(hits[i].Record)
		evd := weighEvidence(c, ss.facts(c, ord))
		var found *scoredBest
		lo, _ := slices.BinarySearch(ss.nsRec, ord)
		for ns := uint32(lo); int(ns) < len(ss.nsRec) && ss.nsRec[ns] == ord; ns++ {
			raw, ok := ss.scoreName(sq, ns, scr, math.Inf(-1))
			if !ok {
				continue
			}
			ev := raw
			text := hits[i].Record.Name
			if slot := int(ss.nsSlot[ns]); slot < len(names) {
				text = names[slot].Text
			}
			ev = scr.script.inScript(qs, text, ev)
			s := evd.score(ev)
			if s < c.minScore {
				continue
			}
			cand := scoredBest{score: s, sc: pairingScore(ev, scr.ps.best, len(ss.nameWords(ns))), slot: ss.nsSlot[ns], ns: ns, sel: old.sel, ev: raw}
			if found == nil || betterScored(cand, *found) {
				scr.keepPairing(&cand)
				found = &cand
			}
		}
		if found == nil {
			drop[i], dropped = true, true
			continue
		}
		best.bs[i] = *found
	}
	if dropped {
		best.keep(drop)
	}
	return nil
}

// selects reports whether record ord of the segment is one variant sel
// of the query may match.
func (sv *segView) selects(sel recordSel, ord uint32) bool {
	switch sel {
	case individualsOnly:
		return sv.et(ord) == etIndividual
	case legalOnly:
		return sv.et(ord) != etIndividual
	}
	return true
}

// betterScored reports whether a is the better name string of a record:
// the higher score, then the strict ranking, then the earlier name string.
func betterScored(a, b scoredBest) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.sc != b.sc {
		return a.sc.better(b.sc)
	}
	return a.slot < b.slot
}

// rankedKey is what ranks a record of a scored check (as sortScoredHits
// ranks hits), its key and where its best name string is in best.
type rankedKey struct {
	score float64
	sc    score
	pre   [2]uint64 // idPrefix(id)
	id    string
	key   uint64
	at    int32 // the record's index in the check's bestSet
}

// idPrefix is the first 16 bytes of id, zero-padded, as two big-endian
// numbers: two ids whose prefixes differ compare as their prefixes do.
// Records of one name tie on score and rank, and comparing their ids
// read each id's bytes again at every step of the sort.
func idPrefix(id string) [2]uint64 {
	var b [16]byte
	copy(b[:], id)
	return [2]uint64{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
}

// compareRanked orders as sortScoredHits does: by score, then as strict
// mode does (exact, fewer edits, fewer extra words), then by record id.
func compareRanked(a, b rankedKey) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	if a.sc != b.sc {
		if a.sc.better(b.sc) {
			return -1
		}
		return 1
	}
	if a.pre != b.pre {
		if c := cmp.Compare(a.pre[0], b.pre[0]); c != 0 {
			return c
		}
		return cmp.Compare(a.pre[1], b.pre[1])
	}
	return cmp.Compare(a.id, b.id)
}

// sortScoredHits ranks hits by score, then as strict mode does (exact,
// fewer edits, fewer extra words), then by record id.
func sortScoredHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if sa, sb := a.score(), b.score(); sa != sb {
			if sa.better(sb) {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// pairingScore is the strict-style ranking of a scored pairing: exact when
// the words are the very same, the edits of its pairs, the record words
// left without a partner.
func pairingScore(ev evaluation, best []edge, n int) score {
	s := score{exact: ev.exact}
	var kCov uint64
	for i := range best {
		s.edits += int(best[i].edits)
		kCov |= best[i].kmask()
	}
	for k := 0; k < n; k++ {
		if kCov&(1<<k) == 0 {
			s.extra++
		}
	}
	return s
}

// nameWords returns the words of name string ns that scored mode pairs:
// its base words, at most maxScoredWords.
func (ss *scoredSeg) nameWords(ns uint32) []uint32 {
	off := ss.nsOff[ns]
	return ss.nsTok[off : off+uint32(min(int(ss.nsBase[ns]), maxScoredWords))]
}

// nameTexts returns the words of name string ns, copied out of the
// segment's memory (they go into a hit's reason).
func (ss *scoredSeg) nameTexts(ns uint32) []string {
	ws := ss.nameWords(ns)
	out := make([]string, len(ws))
	for i, id := range ws {
		out[i] = strings.Clone(ss.Token(id))
	}
	return out
}

// globalPartners are the tokens of a whole view that one query word (or
// joined pair, or piece) pairs with, by text, each weighed over the view,
// with their token ids in each segment.
type globalPartners struct {
	ps    []partner
	texts []string         // the partners' tokens, aligned with ps
	df    []int            // live records of the view holding each, aligned
	local [][]localPartner // by segment
	// maps holds toLocal's maps, built once: the partners of a common
	// word serve every check of a batch that holds it, and building the
	// map for each was a sixth of a scored batch's search time.
	mapsOnce sync.Once
	maps     []map[uint32]partner
}

// localPartner is the token id in one segment of partner ps[i].
type localPartner struct {
	id uint32
	i  int32
}

// toLocal returns the partners of segment si by its token ids. The map
// is shared by every check that asks: nobody changes it.
func (gp *globalPartners) toLocal(si int) map[uint32]partner {
	gp.mapsOnce.Do(func() {
		gp.maps = make([]map[uint32]partner, len(gp.local))
		for i, ls := range gp.local {
			m := make(map[uint32]partner, len(ls))
			for _, lp := range ls {
				m[lp.id] = gp.ps[lp.i]
			}
			gp.maps[i] = m
		}
	})
	return gp.maps[si]
}

// byText returns the partners by ids that ids assigns to their tokens
// (adding the tokens it lacks): the ids of no segment, for scoring a
// record the index does not hold.
func (gp *globalPartners) byText(ids map[string]uint32) map[uint32]partner {
	m := make(map[uint32]partner, len(gp.ps))
	for i, t := range gp.texts {
		id, ok := ids[t]
		if !ok {
			id = uint32(len(ids))
			ids[t] = id
		}
		m[id] = gp.ps[i]
	}
	return m
}

func (gp *globalPartners) empty() bool { return len(gp.ps) == 0 }

// globalQuery is one token list of the query prepared for a view: its
// words with their weights, and the partners of each, before they are
// turned into the token ids of each segment (local).
type globalQuery struct {
	fuzzy  int
	n      int
	lambda float64
	words  []tokInfo
	w      []float64
	miss   []float64
	opt    uint64
	part   []*globalPartners
	cat    []*globalPartners // nil where words j and j+1 do not join
	cat3   []*globalPartners // nil where words j to j+2 do not join
	splits [][]globalSplit
	evMax  float64
}

// globalSplit is a split of a query word in two pieces, or three (c not
// nil).
type globalSplit struct {
	a, b, c    *globalPartners
	ra, rb, rc int
}

// local returns the query as segment si sees it: partners by its token
// ids, the bounds and units of its own partners (a segment holding fewer
// partners can only bound lower).
func (gq *globalQuery) local(si int) *scoredQuery {
	return gq.with(func(gp *globalPartners) map[uint32]partner { return gp.toLocal(si) })
}

// with returns the query with its partners keyed by ids: those of one
// segment (local), or of the query's own token table (byText).
func (gq *globalQuery) with(ids func(*globalPartners) map[uint32]partner) *scoredQuery {
	sq := &scoredQuery{fuzzy: gq.fuzzy, lambda: gq.lambda, n: gq.n, words: gq.words, w: gq.w, miss: gq.miss, opt: gq.opt,
		refs: make(map[uint32][]unitRef), evMax: gq.evMax}
	for _, gp := range gq.part {
		sq.part = append(sq.part, ids(gp))
	}
	for _, gp := range gq.cat {
		var p map[uint32]partner
		if gp != nil {
			p = ids(gp)
		}
		sq.cat = append(sq.cat, p)
	}
	for _, gp := range gq.cat3 {
		var p map[uint32]partner
		if gp != nil {
			p = ids(gp)
		}
		sq.cat3 = append(sq.cat3, p)
	}
	sq.splits = make([][]scoredSplit, len(gq.splits))
	for j, sps := range gq.splits {
		for _, sp := range sps {
			ss := scoredSplit{a: ids(sp.a), b: ids(sp.b), ra: sp.ra, rb: sp.rb, rc: sp.rc}
			if sp.c != nil {
				ss.c = ids(sp.c)
			}
			sq.splits[j] = append(sq.splits[j], ss)
		}
	}
	sq.bound()
	sq.collectUnits()
	for j := range sq.part {
		for id, p := range sq.part[j] {
			sq.refs[id] = append(sq.refs[id], unitRef{unit: unitWord, j: int16(j), p: p})
		}
	}
	for j := range sq.cat {
		for id, p := range sq.cat[j] {
			sq.refs[id] = append(sq.refs[id], unitRef{unit: unitCat, j: int16(j), p: p})
		}
	}
	for j := range sq.cat3 {
		for id, p := range sq.cat3[j] {
			sq.refs[id] = append(sq.refs[id], unitRef{unit: unitCat3, j: int16(j), p: p})
		}
	}
	for j := range sq.splits {
		for s := range sq.splits[j] {
			for id, p := range sq.splits[j][s].a {
				sq.refs[id] = append(sq.refs[id], unitRef{unit: unitPieceA, j: int16(j), s: int16(s), p: p})
			}
			for id, p := range sq.splits[j][s].b {
				sq.refs[id] = append(sq.refs[id], unitRef{unit: unitPieceB, j: int16(j), s: int16(s), p: p})
			}
		}
	}
	return sq
}

// prepareScored finds the partners and weights of one token list of the
// query over the view.
//
// memo, when not nil, keeps the partners looked up, by word, for the other
// token list of the same query (the raw and the legal-form spellings share
// most words): a fuzzy look-up is the dearest step of a search.
func (v *view) prepareScored(vs *viewScored, c *compiled, words []string, memo map[string]*globalPartners) *globalQuery {
	partners := func(key string, t *tokInfo, piece bool, accept func(partner) bool) *globalPartners {
		if p, ok := memo[key]; ok {
			return p
		}
		ck := cacheKey(c.Fuzzy, key)
		p, ok := v.pc.get(ck)
		if !ok {
			p = v.pc.put(ck, v.scoredPartners(vs, t, c.Fuzzy, piece, accept))
		}
		if memo != nil {
			memo[key] = p
		}
		return p
	}
	m := min(len(words), maxScoredWords)
	n := v.live
	gq := &globalQuery{fuzzy: c.Fuzzy, lambda: prior(n), n: n, evMax: maxEvidence(c)}
	syllabic, arabic := syllabicQuery(c.text), arabicQuery(c.text)
	for j := 0; j < m; j++ {
		t := newQueryTokInfo(words[j], syllabic)
		t.arabic = arabic
		gq.words = append(gq.words, t)
		gq.part = append(gq.part, partners(wordUnitKind(&t)+"\x00"+t.text, &t, false, nil))
		df := v.tokenDF(vs, t.text)
		w := tokenWeight(&t, df, n)
		gq.w = append(gq.w, w)
		if t.optional {
			gq.opt |= 1 << j
		}
		gq.miss = append(gq.miss, queryMiss(&t, df, w, gq.lambda))
	}
	for j := 0; j+1 < m; j++ {
		var p *globalPartners
		a, b := &gq.words[j], &gq.words[j+1]
		if !a.optional && !b.optional {
			t := newTokInfo(a.text + b.text)
			p = partners("c\x00"+a.text+"\x00"+b.text, &t, false, func(pp partner) bool { return joinedPair(pp, a, b) })
		}
		gq.cat = append(gq.cat, p)
	}
	for j := 0; j+2 < m; j++ {
		var p *globalPartners
		a, b, d := &gq.words[j], &gq.words[j+1], &gq.words[j+2]
		if !a.optional && !b.optional && !d.optional {
			t := newTokInfo(a.text + b.text + d.text)
			p = partners("3\x00"+a.text+"\x00"+b.text+"\x00"+d.text, &t, false, func(pp partner) bool { return joinedPair3(pp, a, b, d) })
		}
		gq.cat3 = append(gq.cat3, p)
	}
	gq.splits = make([][]globalSplit, m)
	mayMemo := make(map[string]bool)
	for j := 0; j < m; j++ {
		if gq.words[j].optional || gq.words[j].digit {
			continue
		}
		sk := cacheKey(c.Fuzzy, "s\x00"+gq.words[j].text)
		if sp, ok := v.pc.getSplits(sk); ok {
			gq.splits[j] = sp
			continue
		}
		piece := func(a string) *globalPartners {
			t := newTokInfo(a)
			return partners("p\x00"+a, &t, true, nil)
		}
		gq.splits[j] = wordSplitsIf(gq.words[j].text, func(a string) bool {
			may, ok := mayMemo[a]
			if !ok {
				if _, cached := memo["p\x00"+a]; cached {
					may = true // looked up already: piece reads the memo
				} else {
					may = v.pieceMayHavePartners(vs, a, c.Fuzzy)
				}
				mayMemo[a] = may
			}
			return may
		}, piece)
		v.pc.putSplits(sk, gq.splits[j])
	}
	return gq
}

// wordSplits returns the splits of query word w in two pieces and in
// three whose every piece pairs with some record word, the partners of
// each piece from piece.
func wordSplits(w string, piece func(string) *globalPartners) []globalSplit {
	return wordSplitsIf(w, nil, piece)
}

// wordSplitsIf is wordSplits asking may, when not nil, of every piece of a
// split before piece is asked for any: may is false only for a piece sure
// to have no partners, and a split with such a piece is passed over
// without looking up the others (a short first piece has thousands of
// candidate partners, a long second piece often none).
func wordSplitsIf(w string, may func(string) bool, piece func(string) *globalPartners) []globalSplit {
	var out []globalSplit
	splitPieces(w, func(a, b string) {
		if may != nil && (!may(b) || !may(a)) {
			return
		}
		pa := piece(a)
		if pa.empty() {
			return
		}
		pb := piece(b)
		if pb.empty() {
			return
		}
		out = append(out, globalSplit{a: pa, b: pb, ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b)})
	})
	splitPieces3(w, func(a, b, c string) {
		if may != nil && (!may(c) || !may(b) || !may(a)) {
			return
		}
		pa := piece(a)
		if pa.empty() {
			return
		}
		pb := piece(b)
		if pb.empty() {
			return
		}
		pc := piece(c)
		if pc.empty() {
			return
		}
		out = append(out, globalSplit{a: pa, b: pb, c: pc, ra: utf8.RuneCountInString(a), rb: utf8.RuneCountInString(b), rc: utf8.RuneCountInString(c)})
	})
	return out
}

// scoredPartners returns the tokens of the view's dictionaries that t
// pairs with, by relate (by relatePiece for a piece of a split word), those
// that accept refuses left out, each weighed by weighPartners over the
// live records of the whole view.
func (v *view) scoredPartners(vs *viewScored, t *tokInfo, fuzzy int, piece bool, accept func(partner) bool) *globalPartners {
	gp := &globalPartners{local: make([][]localPartner, len(v.segs))}
	seen := make(map[string]int32) // token → index in gp.ps, or -1 when refused
	for si := range v.segs {
		s := v.segs[si].Segment
		live := vs.live[si]
		seenID := make(map[uint32]bool)
		try := func(id uint32) {
			if seenID[id] {
				return
			}
			seenID[id] = true
			if !s.keyed(id) {
				return // not a word of any name string
			}
			tok := s.Token(id)
			i, ok := seen[tok]
			if !ok {
				i = -1
				rt := newTokInfo(tok)
				var p partner
				var related bool
				if piece {
					p, related = relatePiece(t, &rt, fuzzy)
				} else {
					p, related = relate(t, &rt, fuzzy)
				}
				tok = strings.Clone(tok)
				if related && (accept == nil || accept(p)) {
					i = int32(len(gp.ps))
					gp.ps = append(gp.ps, p)
					gp.texts = append(gp.texts, tok)
					gp.df = append(gp.df, 0)
				}
				seen[tok] = i
			}
			if i >= 0 {
				gp.local[si] = append(gp.local[si], localPartner{id: id, i: i})
				gp.df[i] += int(live[id])
			}
		}
		lookupPartners(s, vs.keys[si], t, fuzzy, piece, try)
	}
	ptrs := make([]*partner, len(gp.ps))
	for i := range gp.ps {
		ptrs[i] = &gp.ps[i]
	}
	weighPartners(ptrs, func(i int) int { return gp.df[i] }, func(i int) float64 { return normalize.Common().Share(gp.texts[i]) }, t.share, v.live)
	return gp
}

// pieceMayHavePartners is false when the piece a of a split word has no
// partners in the view at fuzzy level fuzzy: lookupPartners, asked for a
// piece, tries no token of any segment. It reads the same dictionaries and
// key maps but relates no token, so it costs a few map look-ups where the
// partners cost a comparison with every token of a sound-key list.
func (v *view) pieceMayHavePartners(vs *viewScored, a string, fuzzy int) bool {
	t := newTokInfo(a)
	for si := range v.segs {
		s := v.segs[si].Segment
		if id, ok := s.ID(a); ok && s.keyed(id) {
			return true
		}
		if t.legal || t.digit {
			continue
		}
		k := vs.keys[si]
		if t.class != 0 && len(k.class[t.class]) > 0 {
			return true
		}
		if fuzzy > 0 && t.sound != "" && len(k.sound[t.sound]) > 0 {
			return true
		}
	}
	return false
}

// lookupPartners calls try with every token of segment s that may pair
// with t: a superset of those relate (or relatePiece) accepts, found by
// the dictionary and the key maps.
func lookupPartners(s *Segment, k *segKeys, t *tokInfo, fuzzy int, piece bool, try func(uint32)) {
	if id, ok := s.ID(t.text); ok {
		try(id)
	}
	if t.legal {
		return
	}
	if t.digit {
		if fuzzy > 0 && !piece {
			s.Lookup(t.text, maxAllowed(fuzzy, t.text), func(id uint32, _ int) { try(id) })
		}
		return
	}
	if t.class != 0 {
		for _, id := range k.class[t.class] {
			try(id)
		}
	}
	if fuzzy == 0 {
		return
	}
	if !piece {
		s.Lookup(t.text, maxAllowed(fuzzy, t.text), func(id uint32, _ int) { try(id) })
		if t.skel != "" {
			for _, id := range k.skel[t.skel] {
				try(id)
			}
		}
	}
	if t.sound != "" {
		for _, id := range k.sound[t.sound] {
			try(id)
		}
	}
}

// edgeValue is the value of a pair of query word j with partner p.
func (sq *scoredQuery) edgeValue(j int, p partner) float64 {
	if sq.opt&(1<<j) != 0 {
		return optionalValue(p.w)
	}
	return pairValue(p.w, p.sim)
}

// catWeight is the weight of words j and j+1 joined, paired by p.
func (sq *scoredQuery) catWeight(j int, p partner) float64 {
	return min(p.w, sq.w[j]+sq.w[j+1])
}

func (sq *scoredQuery) catValue(j int, p partner) float64 {
	return pairValue(sq.catWeight(j, p), p.sim*joinSim)
}

// catWeight3 is the weight of words j to j+2 joined, paired by p.
func (sq *scoredQuery) catWeight3(j int, p partner) float64 {
	return min(p.w, sq.w[j]+sq.w[j+1]+sq.w[j+2])
}

func (sq *scoredQuery) catValue3(j int, p partner) float64 {
	return pairValue(sq.catWeight3(j, p), p.sim*joinSim)
}

// cat3Edge is the edge of words j to j+2 joined, paired by p with record
// word k.
func (sq *scoredQuery) cat3Edge(j, k int, p partner) edge {
	return edge{q0: int8(j), q1: int8(j + 2), k0: int8(k), k1: -1, kind: kindJoined, edits: p.edits,
		sim: p.sim * joinSim, weight: sq.catWeight3(j, p), value: sq.catValue3(j, p)}
}

// sim is the similarity of the pieces paired by pa, pb and (a split in
// three) pc, weighed by their runes.
func (sp *scoredSplit) sim(pa, pb, pc partner) float64 {
	return (float64(sp.ra)*pa.sim + float64(sp.rb)*pb.sim + float64(sp.rc)*pc.sim) / float64(sp.ra+sp.rb+sp.rc)
}

// splitEdge is the edge of word j split by sp onto two words paired by
// pa and pb, or three paired by pa, pb and pc; ok is false when the pieces
// together agree too little. Its record words are for the caller to set.
func (sq *scoredQuery) splitEdge(j int, sp *scoredSplit, pa, pb, pc partner) (e edge, ok bool) {
	sim := sp.sim(pa, pb, pc)
	if sim < model.JoinMinSim {
		return edge{}, false
	}
	w := min(sq.w[j], pa.w+pb.w+pc.w)
	return edge{q0: int8(j), q1: -1, kind: kindJoined, edits: pa.edits + pb.edits + pc.edits, sim: sim * joinSim, weight: w, value: pairValue(w, sim*joinSim)}, true
}

// rarestPiece returns the index of the piece whose lightest partner is
// the heaviest: the piece whose partners' name strings are likely the
// fewest.
func rarestPiece(pieces []map[uint32]partner) int {
	at, most := 0, math.Inf(-1)
	for i, m := range pieces {
		light := math.Inf(1)
		for _, p := range m {
			light = min(light, p.w)
		}
		if light > most {
			at, most = i, light
		}
	}
	return at
}

// bestOf is the closest and the heaviest of the partners in m: the one
// partner that bounds every pairing through them.
func bestOf(m map[uint32]partner) partner {
	var b partner
	for _, p := range m {
		b.sim, b.w = max(b.sim, p.sim), max(b.w, p.w)
	}
	return b
}

// bound fills ub: the most each word can add to a logit, by its best
// possible pair anywhere (a joined pair counted whole for both of its
// words, halved when negative).
func (sq *scoredQuery) bound() {
	m := len(sq.words)
	sq.ub = make([]float64, m)
	sq.exactLogit = model.Intercept
	for j := 0; j < m; j++ {
		ub := -sq.miss[j]
		exact := math.Inf(1)
		for _, p := range sq.part[j] {
			v := sq.edgeValue(j, p)
			ub = max(ub, v)
			if p.kind == kindExact {
				exact = min(exact, v)
			}
		}
		if math.IsInf(exact, 1) {
			exact = math.Inf(-1) // word j has no partner of the same word
		}
		sq.exactLogit += exact
		for s := range sq.splits[j] {
			sp := &sq.splits[j][s]
			// The value grows with weight and similarity, so the best
			// pieces bound every pairing of them.
			if e, ok := sq.splitEdge(j, sp, bestOf(sp.a), bestOf(sp.b), bestOf(sp.c)); ok {
				ub = max(ub, e.value)
			}
		}
		sq.ub[j] = ub
	}
	for j := range sq.cat {
		for _, p := range sq.cat[j] {
			v := sq.catValue(j, p)
			if v < 0 {
				v /= 2
			}
			sq.ub[j] = max(sq.ub[j], v)
			sq.ub[j+1] = max(sq.ub[j+1], v)
		}
	}
	for j := range sq.cat3 {
		for _, p := range sq.cat3[j] {
			v := sq.catValue3(j, p)
			if v < 0 {
				v /= 3
			}
			for i := j; i <= j+2; i++ {
				sq.ub[i] = max(sq.ub[i], v)
			}
		}
	}
}

// collectUnits fills units: for each word, its partners, those of the
// joined pairs it is part of, and those of the first piece of each of its
// splits; and unitGain, the most a name string holding each of those
// tokens can gain from the word: the best edge the token makes, plus the
// word's miss cost (what pairing saves), at least 0.
func (sq *scoredQuery) collectUnits() {
	sq.units = make([][]uint32, len(sq.words))
	sq.unitGain = make([][]float64, len(sq.words))
	for j := range sq.words {
		best := map[uint32]float64{}
		offer := func(id uint32, v float64) {
			if old, ok := best[id]; !ok || v > old {
				best[id] = v
			}
		}
		for id, p := range sq.part[j] {
			offer(id, sq.edgeValue(j, p))
		}
		for _, c := range []int{j, j - 1} {
			if c < 0 || c >= len(sq.cat) {
				continue
			}
			for id, p := range sq.cat[c] {
				v := sq.catValue(c, p)
				if v < 0 {
					v /= 2
				}
				offer(id, v)
			}
		}
		for _, c := range []int{j, j - 1, j - 2} {
			if c < 0 || c >= len(sq.cat3) {
				continue
			}
			for id, p := range sq.cat3[c] {
				v := sq.catValue3(c, p)
				if v < 0 {
					v /= 3
				}
				offer(id, v)
			}
		}
		for s := range sq.splits[j] {
			sp := &sq.splits[j][s]
			// A name string pairing the split holds each of its pieces, so
			// the partners of any one piece find it: those of the piece
			// whose commonest partner is the least common, so that a
			// common first piece (al of Alliance) does not make every name
			// string holding it a candidate. The value grows with weight
			// and similarity: the best other pieces bound every pairing
			// through one partner of this one.
			pieces := []map[uint32]partner{sp.a, sp.b}
			if sp.c != nil {
				pieces = append(pieces, sp.c)
			}
			anchor := rarestPiece(pieces)
			best := [3]partner{bestOf(sp.a), bestOf(sp.b), bestOf(sp.c)}
			for id, p := range pieces[anchor] {
				b := best
				b[anchor] = p
				if e, ok := sq.splitEdge(j, sp, b[0], b[1], b[2]); ok {
					offer(id, e.value)
				} else {
					offer(id, -sq.miss[j])
				}
			}
		}
		ids := make([]uint32, 0, len(best))
		for id := range best {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		gains := make([]float64, len(ids))
		for k, id := range ids {
			gains[k] = max(best[id], -sq.miss[j]) + sq.miss[j]
		}
		sq.units[j], sq.unitGain[j] = ids, gains
	}
}

// unionPostings returns the ascending union of the posting lists of ids:
// a single list as it is, several merged in rounds of pairs into the
// scratch buffers.
func (ss *scoredSeg) unionPostings(ids []uint32, scr *scoredScratch) []uint32 {
	lists := scr.lists[:0]
	total := 0
	for _, id := range ids {
		if l := ss.postings(id); len(l) > 0 {
			lists = append(lists, l)
			total += len(l)
		}
	}
	scr.lists = lists
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	if len(lists) > 16 && total < 256 {
		u := scr.bufB[:0]
		for _, l := range lists {
			u = append(u, l...)
		}
		slices.Sort(u)
		u = slices.Compact(u)
		scr.bufB = u
		return u
	}
	// Pairwise rounds: each merges two lists into a fresh slice of the
	// arena, so a round reads what the previous one wrote.
	arena := scr.arena[:0]
	for len(lists) > 1 {
		next := lists[:0:0]
		for i := 0; i+1 < len(lists); i += 2 {
			start := len(arena)
			arena = mergeUnion(arena, lists[i], lists[i+1])
			next = append(next, arena[start:len(arena):len(arena)])
		}
		if len(lists)%2 == 1 {
			next = append(next, lists[len(lists)-1])
		}
		lists = next
	}
	scr.arena = arena
	return lists[0]
}

// mergeUnion appends the union of the ascending lists a and b to dst.
func mergeUnion(dst, a, b []uint32) []uint32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			dst = append(dst, a[i])
			i++
		case a[i] > b[j]:
			dst = append(dst, b[j])
			j++
		default:
			dst = append(dst, a[i])
			i++
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// unionGains returns the ascending union of the posting lists of ids with,
// for each name string, the largest of gains over the ids whose lists
// hold it: merged in rounds of pairs through the scratch arenas.
func (ss *scoredSeg) unionGains(ids []uint32, gains []float64, scr *scoredScratch) ([]uint32, []float64) {
	type list struct {
		ns []uint32
		g  []float64 // nil: every entry gains one
		g1 float64
	}
	lists := make([]list, 0, len(ids))
	for k, id := range ids {
		if l := ss.postings(id); len(l) > 0 {
			lists = append(lists, list{ns: l, g1: gains[k]})
		}
	}
	if len(lists) == 0 {
		return nil, nil
	}
	gainOf := func(l *list, i int) float64 {
		if l.g != nil {
			return l.g[i]
		}
		return l.g1
	}
	arenaN, arenaG := scr.arena[:0], scr.arenaG[:0]
	for len(lists) > 1 {
		next := lists[:0:0]
		for i := 0; i+1 < len(lists); i += 2 {
			a, b := &lists[i], &lists[i+1]
			start := len(arenaN)
			x, y := 0, 0
			for x < len(a.ns) || y < len(b.ns) {
				switch {
				case y == len(b.ns) || x < len(a.ns) && a.ns[x] < b.ns[y]:
					arenaN, arenaG = append(arenaN, a.ns[x]), append(arenaG, gainOf(a, x))
					x++
				case x == len(a.ns) || b.ns[y] < a.ns[x]:
					arenaN, arenaG = append(arenaN, b.ns[y]), append(arenaG, gainOf(b, y))
					y++
				default:
					arenaN, arenaG = append(arenaN, a.ns[x]), append(arenaG, max(gainOf(a, x), gainOf(b, y)))
					x++
					y++
				}
			}
			end := len(arenaN)
			next = append(next, list{ns: arenaN[start:end:end], g: arenaG[start:end:end]})
		}
		if len(lists)%2 == 1 {
			next = append(next, lists[len(lists)-1])
		}
		lists = next
	}
	scr.arena, scr.arenaG = arenaN, arenaG
	l := lists[0]
	if l.g == nil {
		g := scr.constG[:0]
		for range l.ns {
			g = append(g, l.g1)
		}
		scr.constG = g
		return l.ns, g
	}
	return l.ns, l.g
}

// scoredCandidates returns the name strings to score, ascending, each
// once (see the comment at the top of this file).
//
// The words are taken by gain, the highest first. While the gains of the
// words not yet taken could still reach the threshold without the words
// taken, a word's name strings join the candidates (the essential words);
// after that, a name string can only be a hit through the words taken
// already, so the remaining words only add their gain to the candidates
// that hold them, and a candidate is dropped as soon as its gain and all
// that is left could not reach the threshold. Each candidate's gain is
// thus an upper bound of what its words can bring, and those below the
// threshold are never read.
func (ss *scoredSeg) scoredCandidates(sq *scoredQuery, minScore float64, scr *scoredScratch) []uint32 {
	m := len(sq.words)
	if m == 0 {
		return nil
	}
	target := logitFloor(minScore) - sq.evMax - model.Intercept + sq.lambda // gains needed
	gain := make([]float64, m)
	for j := range gain {
		target += sq.miss[j]
		gain[j] = sq.ub[j] + sq.miss[j]
	}
	order := make([]int, m)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(gain[b], gain[a]) })
	rem := make([]float64, m+1) // rem[i]: the gains of order[i:]
	for i := m - 1; i >= 0; i-- {
		rem[i] = rem[i+1] + gain[order[i]]
	}
	// A complete match (every word that is not optional paired) earns up
	// to maxBonus more: a candidate holding all those words is kept on
	// that account too. cnt counts the non-optional words it holds, and
	// needed[i] those among order[i:].
	needed := make([]int, m+1)
	for i := m - 1; i >= 0; i-- {
		needed[i] = needed[i+1]
		if sq.opt&(1<<order[i]) == 0 {
			needed[i]++
		}
	}
	bonus := maxBonus(sq.lambda)
	if rem[0] < target {
		return ss.keepLongEnough(ss.completeCandidates(sq, scr), rem, target, needed[0], bonus, sq.maxEdgeWords())
	}
	// The essential words: by default those of the highest gains, the
	// fewest whose rest stays under the target; essentialOrder may pick
	// others whose posting lists are shorter. rem and needed below follow
	// the order the words are taken in; keepLongEnough keeps the gains
	// sorted (sorted, needed[0] is the same in both orders).
	nEss := 0
	for nEss < m && rem[nEss] >= target {
		nEss++
	}
	sorted := rem
	order, nEss = ss.essentialOrder(sq, order, gain, target, nEss)
	rem = make([]float64, m+1)
	for i := m - 1; i >= 0; i-- {
		rem[i] = rem[i+1] + gain[order[i]]
		needed[i] = needed[i+1]
		if sq.opt&(1<<order[i]) == 0 {
			needed[i]++
		}
	}
	cands, acc, cnt := scr.bufA[:0], scr.acc[:0], scr.cnt[:0]
	i := 0
	for ; i < nEss; i++ {
		j := order[i]
		u, ug := ss.unionGains(sq.units[j], sq.unitGain[j], scr)
		var inc uint8
		if sq.opt&(1<<j) == 0 {
			inc = 1
		}
		cands, acc, cnt = mergeGain(cands, acc, cnt, u, ug, inc, scr)
	}
	for ; i < m && len(cands) > 0; i++ {
		// Drop what cannot reach the target any more, then credit word
		// order[i] to the candidates that hold a partner of it.
		cands, acc, cnt = keepReaching(cands, acc, cnt, target-rem[i], needed[0]-needed[i], target-rem[i]-bonus)
		ss.creditWord(sq, order[i], gain[order[i]], cands, acc, cnt, scr)
	}
	cands, acc, cnt = keepReaching(cands, acc, cnt, target, needed[0], target-bonus)
	scr.bufA, scr.acc, scr.cnt = cands, acc, cnt
	return ss.keepLongEnough(cands, sorted, target, needed[0], bonus, sq.maxEdgeWords())
}

// creditWord adds to each candidate the gain of the partner of query word
// j it holds (g, the word's gain, when its posting lists are so much
// longer than the candidates that crediting every candidate is cheaper
// than looking: the gain stays an upper bound), and counts the word when
// it is not optional.
func (ss *scoredSeg) creditWord(sq *scoredQuery, j int, g float64, cands []uint32, acc []float64, cnt []uint8, scr *scoredScratch) {
	var inc uint8
	if sq.opt&(1<<j) == 0 {
		inc = 1
	}
	if ss.postingSize(sq.units[j]) > 16*len(cands) {
		for k := range acc {
			acc[k] += g
			cnt[k] += inc
		}
		return
	}
	if cap(scr.held) < len(cands) {
		scr.held = make([]float64, len(cands), 2*len(cands))
	}
	held := scr.held[:len(cands)]
	for k := range held {
		held[k] = -1
	}
	for k, id := range sq.units[j] {
		markGain(cands, ss.postings(id), sq.unitGain[j][k], held)
	}
	for k := range cands {
		if held[k] >= 0 {
			acc[k] += held[k]
			cnt[k] += inc
		}
	}
}

// maxExactEssential is the most query words whose every set
// nonEssential tries; longer queries take their longest lists out
// greedily.
const maxExactEssential = 10

// essentialOrder returns the words in the order scoredCandidates takes
// them, the essential ones (the first nEss) first. order holds the words
// by gain, highest first, and its first nEss are essential by default;
// nonEssential may leave out another set, whose posting lists are longer.
// A query of a rare word beside common ones (Adriana Aline González Peña,
// whose gains made aline essential) then merges the rare word's lists and
// only searches or credits the common ones'.
func (ss *scoredSeg) essentialOrder(sq *scoredQuery, order []int, gain []float64, target float64, nEss int) ([]int, int) {
	m := len(order)
	if nEss == m {
		return order, nEss // no set is below the target
	}
	size := make([]int, m)
	for j := range size {
		size[j] = ss.postingSize(sq.units[j])
	}
	var must uint64 // words that are not optional
	for j := 0; j < m; j++ {
		if sq.opt&(1<<j) == 0 {
			must |= 1 << j
		}
	}
	var def uint64
	for _, j := range order[nEss:] {
		def |= 1 << j
	}
	set := nonEssential(gain, size, must, def, target)
	out := make([]int, 0, m)
	for _, j := range order {
		if set&(1<<j) == 0 {
			out = append(out, j)
		}
	}
	nEss = len(out)
	for _, j := range order {
		if set&(1<<j) != 0 {
			out = append(out, j)
		}
	}
	return out, nEss
}

// nonEssential returns the set of words (a bit each) that scoredCandidates
// need not merge: def, unless another set that may be left out holds
// longer posting lists (size), the longest such set for up to
// maxExactEssential words, the longest lists first that fit beyond. A set
// may be left out when its gains add up to less than target (a name
// string holding none of the other words cannot reach it) and a word that
// is not optional (must) stays outside it (a complete match holds every
// such word, and may reach the target by the completeness term alone).
func nonEssential(gain []float64, size []int, must, def uint64, target float64) uint64 {
	m := len(gain)
	fits := func(set uint64, g float64) bool { return g < target && must&^set != 0 }
	sizeOf := func(set uint64) int {
		n := 0
		for j := 0; j < m; j++ {
			if set&(1<<j) != 0 {
				n += size[j]
			}
		}
		return n
	}
	best, bestSize := def, sizeOf(def)
	if m <= maxExactEssential {
		var sumG [1 << maxExactEssential]float64
		var sumS [1 << maxExactEssential]int
		for set := uint64(1); set < 1<<m; set++ {
			low := bits.TrailingZeros64(set)
			prev := set & (set - 1)
			sumG[set], sumS[set] = sumG[prev]+gain[low], sumS[prev]+size[low]
			if sumS[set] > bestSize && fits(set, sumG[set]) {
				best, bestSize = set, sumS[set]
			}
		}
		return best
	}
	bySize := make([]int, m)
	for j := range bySize {
		bySize[j] = j
	}
	slices.SortStableFunc(bySize, func(a, b int) int { return size[b] - size[a] })
	var set uint64
	g := 0.0
	for _, j := range bySize {
		if fits(set|1<<j, g+gain[j]) {
			set, g = set|1<<j, g+gain[j]
		}
	}
	if sizeOf(set) > bestSize {
		return set
	}
	return best
}

// maxEdgeWords is the most query words one edge of sq covers: three when
// three of its words joined pair with some word of the segment, else two.
func (sq *scoredQuery) maxEdgeWords() int {
	for _, c := range sq.cat3 {
		if len(c) > 0 {
			return 3
		}
	}
	return 2
}

// keepLongEnough drops, in place, the candidates too short to reach the
// target whatever words they hold. Every edge of a pairing covers at
// least one record word and at most span query words (two, or three
// joined: maxEdgeWords), so a name string of L words pairs at most span·L
// query words and gains at most the span·L largest gains (rem[0] −
// rem[span·L]; rem as in scoredCandidates); it is a complete match only
// when span·L reaches the complete words. A query of many words (one word
// repeated 32 times, say) thus scores only name strings long enough to
// pair them, not every name string holding the word: the bound follows
// from the model and leaves out nothing above the threshold.
func (ss *scoredSeg) keepLongEnough(cands []uint32, rem []float64, target float64, complete int, bonus float64, span int) []uint32 {
	m := len(rem) - 1
	if rem[0]-rem[min(span, m)] >= target {
		return cands // a name of one word may reach it: nothing to drop
	}
	n := 0
	for _, ns := range cands {
		p := min(span*len(ss.nameWords(ns)), m)
		top := rem[0] - rem[p]
		if top >= target || complete <= p && top >= target-bonus {
			cands[n] = ns
			n++
		}
	}
	return cands[:n]
}

// mergeGain merges the ascending candidates (with their gains and counts)
// and the list u, adding ug[i] and inc to name string u[i], through the
// scratch buffers.
func mergeGain(cands []uint32, acc []float64, cnt []uint8, u []uint32, ug []float64, inc uint8, scr *scoredScratch) ([]uint32, []float64, []uint8) {
	out, og, oc := scr.bufC[:0], scr.acc2[:0], scr.cnt2[:0]
	a, b := 0, 0
	for a < len(cands) || b < len(u) {
		switch {
		case b == len(u) || a < len(cands) && cands[a] < u[b]:
			out, og, oc = append(out, cands[a]), append(og, acc[a]), append(oc, cnt[a])
			a++
		case a == len(cands) || u[b] < cands[a]:
			out, og, oc = append(out, u[b]), append(og, ug[b]), append(oc, inc)
			b++
		default:
			out, og, oc = append(out, cands[a]), append(og, acc[a]+ug[b]), append(oc, cnt[a]+inc)
			a++
			b++
		}
	}
	scr.bufC, scr.acc2, scr.cnt2 = cands, acc, cnt
	return out, og, oc
}

// keepReaching keeps, in place, the candidates whose gain is at least
// need, and those holding complete non-optional words whose gain is at
// least needComplete (they may earn the completeness term).
func keepReaching(cands []uint32, acc []float64, cnt []uint8, need float64, complete int, needComplete float64) ([]uint32, []float64, []uint8) {
	n := 0
	for k := range cands {
		if acc[k] >= need || int(cnt[k]) >= complete && acc[k] >= needComplete {
			cands[n], acc[n], cnt[n] = cands[k], acc[k], cnt[k]
			n++
		}
	}
	return cands[:n], acc[:n], cnt[:n]
}

// scoreCandidate scores name string ns for sq, with the evidence evd of its
// record, and returns it as a candidate when it reaches minScore: the one
// rule a scored search and ScoreRecord both apply, so that the two agree.
func (ss *scoredSeg) scoreCandidate(sq *scoredQuery, ns uint32, scr *scoredScratch, floor, minScore float64, evd *evidence) (scoredBest, bool) {
	return ss.scoreCandidateIn(sq, ns, scr, floor, minScore, evd, nil)
}

// scoreCandidateIn is scoreCandidate with the name strings scored so far
// for sq kept in memo (none when nil).
func (ss *scoredSeg) scoreCandidateIn(sq *scoredQuery, ns uint32, scr *scoredScratch, floor, minScore float64, evd *evidence, memo *nameMemo) (scoredBest, bool) {
	var ev evaluation
	var ok bool
	if memo != nil {
		ev, ok = ss.scoreNameMemo(sq, ns, scr, floor-evd.total, memo)
	} else {
		ev, ok = ss.scoreName(sq, ns, scr, floor-evd.total)
	}
	if !ok {
		return scoredBest{}, false
	}
	s := evd.score(ev)
	if s < minScore {
		return scoredBest{}, false
	}
	return scoredBest{score: s, sc: pairingScore(ev, scr.ps.best, len(ss.nameWords(ns))), slot: ss.nsSlot[ns], ns: ns, ev: ev}, true
}

// gallop is slices.BinarySearch of the ascending s for x, probing from
// the front in doubling steps first: markHeld and markGain search for
// each element of one sorted list in what is left of the other, where
// the next one is usually near, so a search costs the log of that gap
// instead of the log of the rest.
func gallop(s []uint32, x uint32) (int, bool) {
	if len(s) == 0 || s[0] >= x {
		return 0, len(s) > 0 && s[0] == x
	}
	lo, step := 0, 1 // s[lo] < x
	for lo+step < len(s) && s[lo+step] < x {
		lo += step
		step *= 2
	}
	hi := min(lo+step, len(s)) // s[hi] >= x, or hi is the end
	i, _ := slices.BinarySearch(s[lo+1:hi], x)
	i += lo + 1
	return i, i < len(s) && s[i] == x
}

// markHeld sets has[k] for every cands[k] in the ascending list post,
// walking the shorter list and searching the longer. markGain walks the
// same way; the two stay apart because a shared walk calling a function
// per match measured 3–6 % slower scored checks (BenchmarkSearchScored).
func markHeld(cands, post []uint32, has []bool) {
	if len(post) == 0 {
		return
	}
	if len(post) < len(cands)/8 {
		lo := 0
		for _, x := range post {
			k, found := gallop(cands[lo:], x)
			lo += k
			if found {
				has[lo] = true
			}
		}
		return
	}
	if len(cands) < len(post)/8 {
		lo := 0
		for k, x := range cands {
			i, found := gallop(post[lo:], x)
			lo += i
			if found {
				has[k] = true
			}
		}
		return
	}
	a, b := 0, 0
	for a < len(cands) && b < len(post) {
		switch {
		case cands[a] < post[b]:
			a++
		case cands[a] > post[b]:
			b++
		default:
			has[a] = true
			a++
			b++
		}
	}
}

// markGain raises held[k] to g for every cands[k] in the ascending list
// post, walking the shorter list and searching the longer.
func markGain(cands, post []uint32, g float64, held []float64) {
	if len(post) == 0 {
		return
	}
	set := func(k int) {
		if g > held[k] {
			held[k] = g
		}
	}
	if len(post) < len(cands)/8 {
		lo := 0
		for _, x := range post {
			k, found := gallop(cands[lo:], x)
			lo += k
			if found {
				set(lo)
			}
		}
		return
	}
	if len(cands) < len(post)/8 {
		lo := 0
		for k, x := range cands {
			i, found := gallop(post[lo:], x)
			lo += i
			if found {
				set(k)
			}
		}
		return
	}
	a, b := 0, 0
	for a < len(cands) && b < len(post) {
		switch {
		case cands[a] < post[b]:
			a++
		case cands[a] > post[b]:
			b++
		default:
			set(a)
			a++
			b++
		}
	}
}

// completeCandidates returns the name strings that may pair every query
// word: only a complete match can reach the threshold. It intersects,
// rarest word first, skipping words whose lists would cost far more than
// the candidates left (scoring checks them anyway).
func (ss *scoredSeg) completeCandidates(sq *scoredQuery, scr *scoredScratch) []uint32 {
	type wordSize struct{ j, size int }
	var sizes []wordSize
	for j := range sq.words {
		if sq.opt&(1<<j) == 0 { // optional words need no partner
			sizes = append(sizes, wordSize{j, ss.postingSize(sq.units[j])})
		}
	}
	if len(sizes) == 0 {
		return nil
	}
	slices.SortStableFunc(sizes, func(a, b wordSize) int { return a.size - b.size })
	cands := append(scr.bufA[:0], ss.unionPostings(sq.units[sizes[0].j], scr)...)
	for _, ws := range sizes[1:] {
		if len(cands) == 0 {
			break
		}
		if ws.size > 16*len(cands) {
			continue
		}
		if cap(scr.has) < len(cands) {
			scr.has = make([]bool, len(cands), 2*len(cands))
		}
		has := scr.has[:len(cands)]
		clear(has)
		for _, id := range sq.units[ws.j] {
			markHeld(cands, ss.postings(id), has)
		}
		n := 0
		for k := range cands {
			if has[k] {
				cands[n] = cands[k]
				n++
			}
		}
		cands = cands[:n]
	}
	scr.bufA = cands
	return cands
}

// postingSize is the total length of the posting lists of ids.
func (ss *scoredSeg) postingSize(ids []uint32) int {
	n := 0
	for _, id := range ids {
		n += len(ss.postings(id))
	}
	return n
}

// scoreName scores name string ns: its edges, then the best pairing.
// scr.ps.best holds the pairing afterwards. ok is false when the name
// string has no edge, or when no pairing can reach the logit floor.
func (ss *scoredSeg) scoreName(sq *scoredQuery, ns uint32, scr *scoredScratch, floor float64) (evaluation, bool) {
	words := ss.nameWords(ns)
	edges := sq.nameEdges(words, scr)
	if len(edges) == 0 {
		return evaluation{}, false
	}
	person := ss.et(ss.nsRec[ns]) == etIndividual
	// The shape lives in the scratch: the pairing search keeps a pointer
	// to it, which made a shape on the heap for every name string scored.
	sh := &scr.sh
	*sh = ss.nameShape(sq, words, scr)
	sh.person = person
	if quickBound(sh, edges) < floor {
		return evaluation{}, false
	}
	if person {
		sh.kSyl = syllableMask(len(words), func(k int) string { return ss.Token(words[k]) })
	}
	scr.ps.run(sh, edges)
	return scr.ps.bestEv, true
}

// nameMemo keeps, for one scoredQuery, what scoreName found for each
// name string of words scored so far, by the words (token ids) and
// whether the name is an individual's: all that its edges, its shape and
// its pairing depend on. Lists repeat names (a common company name is
// held by hundreds of records at a million), and a check of such words
// scored every copy.
//
// The names are found by a hash of their words in an open-addressing
// table of indexes into ent, and told apart by their words: a map keyed
// by the words' bytes made a string of every name it kept and rehashed
// its entries as it grew, a tenth of a check of thousands of names.
type nameMemo struct {
	slots []int32 // by hash, linear probing: index in ent + 1, 0 for none
	ent   []memoEntry
	words []uint32 // the words of ent, each at w0, nw long
	edges []edge   // the pairings of ent, each at e0, ne long
}

// memoEntry is what scoreName found for one name string: no edge at all
// (!edged), or its quickBound and, once the pairing was searched (ran),
// the pairing's evaluation. hash, person and the words at w0 are its key.
type memoEntry struct {
	bound      float64
	edged, ran bool
	person     bool
	ev         evaluation
	e0, ne     int32
	hash       uint64
	w0, nw     int32
}

// reset forgets every name string, for another scoredQuery. A table
// that grew large is given up rather than cleared: clearing costs its
// size, and the pooled scratch of a check of thousands of names would
// make every later check pay that.
func (m *nameMemo) reset() {
	if len(m.slots) > maxClearedMemo {
		m.slots = nil
	} else {
		clear(m.slots)
	}
	m.ent, m.words, m.edges = m.ent[:0], m.words[:0], m.edges[:0]
}

// maxClearedMemo is the most slots a memo's table is cleared after, and
// minMemoSlots the fewest a table starts with.
const (
	maxClearedMemo = 1024
	minMemoSlots   = 256
)

// memoHash hashes a name string's words and whether it is an
// individual's.
func memoHash(words []uint32, person bool) uint64 {
	h := uint64(len(words))
	if person {
		h |= 1 << 32
	}
	for _, id := range words {
		h = (h ^ uint64(id)) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	return h ^ h>>32
}

// find returns the index in ent of the name string of words, its kind
// person and its hash h, or where in slots to store it.
func (m *nameMemo) find(words []uint32, person bool, h uint64) (i int32, slot int, found bool) {
	mask := len(m.slots) - 1
	for slot = int(h) & mask; ; slot = (slot + 1) & mask {
		s := m.slots[slot]
		if s == 0 {
			return 0, slot, false
		}
		e := &m.ent[s-1]
		if e.hash == h && e.person == person && slices.Equal(m.words[e.w0:e.w0+e.nw], words) {
			return s - 1, slot, true
		}
	}
}

// add keeps a new entry for the name string of words, kind person and
// hash h at slot (as find returned it) and returns its index in ent. The
// table doubles when it is half full.
func (m *nameMemo) add(words []uint32, person bool, h uint64, slot int) int32 {
	i := int32(len(m.ent))
	m.ent = append(m.ent, memoEntry{person: person, hash: h, w0: int32(len(m.words)), nw: int32(len(words))})
	m.words = append(m.words, words...)
	m.slots[slot] = i + 1
	if 2*len(m.ent) > len(m.slots) {
		m.slots = make([]int32, 2*len(m.slots))
		mask := len(m.slots) - 1
		for k := range m.ent {
			s := int(m.ent[k].hash) & mask
			for m.slots[s] != 0 {
				s = (s + 1) & mask
			}
			m.slots[s] = int32(k) + 1
		}
	}
	return i
}

// scoreNameMemo is scoreName, read from memo when a name string of the
// same words and kind was scored for sq before.
func (ss *scoredSeg) scoreNameMemo(sq *scoredQuery, ns uint32, scr *scoredScratch, floor float64, memo *nameMemo) (evaluation, bool) {
	words := ss.nameWords(ns)
	person := ss.et(ss.nsRec[ns]) == etIndividual
	if memo.slots == nil {
		memo.slots = make([]int32, minMemoSlots)
	}
	h := memoHash(words, person)
	i, slot, seen := memo.find(words, person, h)
	if seen {
		e := &memo.ent[i]
		switch {
		case !e.edged || e.bound < floor:
			return evaluation{}, false
		case e.ran:
			scr.ps.best = append(scr.ps.best[:0], memo.edges[e.e0:e.e0+e.ne]...)
			scr.ps.bestEv = e.ev
			return e.ev, true
		}
	} else {
		i = memo.add(words, person, h, slot)
	}
	e := &memo.ent[i]
	edges := sq.nameEdges(words, scr)
	if len(edges) == 0 {
		return evaluation{}, false
	}
	e.edged = true
	sh := &scr.sh
	*sh = ss.nameShape(sq, words, scr)
	sh.person = person
	e.bound = quickBound(sh, edges)
	if e.bound < floor {
		return evaluation{}, false
	}
	if person {
		sh.kSyl = syllableMask(len(words), func(k int) string { return ss.Token(words[k]) })
	}
	scr.ps.run(sh, edges)
	e.ran, e.ev = true, scr.ps.bestEv
	e.e0, e.ne = int32(len(memo.edges)), int32(len(scr.ps.best))
	memo.edges = append(memo.edges, scr.ps.best...)
	return e.ev, true
}

// nameEdges returns the edges of the name string of words, in scr.edges.
func (sq *scoredQuery) nameEdges(words []uint32, scr *scoredScratch) []edge {
	edges := scr.edges[:0]
	for k, id := range words {
		edges = sq.wordEdges(edges, id, k, words[k+1:min(k+3, len(words))])
	}
	scr.edges = edges
	return edges
}

// nameShape is the shape of the query against a name string of words.
func (ss *scoredSeg) nameShape(sq *scoredQuery, words []uint32, scr *scoredScratch) nameShape {
	sh := nameShape{m: len(sq.words), n: len(words), qOpt: sq.opt, qMiss: sq.miss, lambda: sq.lambda}
	scr.kMiss = scr.kMiss[:0]
	for k, id := range words {
		miss, opt := ss.recordWord(sq, id)
		if opt {
			sh.kOpt |= 1 << k
		}
		scr.kMiss = append(scr.kMiss, miss)
	}
	sh.kMiss = scr.kMiss
	return sh
}

// optionalBit marks an optional word in a cached record-word cost (whose
// sign bit is free: a cost is positive).
const optionalBit = 1 << 63

// recordWord returns what token id costs as a record word left unpaired
// for sq, and whether it is optional: read from the view's cache when sq
// is weighed over the view's records (as every check on the view is),
// computed and kept there the first time.
func (ss *scoredSeg) recordWord(sq *scoredQuery, id uint32) (miss float64, opt bool) {
	cached := int(id) < len(ss.words) && sq.n == ss.wordsN
	if cached {
		if b := ss.words[id].Load(); b != 0 {
			return math.Float64frombits(b &^ optionalBit), b&optionalBit != 0
		}
	}
	t := ss.Token(id)
	opt = optionalWord(t)
	miss = recordMiss(t, recordWeight(t, int(ss.df[id]), sq.n), sq.lambda)
	if cached {
		b := math.Float64bits(miss)
		if opt {
			b |= optionalBit
		}
		ss.words[id].Store(b)
	}
	return miss, opt
}

// appendSplitEdge appends e unless an edge of the same words is there
// already; of two splits of one word onto the same two record words, the
// better one counts.
func appendSplitEdge(edges []edge, e edge) []edge {
	for i := range edges {
		o := &edges[i]
		if o.q0 == e.q0 && o.q1 == e.q1 && o.k0 == e.k0 && o.k1 == e.k1 {
			if e.value > o.value {
				*o = e
			}
			return edges
		}
	}
	return append(edges, e)
}

// wordEdges appends the edges of the word id at position k of a name
// string: the query words it pairs with alone, joined with the next query
// word or two, or as the first piece of a split query word whose later
// pieces are next[0] and next[1], the words after it (as many of them as
// the name string has, and the caller knows). scoreName and
// unindexedEdges build their edges with it.
func (sq *scoredQuery) wordEdges(edges []edge, id uint32, k int, next []uint32) []edge {
	for _, r := range sq.refs[id] {
		switch r.unit {
		case unitWord:
			edges = append(edges, edge{q0: int8(r.j), q1: -1, k0: int8(k), k1: -1, kind: r.p.kind, edits: r.p.edits,
				sim: r.p.sim, weight: r.p.w, value: sq.edgeValue(int(r.j), r.p)})
		case unitCat:
			edges = append(edges, edge{q0: int8(r.j), q1: int8(r.j + 1), k0: int8(k), k1: -1, kind: kindJoined, edits: r.p.edits,
				sim: r.p.sim * joinSim, weight: sq.catWeight(int(r.j), r.p), value: sq.catValue(int(r.j), r.p)})
		case unitCat3:
			edges = append(edges, sq.cat3Edge(int(r.j), k, r.p))
		case unitPieceA:
			if len(next) == 0 {
				continue
			}
			sp := &sq.splits[r.j][r.s]
			pb, ok := sp.b[next[0]]
			if !ok {
				continue
			}
			var pc partner
			if sp.c != nil {
				if len(next) < 2 {
					continue
				}
				if pc, ok = sp.c[next[1]]; !ok {
					continue
				}
			}
			if e, ok := sq.splitEdge(int(r.j), sp, r.p, pb, pc); ok {
				e.k0, e.k1 = int8(k), int8(k+1)
				if sp.c != nil {
					e.k1 = int8(k + 2)
				}
				edges = appendSplitEdge(edges, e)
			}
		}
	}
	return edges
}
