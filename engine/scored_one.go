package engine

import (
	"math"
	"slices"

	"github.com/amlscreen/amlscreen/query"
)

// ScoreRecord answers whether the record with this id is a hit of q in
// scored mode, as Search would rank it: the filters and entity types of q
// apply, and the record must score at least q's threshold. It scores the
// one record with the index's word statistics, so ongoing monitoring can
// match a changed record against a scored search profile without running
// the whole check. q.Match must be Scored; a record the index does not
// hold is no hit.
func (ix *Index) ScoreRecord(q query.Query, id string) (Hit, bool, error) {
	if q.Match != query.Scored {
		return Hit{}, false, &query.ParamError{Param: "match", Msg: "ScoreRecord scores match=scored checks only"}
	}
	c, err := compile(q)
	if err != nil {
		return Hit{}, false, err
	}
	if c.onlyLegal {
		return Hit{}, false, nil
	}
	v := ix.acquire()
	defer v.release()
	si, ord, ok := v.locate(id)
	if !ok {
		return Hit{}, false, nil
	}
	vs := v.scored()
	ss := &scoredSeg{segView: &v.segs[si], keys: vs.keys[si], df: vs.global[si], words: vs.words[si], wordsN: vs.n}
	if !ss.passes(c, ss.sourceMask(c), ord) {
		return Hit{}, false, nil
	}
	words := c.raw[0]
	if ss.et(ord) != etIndividual {
		words = c.legal[0] // as searchScored compares such records
	}
	sq := v.prepareScored(vs, c, words, nil).local(si)
	scr := scoredPool.Get().(*scoredScratch)
	defer scoredPool.Put(scr)
	defer scr.script.forget()
	lo, _ := slices.BinarySearch(ss.nsRec, ord)
	var best *scoredBest
	floor := sq.hitFloor(c.minScore)
	evd := weighEvidence(c, ss.facts(c, ord))
	for ns := uint32(lo); int(ns) < len(ss.nsRec) && ss.nsRec[ns] == ord; ns++ {
		cand, ok := ss.scoreCandidate(sq, ns, scr, floor, c.minScore, &evd)
		if !ok {
			continue
		}
		if best == nil || betterScored(cand, *best) {
			best = &cand
		}
	}
	if best == nil {
		return Hit{}, false, nil
	}
	qs := queryScript(c.text)
	if qs != nil {
		// As searchScored: the comparison in the shared script needs the
		// record's texts.
		one := &bestSet{keys: []uint64{uint64(si)<<32 | uint64(ord)}, bs: []scoredBest{*best}}
		segs := make([]scoredSeg, len(v.segs))
		segs[si] = *ss
		vr := []scoredVariant{{sel: best.sel, segs: make([]*scoredQuery, len(v.segs))}}
		vr[0].segs[si] = sq
		if err := v.rescoreInScript(c, segs, vr, one, qs, scr); err != nil {
			return Hit{}, false, err
		}
		if one.len() == 0 {
			return Hit{}, false, nil
		}
		best = &one.bs[0]
	}
	hits := []Hit{{ID: ss.id(ord), Exact: best.sc.exact, Edits: best.sc.edits, Extra: best.sc.extra, Score: best.score, Field: "name",
		seg: int32(si), ord: ord, slot: best.slot}}
	if err := v.fill(hits, false); err != nil {
		return Hit{}, false, err
	}
	h := hits[0]
	r := h.Record
	text := r.Name
	if names := NameStrings(r); int(best.slot) < len(names) {
		h.Field, text = names[best.slot].Field, names[best.slot].Text
	}
	ev, _ := ss.scoreName(sq, best.ns, scr, math.Inf(-1))
	ev = inScript(qs, text, ev)
	sh := ss.nameShape(sq, ss.nameWords(best.ns), scr)
	h.Reason = buildReason(sh, ev, scr.ps.best, wordTexts(sq.words), ss.nameTexts(best.ns), h.Field, text)
	evd.annotate(h.Reason, ev, c)
	return h, true, nil
}
