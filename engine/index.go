package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Index is the screening index: a list of immutable segments, each with a
// tombstone bitset (segment.go), over which every search runs. Searches
// may run concurrently with each other and with Apply; a search sees the
// database either before or after a whole change set, never part of one.
//
// A change set becomes a small new segment holding the records it adds or
// replaces, plus tombstones on the old copies; a merge (MergeSegments)
// later folds small segments into one, so a change costs what it changes,
// not a rebuild.
//
// An index built in memory (NewIndex, NewBuilder) keeps its records beside
// its segments. A persisted one (NewPersisted) keeps none: it reads the
// records of the hits it returns, and only those, from the RecordSource
// its owner gives it (the store).
type Index struct {
	mu  sync.Mutex // serialises changes: Apply, Commit, ReplaceSegments
	cur atomic.Pointer[view]
	adm atomic.Pointer[Admitter] // nil: DefaultAdmitter
}

// view is one state of an index, never changed once published: searches
// hold it (users) while they read its segments, so a segment is released
// (unmapped) only when no view that holds it is in use.
type view struct {
	segs       []segView
	live, dead int
	src        RecordSource
	types      map[string]string // source id → source type of its first record
	users      atomic.Int64

	// sc is what scored mode needs of the view (scored_stats.go), built
	// on its first scored search.
	scOnce sync.Once
	sc     *viewScored
	// pc keeps scored mode's partner look-ups (scored_cache.go).
	pc partnerCache
}

// segView is a segment as one view sees it.
type segView struct {
	*Segment
	tomb []uint64 // deleted or replaced records; never changed once published
	live int
}

func (sv *segView) dead(ord uint32) bool { return hasBit(sv.tomb, ord) }

// RecordSource gives a persisted index the records of the hits it
// returns. screen implements it over the store, in one read transaction
// that checks the store is at the version the index reflects.
type RecordSource interface {
	// Records returns the records with these ids, in the same order. A
	// record that cannot be found is an error, never a nil entry: a hit
	// must not be dropped silently.
	Records(ids []string) ([]*record.Record, error)
}

// ErrRecordsMoved is returned (wrapped) by a RecordSource whose records
// are at a newer version than the index searched: a change set committed
// meanwhile. The caller searches again once the index has caught up.
var ErrRecordsMoved = errors.New("the records are at a newer version than the index")

// errNoRecords is what an index without records and without a source
// answers when a search has hits.
var errNoRecords = errors.New("index has no records and no record source")

// NewIndex builds an index over recs, in memory. The records are shared,
// not copied: callers must not change them afterwards.
func NewIndex(recs []*record.Record) *Index {
	bl := NewBuilder(len(recs))
	for _, r := range recs {
		bl.Add(r)
	}
	return bl.Finish()
}

// NewPersisted returns an index over segments (normally mapped files) with
// their tombstones (nil for none; tombs[i] belongs to segs[i]) that reads
// hit records from src. The index holds the segments until Close.
func NewPersisted(segs []*Segment, tombs [][]uint64, src RecordSource) (*Index, error) {
	if len(tombs) != 0 && len(tombs) != len(segs) {
		return nil, fmt.Errorf("%d tombstone sets for %d segments", len(tombs), len(segs))
	}
	svs := make([]segView, len(segs))
	for i, s := range segs {
		svs[i].Segment = s
		if len(tombs) > 0 {
			svs[i].tomb = tombs[i]
		}
	}
	ix := &Index{}
	ix.publish(newView(svs, src))
	return ix, nil
}

// newView counts the live records of segs and returns the view over them.
func newView(segs []segView, src RecordSource) *view {
	v := &view{segs: segs, src: src, types: map[string]string{}}
	for i := range v.segs {
		sv := &v.segs[i]
		n := sv.Records()
		dead := 0
		for w, x := range sv.tomb {
			if w*64 < n {
				if w*64+64 > n {
					x &= 1<<(n-w*64) - 1
				}
				dead += bits.OnesCount64(x)
			}
		}
		sv.live = n - dead
		v.live += sv.live
		v.dead += dead
		for k := range sv.sources() {
			id, typ := sv.source(uint16(k))
			if _, ok := v.types[id]; !ok {
				v.types[id] = typ
			}
		}
	}
	return v
}

// publish makes v the current view and lets go of the one before.
func (ix *Index) publish(v *view) {
	v.users.Store(1) // the index's own hold, until the next publish
	for i := range v.segs {
		v.segs[i].acquire()
	}
	if old := ix.cur.Swap(v); old != nil {
		old.release()
	}
}

// acquire returns the current view, held until release.
func (ix *Index) acquire() *view {
	for {
		v := ix.cur.Load()
		n := v.users.Load()
		// A view whose count reached zero has been replaced and released;
		// the current one is newer.
		if n > 0 && v.users.CompareAndSwap(n, n+1) {
			return v
		}
	}
}

func (v *view) release() {
	if v.users.Add(-1) == 0 {
		for i := range v.segs {
			v.segs[i].drop()
		}
	}
}

// Close releases the index's segments once no search holds them. The
// index must not be used afterwards.
func (ix *Index) Close() {
	if v := ix.cur.Swap(nil); v != nil {
		v.release()
	}
}

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

const (
	etUnknown uint8 = iota
	etIndividual
	etEntity
	etOther
)

// locate finds the live copy of record id in v: its segment and ordinal.
// Later segments are searched first: an id lives in at most one segment,
// and an update's new copy is always in a later one.
func (v *view) locate(id string) (seg int, ord uint32, ok bool) {
	for i := len(v.segs) - 1; i >= 0; i-- {
		sv := &v.segs[i]
		if o, found := sv.lookupID(id); found && !sv.dead(o) {
			return i, o, true
		}
	}
	return 0, 0, false
}

// ApplyStats counts what a change set did to the index.
type ApplyStats struct {
	Added, Updated, Deleted int
	// UpdatedUnknown counts UPDATEs of ids not in the index, applied as
	// ADDs; DeletedUnknown counts DELETEs of unknown ids, which do nothing.
	UpdatedUnknown, DeletedUnknown int
}

// Update is a change set prepared against one state of an index: the
// segment of the records it adds or replaces, and the tombstones it sets
// on the old copies. Prepare makes one; Commit makes it current. Between
// the two its owner persists it (the segment's image, the tombstones).
type Update struct {
	base  *view
	seg   *Segment
	dead  []uint64   // tombstones within seg (an id changed twice)
	tombs [][]uint64 // per segment of base: the new bitset, or nil when unchanged
	Stats ApplyStats
}

// Segment returns the segment of the records the change set adds or
// replaces, nil when it adds none.
func (u *Update) Segment() *Segment { return u.seg }

// SetSegment replaces the update's segment with the same image opened
// from elsewhere (the file it was written to), before Commit.
func (u *Update) SetSegment(s *Segment) { s.recs = u.seg.recs; u.seg = s }

// Prepare tokenises a change set against the current state of the index,
// outside any lock searches take. The segment it builds keeps the records
// beside it when keepRecords is set (an index in memory). Only one
// Prepare–Commit may be under way at a time; the caller serialises them
// (Apply does both under the index's lock).
func (ix *Index) Prepare(changes []record.Change, keepRecords bool) (*Update, error) {
	base := ix.acquire()
	defer base.release()
	u := &Update{base: base, tombs: make([][]uint64, len(base.segs))}
	b := newSegBuilder(keepRecords)
	var recs []*record.Record
	for i := range changes {
		if changes[i].Type != record.ChangeDelete {
			r := changes[i].Record // a copy the index owns
			recs = append(recs, &r)
		}
	}
	for _, bt := range prepareAll(recs) {
		b.addBatch(bt)
	}
	// Tombstones, in change order: the old copy of every id changed goes.
	inSet := map[string]bool{} // ids the change set itself holds, live
	tomb := func(seg int, ord uint32) {
		t := u.tombs[seg]
		if t == nil {
			t = make([]uint64, (base.segs[seg].Records()+63)/64)
			copy(t, base.segs[seg].tomb)
			u.tombs[seg] = t
		}
		setBit(&t, ord)
		u.tombs[seg] = t
	}
	for i := range changes {
		c := &changes[i]
		id := c.Record.ID
		seg, ord, known := base.locate(id)
		if known && u.tombs[seg] != nil && hasBit(u.tombs[seg], ord) {
			known = false // removed earlier in this change set
		}
		known = known || inSet[id]
		switch {
		case c.Type == record.ChangeDelete && !known:
			u.Stats.DeletedUnknown++
			continue
		case c.Type == record.ChangeDelete:
			u.Stats.Deleted++
			delete(inSet, id)
		case known:
			u.Stats.Updated++
			inSet[id] = true
		case c.Type == record.ChangeUpdate:
			u.Stats.UpdatedUnknown++
			inSet[id] = true
		default:
			u.Stats.Added++
			inSet[id] = true
		}
		if seg, ord, ok := base.locate(id); ok {
			tomb(seg, ord)
		}
	}
	if b.records() > 0 {
		// Records added and then deleted within the set are dead in its
		// segment.
		for id, ord := range b.recIDs {
			if !inSet[id] {
				setBit(&b.dead, ord)
			}
		}
		seg, dead, err := b.build()
		if err != nil {
			return nil, err
		}
		u.seg, u.dead = seg, dead
	}
	return u, nil
}

// Tombstones returns the tombstones the update gives segment i of the
// index it was prepared against (nil when it leaves them as they were),
// and, for i equal to the number of those segments, those of its own
// segment.
func (u *Update) Tombstones(i int) []uint64 {
	if i == len(u.base.segs) {
		return u.dead
	}
	return u.tombs[i]
}

// Commit makes the prepared update the current state of the index, its
// records read from src where its segments keep none (nil keeps the
// source in use). It fails when the index changed since Prepare.
func (ix *Index) Commit(u *Update, src RecordSource) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.commitLocked(u, src)
}

func (ix *Index) commitLocked(u *Update, src RecordSource) error {
	if ix.cur.Load() != u.base {
		return errors.New("commit: the index changed since the update was prepared")
	}
	segs := make([]segView, 0, len(u.base.segs)+1)
	for i, sv := range u.base.segs {
		if u.tombs[i] != nil {
			sv.tomb = u.tombs[i]
		}
		segs = append(segs, segView{Segment: sv.Segment, tomb: sv.tomb})
	}
	if u.seg != nil {
		segs = append(segs, segView{Segment: u.seg, tomb: u.dead})
	}
	if src == nil {
		src = u.base.src
	}
	ix.publish(newView(segs, src))
	return nil
}

// Apply applies a change set to an index in memory: the records it adds
// or replaces become a new segment, kept beside their records, and small
// segments are merged as they pile up (see mergePlan). Searches take no
// lock: they keep reading the view published before the change.
func (ix *Index) Apply(changes []record.Change) ApplyStats {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	u, err := ix.Prepare(changes, true)
	if err != nil {
		panic(fmt.Sprintf("engine: apply: %v", err)) // a build in memory cannot fail to write
	}
	if err := ix.commitLocked(u, nil); err != nil {
		panic(fmt.Sprintf("engine: apply: %v", err))
	}
	if plan := ix.mergePlan(); plan != nil {
		if err := ix.mergeInMemory(plan); err != nil {
			panic(fmt.Sprintf("engine: merge: %v", err))
		}
	}
	return u.Stats
}

// Len returns the number of live records.
func (ix *Index) Len() int {
	v := ix.acquire()
	defer v.release()
	return v.live
}

// Get returns the record with this id, or nil: from beside the segment
// that holds it, or from the record source. The record is shared: read
// only.
func (ix *Index) Get(id string) *record.Record {
	v := ix.acquire()
	defer v.release()
	seg, ord, ok := v.locate(id)
	if !ok {
		return nil
	}
	if recs := v.segs[seg].recs; recs != nil {
		return recs[ord]
	}
	if v.src == nil {
		return nil
	}
	rs, err := v.src.Records([]string{id})
	if err != nil || len(rs) != 1 {
		return nil
	}
	return rs[0]
}

// ErrNoRecordsBeside is returned by ForEach on an index whose records
// are not kept beside it: they are in the store, which callers read.
var ErrNoRecordsBeside = errors.New("the index keeps no records: read them from the store")

// ForEach calls fn for every live record of an index built in memory, in
// segment and ordinal order. fn must not call Apply.
func (ix *Index) ForEach(fn func(*record.Record)) error {
	v := ix.acquire()
	defer v.release()
	for i := range v.segs {
		if v.segs[i].recs == nil && v.segs[i].Records() > 0 {
			return ErrNoRecordsBeside
		}
	}
	for i := range v.segs {
		sv := &v.segs[i]
		for ord, r := range sv.recs {
			if !sv.dead(uint32(ord)) {
				fn(r)
			}
		}
	}
	return nil
}

// Garbage returns the number of live records and of tombstones: records
// deleted or replaced whose postings the index still holds.
func (ix *Index) Garbage() (live, dead int) {
	v := ix.acquire()
	defer v.release()
	return v.live, v.dead
}

// Stats describes the index's size.
type Stats struct {
	Records, Tombstones, Tokens, NameStrings, Postings int
	// Segments is the number of segments; Bytes their size.
	Segments int
	Bytes    int64
}

// Stats returns the index's size. Tokens count per segment: a token held
// by two segments counts twice.
func (ix *Index) Stats() Stats {
	v := ix.acquire()
	defer v.release()
	s := Stats{Records: v.live, Tombstones: v.dead, Segments: len(v.segs)}
	for i := range v.segs {
		sv := &v.segs[i]
		s.Tokens += sv.Len()
		s.NameStrings += len(sv.nsRec)
		s.Postings += len(sv.post) + len(sv.bagPost)
		s.Bytes += sv.Size()
	}
	return s
}

// SegmentState is one segment of an index with its tombstones, as its
// owner persists them.
type SegmentState struct {
	Segment *Segment
	Tomb    []uint64 // shared: read only
	Live    int
}

// Segments returns the segments of the current state with their
// tombstones.
func (ix *Index) Segments() []SegmentState {
	v := ix.acquire()
	defer v.release()
	out := make([]SegmentState, len(v.segs))
	for i, sv := range v.segs {
		out[i] = SegmentState{Segment: sv.Segment, Tomb: sv.tomb, Live: sv.live}
	}
	return out
}

// passes applies the filters to record ord of sv.
func (sv *segView) passes(c *compiled, srcOK []bool, ord uint32) bool {
	fl := sv.recFlags[ord]
	et := fl & flagETMask
	switch c.Kind {
	case query.Individual:
		if et != etIndividual && et != etUnknown {
			return false
		}
	case query.Entity:
		if et != etEntity && et != etUnknown {
			return false
		}
	}
	if srcOK != nil && !srcOK[sv.recSrc[ord]] {
		return false
	}
	if c.Match == query.Scored {
		// Scored mode weighs gender and citizenship instead of filtering
		// (scored_evidence.go).
		return sv.dobPasses(c, ord)
	}
	if g := fl & flagGenderMask; c.gender != "" && g != 0 {
		if (c.gender == record.GenderMale) != (g == flagGenderMale) {
			return false
		}
	}
	if !sv.dobPasses(c, ord) {
		return false
	}
	if c.cit != "" && fl&flagHasCit != 0 {
		want := citCode(c.cit)
		ok := false
		for _, cc := range sv.cits[sv.citOff[ord]:sv.citOff[ord+1]] {
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

// dobPasses applies the dob filter: records without a date of birth pass,
// and records with one that agrees with the query's.
func (sv *segView) dobPasses(c *compiled, ord uint32) bool {
	if !c.hasDOB {
		return true // without reading the record's dates: a cache miss
	}
	dobs := sv.dobs[sv.dobOff[ord]:sv.dobOff[ord+1]]
	if len(dobs) == 0 {
		return true
	}
	for _, d := range dobs {
		if d.Agrees(c.dob) {
			return true
		}
	}
	return false
}

// sourceMask turns the query's source set into a slice by the segment's
// source ordinals.
func (sv *segView) sourceMask(c *compiled) []bool {
	if c.Sources == nil {
		return nil
	}
	m := make([]bool, sv.sources())
	for i := range m {
		m[i] = c.Sources[string(sv.srcBlob[sv.srcOff[i]:sv.srcOff[i+1]])]
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

// cloneID copies a record id out of a segment's memory.
func cloneID(s string) string { return strings.Clone(s) }
