package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Segment is one immutable part of an index: a dictionary, postings, name
// strings and per-record filter fields over its records, in one flat byte
// image (segformat.go) that it reads where it lies: a memory-mapped file
// or a heap buffer. Opening one checks the image whole; searching it then
// allocates nothing per record.
//
// A segment never changes. An Index is a list of segments with a
// tombstone bitset each: deleting a record sets its bit, and added records
// come in new segments, which a merge (MergeSegments) later folds into
// one.
type Segment struct {
	data    []byte
	release func() error // unmaps the file, nil for a heap image
	refs    atomic.Int64 // indexes (views) holding the segment
	name    string       // file name, "" for a heap image

	dict.Frozen

	postOff, post       []uint32
	bagPostOff, bagPost []uint32

	nsOff, nsTok, nsRec []uint32
	nsBase              []uint8
	nsSlot              []uint16

	recSrc         []uint16
	recFlags       []uint8
	dobOff         []uint32
	dobs           []query.Date
	citOff         []uint32
	cits           []uint16
	bagOff, bagTok []uint32
	bagNames       []uint32

	idOff   []uint32
	idBlob  []byte
	idOrder []uint32

	srcOff, srcTypeOff   []uint32
	srcBlob, srcTypeBlob []byte

	// recs holds the records beside a segment built in memory (data files,
	// the embedded sample); nil for a persisted one, whose records are in
	// the store.
	recs []*record.Record

	// keys is what scored mode needs of the segment (scored_stats.go),
	// built on its first scored search.
	keysOnce sync.Once
	keys     *segKeys
}

// ErrCorruptSegment wraps every reason a segment image is refused: a
// truncated or damaged file, a checksum that does not match, a layout of
// another format version. The caller rebuilds the segment.
var ErrCorruptSegment = errors.New("damaged or incompatible index segment")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorruptSegment, fmt.Sprintf(format, args...))
}

// OpenSegment reads the segment image data, checking its header, both
// checksums and every array; the segment uses data in place, which must
// not change while it is used. release, when not nil, is called once the
// segment is no longer used by any index (it unmaps a file).
func OpenSegment(data []byte, release func() error) (*Segment, error) {
	return openSegment(data, release, true)
}

// openSegment is OpenSegment; verify false skips the checksums and the
// array checks, for images this process has just built.
func openSegment(data []byte, release func() error, verify bool) (*Segment, error) {
	if len(data) < segHeaderSize {
		return nil, corrupt("%d bytes, shorter than a header", len(data))
	}
	if string(data[hdrMagic:hdrMagic+8]) != segMagic {
		return nil, corrupt("not an index segment (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(data[hdrFormat:]); v != segFormat {
		return nil, corrupt("format version %d, this amlscreen reads %d", v, segFormat)
	}
	if got, want := headerCRC(data), binary.LittleEndian.Uint32(data[hdrHeaderCRC:]); got != want {
		return nil, corrupt("header checksum %08x, expected %08x", got, want)
	}
	if size := binary.LittleEndian.Uint64(data[hdrSize:]); size != uint64(len(data)) {
		return nil, corrupt("%d bytes, the header says %d (truncated?)", len(data), size)
	}
	n := binary.LittleEndian.Uint32(data[hdrSections:])
	if n > segMaxSections {
		return nil, corrupt("%d sections, at most %d fit", n, segMaxSections)
	}
	secs := make([]secEntry, 0, n)
	var have [secCount]bool
	for i := range n {
		e := getSecEntry(data[hdrTable+i*segSectionSize:])
		switch {
		case e.id == 0 || e.id >= secCount:
			return nil, corrupt("unknown section %d", e.id)
		case have[e.id]:
			return nil, corrupt("section %d twice", e.id)
		case e.elem != secElem[e.id]:
			return nil, corrupt("section %d has elements of %d bytes, not %d", e.id, e.elem, secElem[e.id])
		case e.off < segHeaderSize || e.off%8 != 0 || e.off > uint64(len(data)) || e.size > uint64(len(data))-e.off:
			return nil, corrupt("section %d at %d+%d lies outside the %d bytes", e.id, e.off, e.size, len(data))
		case e.size%uint64(e.elem) != 0:
			return nil, corrupt("section %d is %d bytes, not whole elements", e.id, e.size)
		}
		have[e.id] = true
		secs = append(secs, e)
	}
	for id := uint32(1); id < secCount; id++ {
		if !have[id] {
			return nil, corrupt("section %d missing", id)
		}
	}
	slices.SortFunc(secs, func(a, b secEntry) int { return int(a.off>>3) - int(b.off>>3) })
	for i := 1; i < len(secs); i++ {
		if secs[i].off < secs[i-1].off+secs[i-1].size {
			return nil, corrupt("sections %d and %d overlap", secs[i-1].id, secs[i].id)
		}
	}

	s := &Segment{data: data, release: release}
	raw := func(id uint32) []byte {
		for _, e := range secs {
			if e.id == id {
				return data[e.off : e.off+e.size]
			}
		}
		return nil
	}
	s.TokOff, s.TokBlob = u32s(raw(secTokOff)), raw(secTokBlob)
	s.Runes, s.Indexed = raw(secTokRunes), u64s(raw(secTokIndexed))
	s.GramKeys, s.GramOff, s.GramIDs = u64s(raw(secGramKeys)), u32s(raw(secGramOff)), u32s(raw(secGramIDs))
	s.LenOff, s.LenIDs = u32s(raw(secLenOff)), u32s(raw(secLenIDs))
	s.postOff, s.post = u32s(raw(secPostOff)), u32s(raw(secPost))
	s.bagPostOff, s.bagPost = u32s(raw(secBagPostOff)), u32s(raw(secBagPost))
	s.nsOff, s.nsTok, s.nsRec = u32s(raw(secNSOff)), u32s(raw(secNSTok)), u32s(raw(secNSRec))
	s.nsBase, s.nsSlot = raw(secNSBase), u16s(raw(secNSSlot))
	s.recSrc, s.recFlags = u16s(raw(secRecSrc)), raw(secRecFlags)
	s.dobOff, s.dobs = u32s(raw(secDOBOff)), dates(raw(secDOBs))
	s.citOff, s.cits = u32s(raw(secCitOff)), u16s(raw(secCits))
	s.bagOff, s.bagTok, s.bagNames = u32s(raw(secBagOff)), u32s(raw(secBagTok)), u32s(raw(secBagNames))
	s.idOff, s.idBlob, s.idOrder = u32s(raw(secIDOff)), raw(secIDBlob), u32s(raw(secIDOrder))
	s.srcOff, s.srcBlob = u32s(raw(secSrcOff)), raw(secSrcBlob)
	s.srcTypeOff, s.srcTypeBlob = u32s(raw(secSrcTypeOff)), raw(secSrcTypeBlob)

	counts := [4]uint32{
		binary.LittleEndian.Uint32(data[hdrTokens:]), binary.LittleEndian.Uint32(data[hdrNames:]),
		binary.LittleEndian.Uint32(data[hdrRecords:]), binary.LittleEndian.Uint32(data[hdrSources:]),
	}
	if err := s.checkShape(counts); err != nil {
		return nil, err
	}
	if !verify {
		return s, nil
	}
	if err := s.verify(secs); err != nil {
		return nil, err
	}
	return s, nil
}

// checkShape checks the lengths of the arrays against the counts and each
// other, and the ends of every offset array: what indexing relies on
// beyond the elements verify checks.
func (s *Segment) checkShape(c [4]uint32) error {
	T, N, R, S := int(c[0]), int(c[1]), int(c[2]), int(c[3])
	lens := []struct {
		name string
		got  int
		want int
	}{
		{"token offsets", len(s.TokOff), T + 1}, {"rune lengths", len(s.Runes), T},
		{"fuzzy bitset", len(s.Indexed), (T + 63) / 64}, {"gram offsets", len(s.GramOff), len(s.GramKeys) + 1},
		{"posting offsets", len(s.postOff), T + 1}, {"search_all posting offsets", len(s.bagPostOff), T + 1},
		{"name-string offsets", len(s.nsOff), N + 1}, {"name-string records", len(s.nsRec), N},
		{"name-string bases", len(s.nsBase), N}, {"name-string slots", len(s.nsSlot), N},
		{"record sources", len(s.recSrc), R}, {"record flags", len(s.recFlags), R},
		{"date offsets", len(s.dobOff), R + 1}, {"citizenship offsets", len(s.citOff), R + 1},
		{"bag offsets", len(s.bagOff), R + 1}, {"bag name counts", len(s.bagNames), R},
		{"id offsets", len(s.idOff), R + 1}, {"source offsets", len(s.srcOff), S + 1},
		{"source type offsets", len(s.srcTypeOff), S + 1},
	}
	for _, l := range lens {
		if l.got != l.want {
			return corrupt("%s: %d entries, want %d", l.name, l.got, l.want)
		}
	}
	if len(s.LenOff) == 0 || len(s.idOrder) > R {
		return corrupt("length table empty or id order longer than the records")
	}
	ends := []struct {
		name string
		off  []uint32
		n    int
	}{
		{"token offsets", s.TokOff, len(s.TokBlob)}, {"gram offsets", s.GramOff, len(s.GramIDs)},
		{"length offsets", s.LenOff, len(s.LenIDs)}, {"posting offsets", s.postOff, len(s.post)},
		{"search_all posting offsets", s.bagPostOff, len(s.bagPost)}, {"name-string offsets", s.nsOff, len(s.nsTok)},
		{"date offsets", s.dobOff, len(s.dobs)}, {"citizenship offsets", s.citOff, len(s.cits)},
		{"bag offsets", s.bagOff, len(s.bagTok)}, {"id offsets", s.idOff, len(s.idBlob)},
		{"source offsets", s.srcOff, len(s.srcBlob)}, {"source type offsets", s.srcTypeOff, len(s.srcTypeBlob)},
	}
	for _, e := range ends {
		if e.off[0] != 0 || int(e.off[len(e.off)-1]) != e.n {
			return corrupt("%s run from %d to %d over %d entries", e.name, e.off[0], e.off[len(e.off)-1], e.n)
		}
	}
	return nil
}

// verifyChunk is how much of a section is checked at a time: the pages of
// a mapped file are dropped from memory after each chunk (dropPages), so
// opening a segment never holds more than this of it in RAM.
const verifyChunk = 4 << 20

// verify computes the body checksum and checks every element that
// indexes another array, in file order, chunk by chunk.
func (s *Segment) verify(secs []secEntry) error {
	T, N, R := uint32(s.Len()), uint32(len(s.nsRec)), uint32(len(s.recFlags))
	S := uint32(len(s.srcOff) - 1)
	type check func(lo, hi int) error
	below := func(name string, a []uint32, bound uint32) check {
		return func(lo, hi int) error {
			for _, v := range a[lo:hi] {
				if v >= bound {
					return corrupt("%s: %d out of range (%d)", name, v, bound)
				}
			}
			return nil
		}
	}
	rising := func(name string, a []uint32) check {
		return func(lo, hi int) error {
			if lo > 0 {
				lo--
			}
			for i := lo; i+1 < hi; i++ {
				if a[i] > a[i+1] {
					return corrupt("%s decrease at %d", name, i)
				}
			}
			return nil
		}
	}
	checks := map[uint32]check{
		secTokOff: rising("token offsets", s.TokOff), secGramOff: rising("gram offsets", s.GramOff),
		secGramIDs: below("gram ids", s.GramIDs, T), secLenOff: rising("length offsets", s.LenOff),
		secLenIDs: below("length ids", s.LenIDs, T), secPostOff: rising("posting offsets", s.postOff),
		secPost: below("postings", s.post, N), secBagPostOff: rising("search_all posting offsets", s.bagPostOff),
		secBagPost: below("search_all postings", s.bagPost, R), secNSOff: rising("name-string offsets", s.nsOff),
		secNSTok: below("name-string tokens", s.nsTok, T), secDOBOff: rising("date offsets", s.dobOff),
		secCitOff: rising("citizenship offsets", s.citOff), secBagOff: rising("bag offsets", s.bagOff),
		secBagTok: below("bag tokens", s.bagTok, T), secIDOff: rising("id offsets", s.idOff),
		secIDOrder: below("id order", s.idOrder, R), secSrcOff: rising("source offsets", s.srcOff),
		secSrcTypeOff: rising("source type offsets", s.srcTypeOff),
		secNSRec: func(lo, hi int) error {
			if err := below("name-string records", s.nsRec, R)(lo, hi); err != nil {
				return err
			}
			return rising("name-string records", s.nsRec)(lo, hi)
		},
		secNSBase: func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				if uint32(s.nsBase[i]) > s.nsOff[i+1]-s.nsOff[i] {
					return corrupt("name string %d: %d words of %d tokens", i, s.nsBase[i], s.nsOff[i+1]-s.nsOff[i])
				}
			}
			return nil
		},
		secRecSrc: func(lo, hi int) error {
			for _, v := range s.recSrc[lo:hi] {
				if uint32(v) >= S {
					return corrupt("record source %d out of range (%d)", v, S)
				}
			}
			return nil
		},
		secBagNames: func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				if s.bagNames[i] > s.bagOff[i+1]-s.bagOff[i] {
					return corrupt("record %d: %d bag name tokens of %d", i, s.bagNames[i], s.bagOff[i+1]-s.bagOff[i])
				}
			}
			return nil
		},
	}
	crc := uint32(0)
	at := uint64(segHeaderSize)
	for _, e := range secs {
		if e.off > at {
			crc = crc32.Update(crc, castagnoli, s.data[at:e.off])
		}
		chk := checks[e.id]
		for lo := e.off; lo < e.off+e.size; lo += verifyChunk {
			hi := min(lo+verifyChunk, e.off+e.size)
			b := s.data[lo:hi]
			crc = crc32.Update(crc, castagnoli, b)
			if chk != nil {
				first, last := (lo-e.off)/uint64(e.elem), (hi-e.off)/uint64(e.elem)
				if err := chk(int(first), int(last)); err != nil {
					return err
				}
			}
			if s.release != nil {
				dropPages(b)
			}
		}
		at = e.off + e.size
	}
	if at < uint64(len(s.data)) {
		crc = crc32.Update(crc, castagnoli, s.data[at:])
	}
	if want := binary.LittleEndian.Uint32(s.data[hdrBodyCRC:]); crc != want {
		return corrupt("checksum %08x, expected %08x", crc, want)
	}
	return nil
}

// Typed views of a section. On a little-endian machine they share the
// image (whose sections are 8-byte aligned); elsewhere they are decoded.

func u16s(b []byte) []uint16 {
	if littleEndian {
		return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/2)
	}
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}

func u32s(b []byte) []uint32 {
	if littleEndian {
		return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func u64s(b []byte) []uint64 {
	if littleEndian {
		return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)
	}
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

func dates(b []byte) []query.Date {
	u := u32s(b)
	return unsafe.Slice((*query.Date)(unsafe.Pointer(unsafe.SliceData(u))), len(u))
}

// Records returns the number of records of the segment, tombstoned ones
// included.
func (s *Segment) Records() int { return len(s.recFlags) }

// Size returns the size of the segment's image in bytes.
func (s *Segment) Size() int64 { return int64(len(s.data)) }

// Name returns the file the segment was mapped from, "" for one in memory.
func (s *Segment) Name() string { return s.name }

// id returns the id of record ord, sharing the segment's memory: copy it
// (strings.Clone) before it outlives the search that read it.
func (s *Segment) id(ord uint32) string {
	return unsafe.String(unsafe.SliceData(s.idBlob[s.idOff[ord]:]), int(s.idOff[ord+1]-s.idOff[ord]))
}

func (s *Segment) idBytes(ord uint32) []byte { return s.idBlob[s.idOff[ord]:s.idOff[ord+1]] }

// lookupID returns the ordinal of the record with this id that the segment
// lists as live at build time (the last one, when an id came twice).
func (s *Segment) lookupID(id string) (uint32, bool) {
	i, found := slices.BinarySearchFunc(s.idOrder, id, func(ord uint32, id string) int {
		return bytes.Compare(s.idBytes(ord), unsafe.Slice(unsafe.StringData(id), len(id)))
	})
	if !found {
		return 0, false
	}
	return s.idOrder[i], true
}

// source returns the id and type of segment-local source i.
func (s *Segment) source(i uint16) (id, typ string) {
	return string(s.srcBlob[s.srcOff[i]:s.srcOff[i+1]]), string(s.srcTypeBlob[s.srcTypeOff[i]:s.srcTypeOff[i+1]])
}

func (s *Segment) sources() int { return len(s.srcOff) - 1 }

// postings returns the name strings holding token id.
func (s *Segment) postings(id uint32) []uint32 { return s.post[s.postOff[id]:s.postOff[id+1]] }

// bagPostings returns the records whose search_all bag holds token id
// outside their name strings.
func (s *Segment) bagPostings(id uint32) []uint32 {
	return s.bagPost[s.bagPostOff[id]:s.bagPostOff[id+1]]
}

// nameToks returns the token ids of name string ns.
func (s *Segment) nameToks(ns uint32) []uint32 { return s.nsTok[s.nsOff[ns]:s.nsOff[ns+1]] }

// bag returns record ord's search_all bag and how many of its tokens, at
// the start, are name-field tokens.
func (s *Segment) bag(ord uint32) (toks []uint32, names int) {
	return s.bagTok[s.bagOff[ord]:s.bagOff[ord+1]], int(s.bagNames[ord])
}

func (s *Segment) et(ord uint32) uint8 { return s.recFlags[ord] & flagETMask }

// acquire and drop count the indexes holding the segment; the last drop
// releases its memory.
func (s *Segment) acquire() { s.refs.Add(1) }

func (s *Segment) drop() {
	if s.refs.Add(-1) == 0 && s.release != nil {
		s.release()
	}
}

// OpenSegmentFile maps the segment file at path (read into the heap where
// mapping is not available) and checks it as OpenSegment does. The
// mapping lasts until no index holds the segment.
func OpenSegmentFile(path string) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open index segment: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open index segment: %w", err)
	}
	data, unmap, err := mapFile(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("open index segment: %w", err)
	}
	s, err := OpenSegment(data, unmap)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("index segment %s: %w", filepath.Base(path), err)
	}
	s.name = filepath.Base(path)
	return s, nil
}

// Bytes returns the segment's image, to be written to a file: read only.
func (s *Segment) Bytes() []byte { return s.data }

// Close releases a segment that no index holds: one opened and then not
// used. A segment an index holds is released by the index (Index.Close).
func (s *Segment) Close() error {
	if s.refs.Load() == 0 && s.release != nil {
		release := s.release
		s.release = nil
		return release()
	}
	return nil
}
