package engine

import (
	"runtime"
	"slices"
	"sync"

	"github.com/amlscreen/amlscreen/country"
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
	d  *dict

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

	recs []*record.Record // by ordinal; nil once deleted or replaced
	info []recInfo
	ids  map[string]uint32
	dobs []date
	cits []uint16

	sources []string
	srcIdx  map[string]uint16

	live, dead int
}

// recInfo is what the filters need of a record, parsed once.
type recInfo struct {
	src            uint16
	et             uint8 // etIndividual, etEntity, etUnknown, etOther
	gender         uint8 // 0 none or unknown, 1 male, 2 female
	dobOff, citOff uint32
	dobN, citN     uint16
	hasCit         bool
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
	ix := &Index{
		d:      newDict(),
		nsOff:  []uint32{0},
		ids:    make(map[string]uint32, len(recs)),
		srcIdx: make(map[string]uint16),
	}
	ix.addAll(prepareAll(recs))
	return ix
}

// prepared is a record tokenised outside the index lock.
type prepared struct {
	rec   *record.Record
	names []normalize.Name
	slots []uint16
	// bag holds the distinct search_all tokens that no name string holds:
	// words of the other text fields, and name fields that make no name
	// string (given names of a record that is not an individual).
	bag []string
	// fuzzy holds the name-field tokens among bag, which pair fuzzily.
	fuzzy []string
	dobs  []date
	cits  []uint16
}

// prepScratch is reused across the records one worker prepares.
type prepScratch struct {
	toks  []string
	names []NameString
}

func prepare(r *record.Record, sc *prepScratch) prepared {
	p := prepared{rec: r}
	legal := usesLegalForms(r.EntityType)
	sc.names = appendNameStrings(sc.names[:0], r, false)
	for i, ns := range sc.names {
		n := normalize.RecordName(ns.Text, legal)
		if len(n.Tokens) == 0 {
			continue
		}
		p.names = append(p.names, n)
		p.slots = append(p.slots, uint16(i))
	}
	toks := sc.toks[:0]
	if r.EntityType != record.EntityIndividual {
		// Individuals' given and last names are in their name strings.
		for _, l := range [][]string{r.GivenNames, r.LastNames, r.AliasGivenNames} {
			for _, v := range l {
				toks = append(toks, normalize.RecordName(v, legal).Tokens...)
			}
		}
		p.fuzzy = distinct(slices.Clone(toks))
	}
	r.TextFields(func(f record.Field) {
		if f.Name {
			return
		}
		for _, v := range f.Values {
			toks = normalize.AppendWords(toks, v)
		}
	})
	p.bag = slices.Clone(distinct(toks))
	sc.toks = toks[:0]
	for _, s := range r.DateOfBirth {
		p.dobs = append(p.dobs, parseRecordDate(s))
	}
	for _, s := range r.Citizenship {
		if c, ok := country.Code(s); ok {
			p.cits = append(p.cits, citCode(c))
		}
	}
	return p
}

func citCode(c string) uint16 { return uint16(c[0]-'A')*26 + uint16(c[1]-'A') }

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// prepareAll tokenises records on every core; the result keeps the input
// order, so ordinals are deterministic.
func prepareAll(recs []*record.Record) []prepared {
	out := make([]prepared, len(recs))
	workers := runtime.GOMAXPROCS(0)
	if len(recs) < 1000 {
		workers = 1
	}
	var wg sync.WaitGroup
	chunk := (len(recs) + workers - 1) / max(workers, 1)
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(recs))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc prepScratch
			for i := lo; i < hi; i++ {
				out[i] = prepare(recs[i], &sc)
			}
		}()
	}
	wg.Wait()
	return out
}

func (ix *Index) addAll(ps []prepared) {
	for i := range ps {
		ix.add(&ps[i])
	}
}

// add appends a prepared record; the caller holds the write lock (or owns
// the index during a build). A record whose id is present replaces it.
func (ix *Index) add(p *prepared) {
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
	}
	inf := recInfo{src: src, et: etCode(r.EntityType), hasCit: len(r.Citizenship) > 0}
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

	for k, n := range p.names {
		nsID := uint32(len(ix.nsRec))
		for _, t := range n.Tokens {
			id := ix.d.intern(t)
			ix.d.markFuzzy(id)
			ix.nsTok = append(ix.nsTok, id)
			ix.growPostings()
			if l := ix.post[id]; len(l) == 0 || l[len(l)-1] != nsID {
				ix.post[id] = append(l, nsID)
			}
		}
		ix.nsOff = append(ix.nsOff, uint32(len(ix.nsTok)))
		ix.nsRec = append(ix.nsRec, ord)
		ix.nsBase = append(ix.nsBase, uint8(min(n.Base, 255)))
		ix.nsSlot = append(ix.nsSlot, p.slots[k])
	}
	for _, t := range p.fuzzy {
		ix.d.markFuzzy(ix.d.intern(t))
	}
	for _, t := range p.bag {
		id := ix.d.intern(t)
		ix.growPostings()
		ix.bagPost[id] = append(ix.bagPost[id], ord)
	}
}

func (ix *Index) growPostings() {
	for len(ix.post) < len(ix.d.toks) {
		ix.post = append(ix.post, nil)
		ix.bagPost = append(ix.bagPost, nil)
	}
}

// remove tombstones the record with this id, if present. Its postings stay
// until a rebuild; searches skip them.
func (ix *Index) remove(id string) bool {
	ord, ok := ix.ids[id]
	if !ok {
		return false
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
	ps := prepareAll(recs)
	var st ApplyStats
	ix.mu.Lock()
	defer ix.mu.Unlock()
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
		ix.add(&ps[k])
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

// Stats describes the index's size.
type Stats struct {
	Records, Tombstones, Tokens, NameStrings, Postings int
}

// Stats returns the index's size.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := Stats{Records: ix.live, Tombstones: ix.dead, Tokens: len(ix.d.toks), NameStrings: len(ix.nsRec)}
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
