package engine

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// This file builds a segment from records: tokenise them (on every core,
// in batches), intern their tokens into the build's dictionary, append
// their name strings, postings and filter fields, and at the end sort the
// dictionary and write the image (segwrite.go). segmerge.go builds a
// segment from other segments instead.

// prepared is a record tokenised outside the build's dictionary. Its
// tokens are ids of the local dictionary of the batch it belongs to.
type prepared struct {
	rec   *record.Record
	names []preparedName
	// bag holds the distinct search_all tokens that no name string holds:
	// words of the other text fields, and name fields that make no name
	// string (given names of a record that is not an individual).
	bag []uint32
	// fuzzy holds the name-field tokens among bag, which pair fuzzily.
	fuzzy []uint32
	// bagToks is the whole search_all bag in order (recordBag), name-field
	// tokens first, bagNames of them.
	bagToks  []uint32
	bagNames int
	dobs     []query.Date
	cits     []uint16
}

type preparedName struct {
	toks []uint32
	base int
	slot uint16
}

// batch is a run of records prepared by one worker, with the dictionary of
// the tokens they hold. Interning into the build's dictionary then costs
// one look-up per distinct token of the batch instead of one per
// occurrence, and that is the only part of a build that cannot run on
// every core.
type batch struct {
	toks []string
	ids  map[string]uint32
	recs []prepared
	// scratch
	words []string
	names []NameString
	local []uint32
}

func (b *batch) id(tok string) uint32 {
	if id, ok := b.ids[tok]; ok {
		return id
	}
	id := uint32(len(b.toks))
	b.ids[tok] = id
	b.toks = append(b.toks, tok)
	return id
}

func (b *batch) prepare(r *record.Record) {
	p := prepared{rec: r}
	legal := usesLegalForms(r.EntityType)
	b.names = appendNameStrings(b.names[:0], r, false)
	for i, ns := range b.names {
		n := normalize.RecordName(ns.Text, legal)
		if len(n.Tokens) == 0 {
			continue
		}
		pn := preparedName{toks: make([]uint32, len(n.Tokens)), base: n.Base, slot: uint16(i)}
		for k, t := range n.Tokens {
			pn.toks[k] = b.id(t)
		}
		p.names = append(p.names, pn)
	}
	bg := recordBag(r)
	p.bagNames = len(bg.names)
	p.bagToks = make([]uint32, 0, bg.size())
	for _, t := range bg.names {
		p.bagToks = append(p.bagToks, b.id(t))
	}
	for _, t := range bg.others {
		p.bagToks = append(p.bagToks, b.id(t))
	}
	words := b.words[:0]
	if r.EntityType != record.EntityIndividual {
		// Individuals' given and last names are in their name strings.
		for _, l := range [][]string{r.GivenNames, r.LastNames, r.AliasGivenNames} {
			for _, v := range l {
				words = append(words, normalize.RecordName(v, legal).Tokens...)
			}
		}
		p.fuzzy = b.distinctIDs(words)
	}
	words = append(words, bg.others...)
	p.bag = b.distinctIDs(words)
	clear(words) // drop references to the record's strings
	b.words = words[:0]
	for _, s := range r.DateOfBirth {
		p.dobs = append(p.dobs, query.ParseRecordDate(s))
	}
	for _, s := range r.Citizenship {
		if c, ok := country.Code(s); ok {
			p.cits = append(p.cits, citCode(c))
		}
	}
	b.recs = append(b.recs, p)
}

// distinctIDs returns the distinct local ids of words, in a new slice.
func (b *batch) distinctIDs(words []string) []uint32 {
	ids := b.local[:0]
	for _, w := range words {
		ids = append(ids, b.id(w))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	b.local = ids
	return slices.Clone(ids)
}

func citCode(c string) uint16 { return uint16(c[0]-'A')*26 + uint16(c[1]-'A') }

// prepareAll tokenises records on every core, in contiguous batches, so
// ordinals follow the input order.
func prepareAll(recs []*record.Record) []*batch {
	workers := runtime.GOMAXPROCS(0)
	if len(recs) < 1000 {
		workers = 1
	}
	out := make([]*batch, 0, workers)
	var wg sync.WaitGroup
	chunk := (len(recs) + workers - 1) / max(workers, 1)
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(recs))
		if lo >= hi {
			break
		}
		b := &batch{ids: make(map[string]uint32), recs: make([]prepared, 0, hi-lo)}
		out = append(out, b)
		wg.Go(func() {
			for _, r := range recs[lo:hi] {
				b.prepare(r)
			}
		})
	}
	wg.Wait()
	return out
}

// segBuilder accumulates the arrays of one segment, with token ids of its
// own dictionary in the order tokens were first seen; finish sorts the
// dictionary and writes the image.
type segBuilder struct {
	ids     map[string]uint32
	toks    []string
	indexed []bool

	post, bagPost [][]uint32

	nsOff, nsTok, nsRec []uint32
	nsBase              []uint8
	nsSlot              []uint16

	recIDs   map[string]uint32 // id → ordinal of its latest copy
	idBlob   []byte
	idOff    []uint32
	recSrc   []uint16
	recFlags []uint8
	dobOff   []uint32
	dobs     []query.Date
	citOff   []uint32
	cits     []uint16
	bagOff   []uint32
	bagTok   []uint32
	bagNames []uint32

	sources  []string
	srcTypes []string
	srcIdx   map[string]uint16

	// dead marks records replaced by a later copy with the same id.
	dead []uint64
	// recs keeps the records beside the segment (keepRecords).
	recs        []*record.Record
	keepRecords bool
}

func newSegBuilder(keepRecords bool) *segBuilder {
	return &segBuilder{
		ids:    make(map[string]uint32),
		nsOff:  []uint32{0},
		idOff:  []uint32{0},
		dobOff: []uint32{0}, citOff: []uint32{0}, bagOff: []uint32{0},
		recIDs: make(map[string]uint32),
		srcIdx: make(map[string]uint16),
		// A segment holds at most 65,536 sources (segwrite.go); more is
		// refused when it is written.
		keepRecords: keepRecords,
	}
}

// intern returns the build's id of tok, adding it when new.
func (b *segBuilder) intern(tok string) uint32 {
	if id, ok := b.ids[tok]; ok {
		return id
	}
	// A token may be a substring of a record's text: keep a copy of its
	// own, so the build does not pin the record's memory.
	tok = strings.Clone(tok)
	id := uint32(len(b.toks))
	b.ids[tok] = id
	b.toks = append(b.toks, tok)
	b.indexed = append(b.indexed, false)
	b.post = append(b.post, nil)
	b.bagPost = append(b.bagPost, nil)
	return id
}

// addBatch appends a prepared batch in order, mapping its local token ids
// to the build's.
func (b *segBuilder) addBatch(bt *batch) {
	remap := make([]uint32, len(bt.toks))
	for i, t := range bt.toks {
		remap[i] = b.intern(t)
	}
	for i := range bt.recs {
		b.add(&bt.recs[i], remap)
	}
}

// add appends one prepared record. A record whose id the build holds
// already replaces it: the earlier copy is marked dead.
func (b *segBuilder) add(p *prepared, remap []uint32) {
	r := p.rec
	ord := uint32(len(b.recFlags))
	if old, ok := b.recIDs[r.ID]; ok {
		setBit(&b.dead, old)
		b.recIDs[r.ID] = ord
	} else {
		b.recIDs[strings.Clone(r.ID)] = ord
	}
	b.idBlob = append(b.idBlob, r.ID...)
	b.idOff = append(b.idOff, uint32(len(b.idBlob)))
	if b.keepRecords {
		b.recs = append(b.recs, r)
	}

	src, ok := b.srcIdx[r.SourceID]
	if !ok {
		src = uint16(len(b.sources))
		b.srcIdx[strings.Clone(r.SourceID)] = src
		b.sources = append(b.sources, r.SourceID)
		b.srcTypes = append(b.srcTypes, r.SourceType)
	}
	b.recSrc = append(b.recSrc, src)
	flags := etCode(r.EntityType)
	switch r.Gender {
	case record.GenderMale:
		flags |= flagGenderMale
	case record.GenderFemale:
		flags |= flagGenderFem
	}
	if len(r.Citizenship) > 0 {
		flags |= flagHasCit
	}
	b.recFlags = append(b.recFlags, flags)
	b.dobs = append(b.dobs, p.dobs...)
	b.dobOff = append(b.dobOff, uint32(len(b.dobs)))
	b.cits = append(b.cits, p.cits...)
	b.citOff = append(b.citOff, uint32(len(b.cits)))
	for _, local := range p.bagToks {
		b.bagTok = append(b.bagTok, remap[local])
	}
	b.bagOff = append(b.bagOff, uint32(len(b.bagTok)))
	b.bagNames = append(b.bagNames, uint32(p.bagNames))

	for _, n := range p.names {
		nsID := uint32(len(b.nsRec))
		for _, local := range n.toks {
			id := remap[local]
			b.indexed[id] = true
			b.nsTok = append(b.nsTok, id)
			if l := b.post[id]; len(l) == 0 || l[len(l)-1] != nsID {
				b.post[id] = append(l, nsID)
			}
		}
		b.nsOff = append(b.nsOff, uint32(len(b.nsTok)))
		b.nsRec = append(b.nsRec, ord)
		b.nsBase = append(b.nsBase, uint8(min(n.base, 255)))
		b.nsSlot = append(b.nsSlot, n.slot)
	}
	for _, local := range p.fuzzy {
		b.indexed[remap[local]] = true
	}
	for _, local := range p.bag {
		id := remap[local]
		b.bagPost[id] = append(b.bagPost[id], ord)
	}
}

// records returns the number of records added.
func (b *segBuilder) records() int { return len(b.recFlags) }

// finish writes the segment image to w. The builder is spent afterwards:
// its arrays are rewritten in place.
func (b *segBuilder) finish(w SegmentSink) (int64, error) {
	order, rank := b.tokenOrder()
	sw := newSegWriter(w)
	if err := b.writeDict(sw, order); err != nil {
		return 0, err
	}
	if err := b.writePostings(sw, order); err != nil {
		return 0, err
	}
	b.writeNames(sw, rank)
	b.writeRecords(sw, rank)
	b.writeIDs(sw)
	writeStrings(sw, secSrcOff, secSrcBlob, b.sources)
	writeStrings(sw, secSrcTypeOff, secSrcTypeBlob, b.srcTypes)
	return sw.finish(segCounts{tokens: len(b.toks), names: len(b.nsRec), records: b.records(), sources: len(b.sources)})
}

// tokenOrder returns the build's token ids in dictionary order, and rank,
// which maps a build id to its segment id.
func (b *segBuilder) tokenOrder() (order, rank []uint32) {
	T := len(b.toks)
	order = make([]uint32, T)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(x, y uint32) int { return strings.Compare(b.toks[x], b.toks[y]) })
	rank = make([]uint32, T)
	for r, id := range order {
		rank[id] = uint32(r)
	}
	return order, rank
}

// writeDict writes the dictionary in order: the tokens, their rune
// counts, which are indexed, and the n-gram and length tables over them.
func (b *segBuilder) writeDict(sw *segWriter, order []uint32) error {
	T := len(order)
	tokOff, err := offsets(T, func(i int) int { return len(b.toks[order[i]]) })
	if err != nil {
		return err
	}
	sw.u32(secTokOff, tokOff)
	sw.begin(secTokBlob)
	for _, id := range order {
		sw.add(unsafeBytes(b.toks[id]))
	}
	sw.end()
	runes := make([]uint8, T)
	indexed := make([]uint64, (T+63)/64)
	for r, id := range order {
		runes[r] = uint8(min(255, utf8.RuneCountInString(b.toks[id])))
		if b.indexed[id] {
			indexed[r/64] |= 1 << (r % 64)
		}
	}
	sw.bytes(secTokRunes, runes)
	sw.u64(secTokIndexed, indexed)
	keys, goff, gids, lenOff, lenIDs := dict.BuildGrams(T,
		func(i uint32) []byte { return unsafeBytes(b.toks[order[i]]) },
		func(i uint32) bool { return indexed[i/64]&(1<<(i%64)) != 0 },
		func(i uint32) int { return int(runes[i]) })
	sw.u64(secGramKeys, keys)
	sw.u32(secGramOff, goff)
	sw.u32(secGramIDs, gids)
	sw.u32(secLenOff, lenOff)
	sw.u32(secLenIDs, lenIDs)
	return nil
}

// writePostings writes the name and bag posting lists, in segment token
// order.
func (b *segBuilder) writePostings(sw *segWriter, order []uint32) error {
	for _, p := range []struct {
		offID, listID uint32
		lists         [][]uint32
	}{{secPostOff, secPost, b.post}, {secBagPostOff, secBagPost, b.bagPost}} {
		off, err := offsets(len(order), func(i int) int { return len(p.lists[order[i]]) })
		if err != nil {
			return err
		}
		sw.u32(p.offID, off)
		sw.begin(p.listID)
		for _, id := range order {
			sw.addU32s(p.lists[id])
		}
		sw.end()
	}
	return nil
}

// writeNames writes the name strings, their tokens renumbered by rank.
func (b *segBuilder) writeNames(sw *segWriter, rank []uint32) {
	for i, id := range b.nsTok {
		b.nsTok[i] = rank[id]
	}
	sw.u32(secNSOff, b.nsOff)
	sw.u32(secNSTok, b.nsTok)
	sw.u32(secNSRec, b.nsRec)
	sw.bytes(secNSBase, b.nsBase)
	sw.u16(secNSSlot, b.nsSlot)
}

// writeRecords writes the records' fields, their bag tokens renumbered
// by rank.
func (b *segBuilder) writeRecords(sw *segWriter, rank []uint32) {
	for i, id := range b.bagTok {
		b.bagTok[i] = rank[id]
	}
	sw.u16(secRecSrc, b.recSrc)
	sw.bytes(secRecFlags, b.recFlags)
	sw.u32(secDOBOff, b.dobOff)
	sw.u32(secDOBs, datesU32(b.dobs))
	sw.u32(secCitOff, b.citOff)
	sw.u16(secCits, b.cits)
	sw.u32(secBagOff, b.bagOff)
	sw.u32(secBagTok, b.bagTok)
	sw.u32(secBagNames, b.bagNames)
}

// writeIDs writes the record ids and the live ordinals sorted by id.
func (b *segBuilder) writeIDs(sw *segWriter) {
	sw.u32(secIDOff, b.idOff)
	sw.bytes(secIDBlob, b.idBlob)
	idOrder := make([]uint32, 0, len(b.recIDs))
	for _, ord := range b.recIDs {
		idOrder = append(idOrder, ord)
	}
	slices.SortFunc(idOrder, func(x, y uint32) int {
		return cmp.Compare(string(b.idBlob[b.idOff[x]:b.idOff[x+1]]), string(b.idBlob[b.idOff[y]:b.idOff[y+1]]))
	})
	sw.u32(secIDOrder, idOrder)
}

// writeStrings writes strings as an offsets section and a blob section.
func writeStrings(sw *segWriter, offID, blobID uint32, ss []string) {
	off, err := offsets(len(ss), func(i int) int { return len(ss[i]) })
	if err != nil {
		sw.err = err
		return
	}
	sw.u32(offID, off)
	sw.begin(blobID)
	for _, s := range ss {
		sw.add(unsafeBytes(s))
	}
	sw.end()
}

// build writes the segment into memory and opens it there, with the
// records beside it when the builder keeps them. dead lists the records
// replaced within the build.
func (b *segBuilder) build() (*Segment, []uint64, error) {
	recs, dead := b.recs, b.dead
	var m memSink
	if _, err := b.finish(&m); err != nil {
		return nil, nil, err
	}
	s, err := openSegment(m.b, nil, false)
	if err != nil {
		return nil, nil, err
	}
	s.recs = recs
	return s, dead, nil
}

// setBit sets bit i of the bitset *bs, growing it as needed.
func setBit(bs *[]uint64, i uint32) {
	for uint32(len(*bs)) <= i/64 {
		*bs = append(*bs, 0)
	}
	(*bs)[i/64] |= 1 << (i % 64)
}

// hasBit reports whether bit i of bs is set; bits past its end are clear.
func hasBit(bs []uint64, i uint32) bool {
	return i/64 < uint32(len(bs)) && bs[i/64]&(1<<(i%64)) != 0
}
