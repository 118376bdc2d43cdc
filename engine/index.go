package engine

import (
	"runtime"
	"slices"
	"sync"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// Index is the in-memory screening index. Searches may run concurrently
// with each other and with Apply; a search sees the database either before
// or after a whole change set, never part of one.
//
// Layout, chosen for memory at millions of records: records have compact
// ordinals; name strings are runs of token ids in one arena; posting lists
// are sorted slices of name-string ids (for names) and record ordinals (for
// search_all). Updates append and leave tombstones, so a change set costs
// what it changes, not a rebuild.
type Index struct {
	mu sync.RWMutex
	d  *dict.Dict

	// Name strings: tokens of name string i are nsTok[nsOff[i]:nsOff[i+1]].
	nsOff  []uint32
	nsTok  []uint32
	nsRec  []uint32 // record ordinal
	nsBase []uint8  // leading tokens that are words (the rest are joined compounds)
	nsSlot []uint16 // position in NameStrings(record), for Hit.Field

	post [][]uint32 // token id → name-string ids, ascending
	// bagPost maps a token to the records whose search_all bag holds it
	// outside their name strings, ascending. With post it finds every
	// search_all candidate.
	bagPost [][]uint32

	// bagTok holds each record's search_all bag (recordBag) as token ids:
	// record ord's are bagTok[info[ord].bagOff:bagEnd(ord)], its name-field
	// tokens first (bagNames of them), so that verifying a search_all
	// candidate tokenises nothing.
	bagTok []uint32

	recs []*record.Record // by ordinal; nil once deleted or replaced
	info []recInfo
	ids  map[string]uint32
	dobs []date
	cits []uint16

	sources  []string // source ids by source ordinal
	srcTypes []string // source_type of the first record of each source
	srcIdx   map[string]uint16

	live, dead int

	// sc is what scored mode adds, built on its first use.
	sc scoredStats
}

// recInfo is what the filters need of a record, parsed once.
type recInfo struct {
	src            uint16
	et             uint8 // etIndividual, etEntity, etUnknown, etOther
	gender         uint8 // 0 none or unknown, 1 male, 2 female
	dobOff, citOff uint32
	dobN, citN     uint16
	hasCit         bool
	bagOff         uint32
	bagNames       uint32 // name-field tokens at the start of the bag
}

const (
	etUnknown uint8 = iota
	etIndividual
	etEntity
	etOther
)

func etCode(et string) uint8 {
	switch et {
	case record.EntityIndividual:
		return etIndividual
	case record.EntityEntity:
		return etEntity
	case record.EntityUnknown, "":
		return etUnknown
	}
	return etOther
}

// NewIndex builds an index over recs. The records are shared, not copied:
// callers must not change them afterwards.
func NewIndex(recs []*record.Record) *Index {
	bl := NewBuilder(len(recs))
	for _, r := range recs {
		bl.Add(r)
	}
	return bl.Finish()
}

// prepared is a record tokenised outside the index lock. Its tokens are
// ids of the local dictionary of the batch it belongs to.
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
	dobs     []date
	cits     []uint16
}

type preparedName struct {
	toks []uint32
	base int
	slot uint16
}

// batch is a run of records prepared by one worker, with the dictionary of
// the tokens they hold. Interning into the index's dictionary then costs
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
		p.dobs = append(p.dobs, parseRecordDate(s))
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

// addAll adds prepared batches in order, mapping local token ids to the
// index's.
func (ix *Index) addAll(bs []*batch) {
	for _, b := range bs {
		remap := make([]uint32, len(b.toks))
		for i, t := range b.toks {
			remap[i] = ix.d.Intern(t)
		}
		ix.growPostings()
		for i := range b.recs {
			ix.add(&b.recs[i], remap)
		}
	}
}

// add appends a prepared record; the caller holds the write lock (or owns
// the index during a build). A record whose id is present replaces it.
func (ix *Index) add(p *prepared, remap []uint32) {
	r := p.rec
	ix.remove(r.ID)
	ord := uint32(len(ix.recs))
	ix.recs = append(ix.recs, r)
	ix.ids[r.ID] = ord
	ix.live++

	src, ok := ix.srcIdx[r.SourceID]
	if !ok {
		src = uint16(len(ix.sources))
		ix.srcIdx[r.SourceID] = src
		ix.sources = append(ix.sources, r.SourceID)
		ix.srcTypes = append(ix.srcTypes, r.SourceType)
	}
	inf := recInfo{src: src, et: etCode(r.EntityType), hasCit: len(r.Citizenship) > 0,
		bagOff: uint32(len(ix.bagTok)), bagNames: uint32(p.bagNames)}
	for _, local := range p.bagToks {
		ix.bagTok = append(ix.bagTok, remap[local])
	}
	switch r.Gender {
	case record.GenderMale:
		inf.gender = 1
	case record.GenderFemale:
		inf.gender = 2
	}
	inf.dobOff, inf.dobN = uint32(len(ix.dobs)), uint16(len(p.dobs))
	ix.dobs = append(ix.dobs, p.dobs...)
	inf.citOff, inf.citN = uint32(len(ix.cits)), uint16(len(p.cits))
	ix.cits = append(ix.cits, p.cits...)
	ix.info = append(ix.info, inf)

	nsLo := len(ix.nsRec)
	for _, n := range p.names {
		nsID := uint32(len(ix.nsRec))
		for _, local := range n.toks {
			id := remap[local]
			ix.d.Index(id)
			ix.nsTok = append(ix.nsTok, id)
			if l := ix.post[id]; len(l) == 0 || l[len(l)-1] != nsID {
				ix.post[id] = append(l, nsID)
			}
		}
		ix.nsOff = append(ix.nsOff, uint32(len(ix.nsTok)))
		ix.nsRec = append(ix.nsRec, ord)
		ix.nsBase = append(ix.nsBase, uint8(min(n.base, 255)))
		ix.nsSlot = append(ix.nsSlot, n.slot)
	}
	if ix.sc.ready.Load() {
		ix.sc.added(ix, ord, nsLo, len(ix.nsRec))
	}
	for _, local := range p.fuzzy {
		ix.d.Index(remap[local])
	}
	for _, local := range p.bag {
		id := remap[local]
		ix.bagPost[id] = append(ix.bagPost[id], ord)
	}
}

func (ix *Index) growPostings() {
	for len(ix.post) < ix.d.Len() {
		ix.post = append(ix.post, nil)
		ix.bagPost = append(ix.bagPost, nil)
	}
}

// bag returns record ord's search_all bag and how many of its tokens,
// at the start, are name-field tokens.
func (ix *Index) bag(ord uint32) (toks []uint32, names int) {
	end := uint32(len(ix.bagTok))
	if int(ord)+1 < len(ix.info) {
		end = ix.info[ord+1].bagOff
	}
	inf := &ix.info[ord]
	return ix.bagTok[inf.bagOff:end], int(inf.bagNames)
}

// remove tombstones the record with this id, if present. Its postings stay
// until a rebuild; searches skip them.
func (ix *Index) remove(id string) bool {
	ord, ok := ix.ids[id]
	if !ok {
		return false
	}
	if ix.sc.ready.Load() {
		ix.sc.removed(ix, ord)
	}
	ix.recs[ord] = nil
	delete(ix.ids, id)
	ix.live--
	ix.dead++
	return true
}

// ApplyStats counts what a change set did to the index.
type ApplyStats struct {
	Added, Updated, Deleted int
	// UpdatedUnknown counts UPDATEs of ids not in the index, applied as
	// ADDs; DeletedUnknown counts DELETEs of unknown ids, which do nothing.
	UpdatedUnknown, DeletedUnknown int
}

// Apply applies a change set. Tokenising happens before the write lock is
// taken; under the lock only appends and tombstones remain, so searches
// wait for milliseconds, and never see part of the set.
func (ix *Index) Apply(changes []record.Change) ApplyStats {
	recs := make([]*record.Record, 0, len(changes))
	for i := range changes {
		if changes[i].Type != record.ChangeDelete {
			r := changes[i].Record // a copy the index owns
			recs = append(recs, &r)
		}
	}
	bs := prepareAll(recs)
	var st ApplyStats
	ix.mu.Lock()
	defer ix.mu.Unlock()
	// Records are added in change order: batches are contiguous runs of it.
	var ps []*prepared
	var remaps [][]uint32
	for _, b := range bs {
		remap := make([]uint32, len(b.toks))
		for i, t := range b.toks {
			remap[i] = ix.d.Intern(t)
		}
		for i := range b.recs {
			ps = append(ps, &b.recs[i])
			remaps = append(remaps, remap)
		}
	}
	ix.growPostings()
	k := 0
	for i := range changes {
		c := &changes[i]
		_, known := ix.ids[c.Record.ID]
		switch c.Type {
		case record.ChangeDelete:
			if ix.remove(c.Record.ID) {
				st.Deleted++
			} else {
				st.DeletedUnknown++
			}
			continue
		case record.ChangeUpdate:
			if known {
				st.Updated++
			} else {
				st.UpdatedUnknown++
			}
		default:
			if known {
				st.Updated++
			} else {
				st.Added++
			}
		}
		ix.add(ps[k], remaps[k])
		k++
	}
	return st
}

// Len returns the number of live records.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Get returns the record with this id, or nil. The record is shared: read
// only.
func (ix *Index) Get(id string) *record.Record {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ord, ok := ix.ids[id]; ok {
		return ix.recs[ord]
	}
	return nil
}

// ForEach calls fn for every live record in ordinal order, under the read
// lock: fn must not call Apply.
func (ix *Index) ForEach(fn func(*record.Record)) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, r := range ix.recs {
		if r != nil {
			fn(r)
		}
	}
}

// Garbage returns the number of live records and of tombstones: records
// deleted or replaced whose postings the index still holds.
func (ix *Index) Garbage() (live, dead int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live, ix.dead
}

// Compact returns a new index over the live records of ix, without the
// postings of deleted and replaced records. ix is unchanged and answers
// searches meanwhile; a change applied to ix while Compact runs may be
// missing from the result, so the caller serialises the two.
func (ix *Index) Compact() *Index {
	ix.mu.RLock()
	recs := make([]*record.Record, 0, ix.live)
	for _, r := range ix.recs {
		if r != nil {
			recs = append(recs, r)
		}
	}
	ix.mu.RUnlock()
	return NewIndex(recs)
}

// Stats describes the index's size.
type Stats struct {
	Records, Tombstones, Tokens, NameStrings, Postings int
}

// Stats returns the index's size.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := Stats{Records: ix.live, Tombstones: ix.dead, Tokens: ix.d.Len(), NameStrings: len(ix.nsRec)}
	for i := range ix.post {
		s.Postings += len(ix.post[i]) + len(ix.bagPost[i])
	}
	return s
}

// passes applies the filters to record ord.
func (ix *Index) passes(c *compiled, srcOK []bool, ord uint32) bool {
	inf := &ix.info[ord]
	switch c.Kind {
	case Individual:
		if inf.et != etIndividual && inf.et != etUnknown {
			return false
		}
	case Entity:
		if inf.et != etEntity && inf.et != etUnknown {
			return false
		}
	}
	if srcOK != nil && !srcOK[inf.src] {
		return false
	}
	if c.gender != "" && inf.gender != 0 {
		if (c.gender == record.GenderMale) != (inf.gender == 1) {
			return false
		}
	}
	if c.hasDOB && inf.dobN > 0 {
		ok := false
		for _, d := range ix.dobs[inf.dobOff : inf.dobOff+uint32(inf.dobN)] {
			if d.agrees(c.dob) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if c.cit != "" && inf.hasCit {
		want := citCode(c.cit)
		ok := false
		for _, cc := range ix.cits[inf.citOff : inf.citOff+uint32(inf.citN)] {
			if cc == want {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// sourceMask turns the query's source set into a slice by source ordinal.
func (ix *Index) sourceMask(c *compiled) []bool {
	if c.Sources == nil {
		return nil
	}
	m := make([]bool, len(ix.sources))
	for i, s := range ix.sources {
		m[i] = c.Sources[s]
	}
	return m
}

// fieldOf returns the Field of name-string slot of r.
func fieldOf(r *record.Record, slot uint16) string {
	ns := NameStrings(r)
	if int(slot) < len(ns) {
		return ns[slot].Field
	}
	return "name"
}
