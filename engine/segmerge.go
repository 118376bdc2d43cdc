package engine

import (
	"bytes"
	"container/heap"
	"fmt"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/record"
)

// MergePart is one input of MergeSegments: a segment and its tombstones.
type MergePart struct {
	Segment *Segment
	Tomb    []uint64 // read only
}

// MergeStats says what a merge wrote.
type MergeStats struct {
	Records, Dropped int // live records written; dead ones left out
	Tokens           int
	Bytes            int64
}

// dropped marks an ordinal, name string or token a merge leaves out.
const dropped = ^uint32(0)

// MergeSegments writes to w one segment holding the live records of parts,
// in part order and, within a part, in ordinal order: what a fresh build
// over the same records in that order would hold (answers are the same;
// the bytes may differ in the order of sources). Records tombstoned in
// their part are left out, with every token only they held; when one id
// is live in several parts (an import that lists a record twice, built in
// pieces), the copy in the latest part wins.
//
// It streams: the parts are read in order, section by section, and memory
// is bounded by the merged dictionary and one remap table per part
// (tokens, name strings and records of the part → their number in the
// merged segment), not by the records. Remaps are monotonic, so posting
// lists concatenated in part order stay sorted.
func MergeSegments(w SegmentSink, parts []MergePart) (MergeStats, error) {
	_, st, err := mergeSegments(w, parts)
	return st, err
}

func mergeSegments(w SegmentSink, parts []MergePart) (*merger, MergeStats, error) {
	m := &merger{parts: make([]mergeIn, len(parts))}
	for i, p := range parts {
		m.parts[i] = mergeIn{Segment: p.Segment, tomb: append([]uint64(nil), p.Tomb...)}
	}
	m.dedupe()
	m.remapRecords()
	m.mergeTokens()
	if m.err != nil {
		return nil, MergeStats{}, m.err
	}
	sw := newSegWriter(w)
	for _, step := range []func(*segWriter){m.writeDictionary, m.writePostings, m.writeNames, m.writeRecords, m.writeIDs, m.writeSources} {
		step(sw)
		if m.err != nil {
			return nil, MergeStats{}, m.err
		}
	}
	n, err := sw.finish(segCounts{tokens: m.tokens, names: m.names, records: m.records, sources: len(m.srcIDs)})
	if err != nil {
		return nil, MergeStats{}, err
	}
	return m, MergeStats{Records: m.records, Dropped: m.dropped, Tokens: m.tokens, Bytes: n}, nil
}

// mergeIn is one part with its remap tables.
type mergeIn struct {
	*Segment
	tomb   []uint64
	recMap []uint32 // ordinal → merged ordinal, or dropped
	nsMap  []uint32 // name string → merged name string, or dropped
	tokMap []uint32 // token → merged token, or dropped
	srcMap []uint16 // source → merged source
}

type merger struct {
	parts                  []mergeIn
	records, names, tokens int
	dropped                int
	tokOff                 []uint32 // merged dictionary
	tokBlob                []byte
	runes                  []uint8
	indexed                []uint64
	srcIDs, srcTypes       []string
	err                    error
}

// idCursor is a position in one part's sorted ids or tokens, for the
// k-way merges of MergeSegments.
type idCursor struct {
	part int
	pos  int
}

// cursorHeap orders part cursors for a k-way merge by a key each cursor
// points at (an id, a token); equal keys come in part order.
type cursorHeap struct {
	cur []idCursor
	key func(c idCursor) []byte
}

func (h *cursorHeap) Len() int { return len(h.cur) }
func (h *cursorHeap) Less(i, j int) bool {
	a, b := h.cur[i], h.cur[j]
	if c := bytes.Compare(h.key(a), h.key(b)); c != 0 {
		return c < 0
	}
	return a.part < b.part
}
func (h *cursorHeap) Swap(i, j int) { h.cur[i], h.cur[j] = h.cur[j], h.cur[i] }
func (h *cursorHeap) Push(x any)    { h.cur = append(h.cur, x.(idCursor)) }
func (h *cursorHeap) Pop() any {
	x := h.cur[len(h.cur)-1]
	h.cur = h.cur[:len(h.cur)-1]
	return x
}

// forEachID calls fn for every ordinal the parts list as live, in id
// order, equal ids in part order; tombstoned ordinals are skipped.
func (m *merger) forEachID(fn func(part int, ord uint32)) {
	h := &cursorHeap{key: func(c idCursor) []byte {
		p := &m.parts[c.part]
		return p.idBytes(p.idOrder[c.pos])
	}}
	next := func(c idCursor) {
		p := &m.parts[c.part]
		for ; c.pos < len(p.idOrder); c.pos++ {
			if !hasBit(p.tomb, p.idOrder[c.pos]) {
				heap.Push(h, c)
				return
			}
		}
	}
	for i := range m.parts {
		next(idCursor{part: i})
	}
	for h.Len() > 0 {
		c := heap.Pop(h).(idCursor)
		fn(c.part, m.parts[c.part].idOrder[c.pos])
		c.pos++
		next(c)
	}
}

// dedupe tombstones every live copy of an id but the one in the latest
// part.
func (m *merger) dedupe() {
	var last []byte
	lastPart, lastOrd := -1, uint32(0)
	m.forEachID(func(part int, ord uint32) {
		id := m.parts[part].idBytes(ord)
		if lastPart >= 0 && bytes.Equal(id, last) {
			setBit(&m.parts[lastPart].tomb, lastOrd)
		}
		last, lastPart, lastOrd = id, part, ord
	})
}

// remapRecords numbers the live records and their name strings.
func (m *merger) remapRecords() {
	for i := range m.parts {
		p := &m.parts[i]
		p.recMap = make([]uint32, p.Records())
		for ord := range p.recMap {
			if hasBit(p.tomb, uint32(ord)) {
				p.recMap[ord] = dropped
				m.dropped++
				continue
			}
			p.recMap[ord] = uint32(m.records)
			m.records++
		}
		p.nsMap = make([]uint32, len(p.nsRec))
		for ns, ord := range p.nsRec {
			if p.recMap[ord] == dropped {
				p.nsMap[ns] = dropped
				continue
			}
			p.nsMap[ns] = uint32(m.names)
			m.names++
		}
	}
}

// mergeTokens finds the tokens live records still hold, and whether each
// pairs fuzzily, and merges them into one sorted dictionary with a remap
// per part.
func (m *merger) mergeTokens() {
	const (
		live   = 1
		fuzzy  = 2
		marked = live | fuzzy
	)
	for i := range m.parts {
		p := &m.parts[i]
		state := make([]uint8, p.Len())
		for ns := range p.nsRec {
			if p.nsMap[ns] != dropped {
				for _, t := range p.nameToks(uint32(ns)) {
					state[t] = marked
				}
			}
		}
		for ord := range p.recMap {
			if p.recMap[ord] == dropped {
				continue
			}
			toks, names := p.bag(uint32(ord))
			for k, t := range toks {
				state[t] |= live
				if k < names && p.IsIndexed(t) {
					state[t] |= fuzzy
				}
			}
		}
		p.tokMap = make([]uint32, len(state))
		for t, s := range state {
			p.tokMap[t] = dropped
			if s&live != 0 {
				p.tokMap[t] = uint32(s) // marks for now; numbered below
			}
		}
	}
	h := &cursorHeap{key: func(c idCursor) []byte { return m.parts[c.part].TokenBytes(uint32(c.pos)) }}
	next := func(part, from int) {
		p := &m.parts[part]
		for t := from; t < len(p.tokMap); t++ {
			if p.tokMap[t] != dropped {
				heap.Push(h, idCursor{part: part, pos: t})
				return
			}
		}
	}
	for i := range m.parts {
		next(i, 0)
	}
	m.tokOff = []uint32{0}
	var last []byte
	for h.Len() > 0 {
		c := heap.Pop(h).(idCursor)
		p := &m.parts[c.part]
		tok := p.TokenBytes(uint32(c.pos))
		s := p.tokMap[c.pos]
		if m.tokens == 0 || !bytes.Equal(tok, last) {
			m.tokBlob = append(m.tokBlob, tok...)
			if uint64(len(m.tokBlob)) > 1<<32-1 {
				m.err = fmt.Errorf("merge: the dictionary outgrows a segment")
				return
			}
			m.tokOff = append(m.tokOff, uint32(len(m.tokBlob)))
			m.runes = append(m.runes, p.Runes[c.pos])
			m.tokens++
			last = m.tokBlob[m.tokOff[m.tokens-1]:]
		}
		id := uint32(m.tokens - 1)
		if s&fuzzy != 0 {
			setBit(&m.indexed, id)
		}
		p.tokMap[c.pos] = id
		next(c.part, c.pos+1)
	}
	for len(m.indexed) < (m.tokens+63)/64 {
		m.indexed = append(m.indexed, 0)
	}
}

func (m *merger) writeDictionary(sw *segWriter) {
	sw.u32(secTokOff, m.tokOff)
	sw.bytes(secTokBlob, m.tokBlob)
	sw.bytes(secTokRunes, m.runes)
	sw.u64(secTokIndexed, m.indexed)
	keys, goff, gids, lenOff, lenIDs := dict.BuildGrams(m.tokens,
		func(i uint32) []byte { return m.tokBlob[m.tokOff[i]:m.tokOff[i+1]] },
		func(i uint32) bool { return hasBit(m.indexed, i) },
		func(i uint32) int { return int(m.runes[i]) })
	sw.u64(secGramKeys, keys)
	sw.u32(secGramOff, goff)
	sw.u32(secGramIDs, gids)
	sw.u32(secLenOff, lenOff)
	sw.u32(secLenIDs, lenIDs)
}

// forEachToken calls fn for every merged token with, for each part, the
// part's token of the same text or dropped: the parts' dictionaries are
// walked in step, which the monotonic remaps allow.
func (m *merger) forEachToken(fn func(id uint32, old []uint32)) {
	pos := make([]int, len(m.parts))
	old := make([]uint32, len(m.parts))
	for id := range uint32(m.tokens) {
		for i := range m.parts {
			p := &m.parts[i]
			for pos[i] < len(p.tokMap) && (p.tokMap[pos[i]] == dropped || p.tokMap[pos[i]] < id) {
				pos[i]++
			}
			old[i] = dropped
			if pos[i] < len(p.tokMap) && p.tokMap[pos[i]] == id {
				old[i] = uint32(pos[i])
			}
		}
		fn(id, old)
	}
}

// writePostings writes both posting sections, each list before its
// offsets (which are counted while the lists are written).
func (m *merger) writePostings(sw *segWriter) {
	for _, kind := range []struct {
		offID, listID uint32
		list          func(p *mergeIn, t uint32) []uint32
		remap         func(p *mergeIn) []uint32
	}{
		{secPostOff, secPost, func(p *mergeIn, t uint32) []uint32 { return p.postings(t) }, func(p *mergeIn) []uint32 { return p.nsMap }},
		{secBagPostOff, secBagPost, func(p *mergeIn, t uint32) []uint32 { return p.bagPostings(t) }, func(p *mergeIn) []uint32 { return p.recMap }},
	} {
		off := make([]uint32, m.tokens+1)
		total := uint64(0)
		var buf []uint32
		sw.begin(kind.listID)
		m.forEachToken(func(id uint32, old []uint32) {
			buf = buf[:0]
			for i, t := range old {
				if t == dropped {
					continue
				}
				p := &m.parts[i]
				remap := kind.remap(p)
				for _, x := range kind.list(p, t) {
					if y := remap[x]; y != dropped {
						buf = append(buf, y)
					}
				}
			}
			sw.addU32s(buf)
			total += uint64(len(buf))
			if total > 1<<32-1 && m.err == nil {
				m.err = fmt.Errorf("merge: postings outgrow a segment")
			}
			off[id+1] = uint32(total)
		})
		sw.end()
		sw.u32(kind.offID, off)
	}
}

// liveNames calls fn for every name string a merge keeps, in order.
func (m *merger) liveNames(fn func(p *mergeIn, ns uint32)) {
	for i := range m.parts {
		p := &m.parts[i]
		for ns, n := range p.nsMap {
			if n != dropped {
				fn(p, uint32(ns))
			}
		}
	}
}

// liveRecords calls fn for every record a merge keeps, in order.
func (m *merger) liveRecords(fn func(p *mergeIn, ord uint32)) {
	for i := range m.parts {
		p := &m.parts[i]
		for ord, n := range p.recMap {
			if n != dropped {
				fn(p, uint32(ord))
			}
		}
	}
}

// offsetsOf writes an offsets section over the kept items, counted by n.
func (m *merger) offsetsOf(sw *segWriter, id uint32, each func(func(p *mergeIn, i uint32)), n func(p *mergeIn, i uint32) int) {
	sw.begin(id)
	total := uint64(0)
	sw.addU32s([]uint32{0})
	var buf []uint32
	each(func(p *mergeIn, i uint32) {
		total += uint64(n(p, i))
		if total > 1<<32-1 && m.err == nil {
			m.err = fmt.Errorf("merge: section %d outgrows a segment", id)
		}
		buf = append(buf, uint32(total))
		if len(buf) == 4096 {
			sw.addU32s(buf)
			buf = buf[:0]
		}
	})
	sw.addU32s(buf)
	sw.end()
}

// stream writes one section of the kept items, each adding its elements
// to a buffer flushed as it fills.
func stream[T any](sw *segWriter, id uint32, each func(func(p *mergeIn, i uint32)), add func(buf []T, p *mergeIn, i uint32) []T, flush func([]T)) {
	sw.begin(id)
	var buf []T
	each(func(p *mergeIn, i uint32) {
		buf = add(buf, p, i)
		if len(buf) >= 16384 {
			flush(buf)
			buf = buf[:0]
		}
	})
	flush(buf)
	sw.end()
}

func (m *merger) writeNames(sw *segWriter) {
	names := m.liveNames
	m.offsetsOf(sw, secNSOff, names, func(p *mergeIn, ns uint32) int { return len(p.nameToks(ns)) })
	stream(sw, secNSTok, names, func(buf []uint32, p *mergeIn, ns uint32) []uint32 {
		for _, t := range p.nameToks(ns) {
			buf = append(buf, p.tokMap[t])
		}
		return buf
	}, sw.addU32s)
	stream(sw, secNSRec, names, func(buf []uint32, p *mergeIn, ns uint32) []uint32 {
		return append(buf, p.recMap[p.nsRec[ns]])
	}, sw.addU32s)
	stream(sw, secNSBase, names, func(buf []byte, p *mergeIn, ns uint32) []byte { return append(buf, p.nsBase[ns]) }, sw.add)
	stream(sw, secNSSlot, names, func(buf []uint16, p *mergeIn, ns uint32) []uint16 { return append(buf, p.nsSlot[ns]) }, sw.addU16s)
}

func (m *merger) writeRecords(sw *segWriter) {
	recs := m.liveRecords
	// Sources: merged by id, numbered in order of first use.
	srcIdx := map[string]uint16{}
	for i := range m.parts {
		p := &m.parts[i]
		p.srcMap = make([]uint16, p.sources())
		for k := range p.sources() {
			id, typ := p.source(uint16(k))
			n, ok := srcIdx[id]
			if !ok {
				if len(m.srcIDs) >= 1<<16 {
					m.err = fmt.Errorf("merge: more than %d sources", 1<<16)
					return
				}
				n = uint16(len(m.srcIDs))
				srcIdx[id] = n
				m.srcIDs = append(m.srcIDs, id)
				m.srcTypes = append(m.srcTypes, typ)
			}
			p.srcMap[k] = n
		}
	}
	stream(sw, secRecSrc, recs, func(buf []uint16, p *mergeIn, ord uint32) []uint16 {
		return append(buf, p.srcMap[p.recSrc[ord]])
	}, sw.addU16s)
	stream(sw, secRecFlags, recs, func(buf []byte, p *mergeIn, ord uint32) []byte { return append(buf, p.recFlags[ord]) }, sw.add)
	m.offsetsOf(sw, secDOBOff, recs, func(p *mergeIn, ord uint32) int { return int(p.dobOff[ord+1] - p.dobOff[ord]) })
	stream(sw, secDOBs, recs, func(buf []uint32, p *mergeIn, ord uint32) []uint32 {
		return append(buf, datesU32(p.dobs[p.dobOff[ord]:p.dobOff[ord+1]])...)
	}, sw.addU32s)
	m.offsetsOf(sw, secCitOff, recs, func(p *mergeIn, ord uint32) int { return int(p.citOff[ord+1] - p.citOff[ord]) })
	stream(sw, secCits, recs, func(buf []uint16, p *mergeIn, ord uint32) []uint16 {
		return append(buf, p.cits[p.citOff[ord]:p.citOff[ord+1]]...)
	}, sw.addU16s)
	m.offsetsOf(sw, secBagOff, recs, func(p *mergeIn, ord uint32) int { return int(p.bagOff[ord+1] - p.bagOff[ord]) })
	stream(sw, secBagTok, recs, func(buf []uint32, p *mergeIn, ord uint32) []uint32 {
		toks, _ := p.bag(ord)
		for _, t := range toks {
			buf = append(buf, p.tokMap[t])
		}
		return buf
	}, sw.addU32s)
	stream(sw, secBagNames, recs, func(buf []uint32, p *mergeIn, ord uint32) []uint32 { return append(buf, p.bagNames[ord]) }, sw.addU32s)
}

func (m *merger) writeIDs(sw *segWriter) {
	recs := m.liveRecords
	m.offsetsOf(sw, secIDOff, recs, func(p *mergeIn, ord uint32) int { return len(p.idBytes(ord)) })
	stream(sw, secIDBlob, recs, func(buf []byte, p *mergeIn, ord uint32) []byte { return append(buf, p.idBytes(ord)...) }, sw.add)
	// Every kept record is live in exactly one part after dedupe, so the
	// k-way merge of the parts' id orders lists each once.
	stream(sw, secIDOrder, func(fn func(p *mergeIn, ord uint32)) {
		m.forEachID(func(part int, ord uint32) { fn(&m.parts[part], ord) })
	}, func(buf []uint32, p *mergeIn, ord uint32) []uint32 { return append(buf, p.recMap[ord]) }, sw.addU32s)
}

func (m *merger) writeSources(sw *segWriter) {
	writeStrings(sw, secSrcOff, secSrcBlob, m.srcIDs)
	writeStrings(sw, secSrcTypeOff, secSrcTypeBlob, m.srcTypes)
}

// mergedRecords returns the records beside the merged segment when every
// part keeps its records beside it, else nil.
func (m *merger) mergedRecords() []*record.Record {
	out := []*record.Record{}
	for i := range m.parts {
		if m.parts[i].recs == nil && m.parts[i].Records() > 0 {
			return nil
		}
	}
	m.liveRecords(func(p *mergeIn, ord uint32) { out = append(out, p.recs[ord]) })
	return out
}

// Merge policy. Many small segments cost every search a dictionary
// look-up each, and tombstones cost memory and time: a change set's
// segment joins the others until one of these holds, and then a merge
// folds a suffix of the segments (the newest ones) into one.
const (
	// MaxDeltaSegments is how many segments may follow the first (the
	// base) before they are merged into one.
	MaxDeltaSegments = 8
	// DeltaShare: when the segments after the base hold more than this
	// share of the base's records, everything is merged into a new base.
	DeltaShare = 0.10
	// DeadShare: when tombstones exceed this share of the live records
	// (and mergeFloor), everything is merged, dropping them.
	DeadShare = 0.25
	// mergeFloor spares small indexes merges that would save nothing.
	mergeFloor = 1000
)

// PlanMerge picks the segments to merge from segs (an index's state,
// oldest first): the suffix from index from, with ok false when nothing
// needs merging.
func PlanMerge(segs []SegmentState) (from int, ok bool) {
	if len(segs) < 2 {
		if len(segs) == 1 && needsPurge(segs) {
			return 0, true
		}
		return 0, false
	}
	base := segs[0].Segment.Records()
	deltas := 0
	for _, s := range segs[1:] {
		deltas += s.Segment.Records()
	}
	switch {
	case needsPurge(segs), float64(deltas) > DeltaShare*float64(base):
		return 0, true
	case len(segs)-1 > MaxDeltaSegments:
		return 1, true
	}
	return 0, false
}

// needsPurge reports whether the tombstones of segs are worth a merge.
func needsPurge(segs []SegmentState) bool {
	live, total := 0, 0
	for _, s := range segs {
		live += s.Live
		total += s.Segment.Records()
	}
	dead := total - live
	return dead >= mergeFloor && float64(dead) > DeadShare*float64(live)
}

// mergePlan returns the parts of the current state PlanMerge picks, nil
// when none. The caller holds ix.mu.
func (ix *Index) mergePlan() []SegmentState {
	segs := ix.Segments()
	from, ok := PlanMerge(segs)
	if !ok {
		return nil
	}
	return segs[from:]
}

// mergeInMemory merges the suffix plan of the current segments into one
// segment in memory, records beside it, and makes that current. The
// caller holds ix.mu.
func (ix *Index) mergeInMemory(plan []SegmentState) error {
	parts := make([]MergePart, len(plan))
	for i, s := range plan {
		parts[i] = MergePart{Segment: s.Segment, Tomb: s.Tomb}
	}
	var sink memSink
	m, _, err := mergeSegments(&sink, parts)
	if err != nil {
		return err
	}
	seg, err := openSegment(sink.b, nil, false)
	if err != nil {
		return err
	}
	seg.recs = m.mergedRecords()
	return ix.replaceLocked(plan, seg, nil)
}

// ReplaceSegments makes the current state that of the index with the
// segments of old (a suffix of the current ones, as PlanMerge picks)
// replaced by merged, whose tombstones are tomb. It fails when the
// current segments do not end with old: the caller serialises merges
// with changes.
func (ix *Index) ReplaceSegments(old []SegmentState, merged *Segment, tomb []uint64) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.replaceLocked(old, merged, tomb)
}

func (ix *Index) replaceLocked(old []SegmentState, merged *Segment, tomb []uint64) error {
	v := ix.acquire()
	defer v.release()
	keep := len(v.segs) - len(old)
	if keep < 0 {
		return fmt.Errorf("replace segments: %d to replace of %d", len(old), len(v.segs))
	}
	for i, s := range old {
		sv := &v.segs[keep+i]
		if sv.Segment != s.Segment || !sameBits(sv.tomb, s.Tomb) {
			return fmt.Errorf("replace segments: the index changed since the merge began")
		}
	}
	segs := append([]segView(nil), v.segs[:keep]...)
	for i := range segs {
		segs[i].live = 0
	}
	segs = append(segs, segView{Segment: merged, tomb: tomb})
	ix.publish(newView(segs, v.src))
	return nil
}

// sameBits reports whether a and b are the same bitset (not equal ones:
// the same memory), which a published view never changes.
func sameBits(a, b []uint64) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// Compact returns a new index in memory over the live records of ix,
// merged into one segment without the postings of deleted and replaced
// records. ix is unchanged and answers searches meanwhile; a change
// applied to ix while Compact runs may be missing from the result, so the
// caller serialises the two.
func (ix *Index) Compact() *Index {
	out := &Index{}
	v := ix.acquire()
	out.publish(&view{segs: v.segs, src: v.src, live: v.live, dead: v.dead, types: v.types})
	v.release()
	out.mu.Lock()
	defer out.mu.Unlock()
	if err := out.mergeInMemory(out.Segments()); err != nil {
		panic(fmt.Sprintf("engine: compact: %v", err))
	}
	return out
}
