package engine

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"unsafe"
)

// SegmentSink receives a segment image as it is written: the body in
// order through Write, then the header at offset 0 through WriteAt. An
// *os.File is one (the file then holds the image whole); so is the buffer
// an in-memory build uses.
type SegmentSink interface {
	io.Writer
	io.WriterAt
}

// segWriter writes the sections of one image in order, each 8-byte
// aligned, keeping the body checksum and the section table as it goes.
type segWriter struct {
	w    SegmentSink
	off  uint64 // offset of the next byte
	crc  uint32
	secs []secEntry
	cur  *secEntry // the section being written
	err  error
	buf  []byte // encoding scratch on big-endian machines
}

// newSegWriter starts an image: it writes the header's place, zeros until
// finish fills it in.
func newSegWriter(w SegmentSink) *segWriter {
	sw := &segWriter{w: w}
	sw.write(make([]byte, segHeaderSize), false)
	return sw
}

func (sw *segWriter) write(b []byte, body bool) {
	if sw.err != nil || len(b) == 0 {
		return
	}
	if _, err := sw.w.Write(b); err != nil {
		sw.err = fmt.Errorf("write index segment: %w", err)
		return
	}
	if body {
		sw.crc = crc32.Update(sw.crc, castagnoli, b)
	}
	sw.off += uint64(len(b))
}

// begin starts section id; its bytes follow with add, and end closes it.
func (sw *segWriter) begin(id uint32) {
	var zeros [8]byte
	if pad := (8 - sw.off%8) % 8; pad > 0 {
		sw.write(zeros[:pad], true)
	}
	sw.secs = append(sw.secs, secEntry{id: id, elem: secElem[id], off: sw.off})
	sw.cur = &sw.secs[len(sw.secs)-1]
}

func (sw *segWriter) add(b []byte) { sw.write(b, true) }

func (sw *segWriter) end() {
	sw.cur.size = sw.off - sw.cur.off
	sw.cur = nil
}

// Little-endian bytes of typed arrays: the arrays themselves on a
// little-endian machine, an encoded copy elsewhere.

func (sw *segWriter) addU16s(a []uint16) {
	if littleEndian {
		sw.add(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a)))
		return
	}
	sw.buf = sw.buf[:0]
	for _, v := range a {
		sw.buf = binary.LittleEndian.AppendUint16(sw.buf, v)
	}
	sw.add(sw.buf)
}

func (sw *segWriter) addU32s(a []uint32) {
	if littleEndian {
		sw.add(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 4*len(a)))
		return
	}
	sw.buf = sw.buf[:0]
	for _, v := range a {
		sw.buf = binary.LittleEndian.AppendUint32(sw.buf, v)
	}
	sw.add(sw.buf)
}

func (sw *segWriter) addU64s(a []uint64) {
	if littleEndian {
		sw.add(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 8*len(a)))
		return
	}
	sw.buf = sw.buf[:0]
	for _, v := range a {
		sw.buf = binary.LittleEndian.AppendUint64(sw.buf, v)
	}
	sw.add(sw.buf)
}

// Whole sections from one array.

func (sw *segWriter) bytes(id uint32, b []byte) { sw.begin(id); sw.add(b); sw.end() }

func (sw *segWriter) u16(id uint32, a []uint16) { sw.begin(id); sw.addU16s(a); sw.end() }

func (sw *segWriter) u32(id uint32, a []uint32) { sw.begin(id); sw.addU32s(a); sw.end() }

func (sw *segWriter) u64(id uint32, a []uint64) { sw.begin(id); sw.addU64s(a); sw.end() }

// segCounts are the header's counts: tokens, name strings, records,
// sources.
type segCounts struct{ tokens, names, records, sources int }

// finish writes the header and returns the image's size.
func (sw *segWriter) finish(c segCounts) (int64, error) {
	if sw.err != nil {
		return 0, sw.err
	}
	for _, n := range []int{c.tokens, c.names, c.records, c.sources} {
		if n < 0 || uint64(n) > 1<<32-2 {
			return 0, fmt.Errorf("write index segment: %d entries do not fit a segment", n)
		}
	}
	if c.sources > 1<<16 {
		return 0, fmt.Errorf("write index segment: %d sources, at most %d fit a segment", c.sources, 1<<16)
	}
	hdr := make([]byte, segHeaderSize)
	copy(hdr[hdrMagic:], segMagic)
	binary.LittleEndian.PutUint32(hdr[hdrFormat:], segFormat)
	binary.LittleEndian.PutUint32(hdr[hdrBodyCRC:], sw.crc)
	binary.LittleEndian.PutUint32(hdr[hdrSections:], uint32(len(sw.secs)))
	binary.LittleEndian.PutUint32(hdr[hdrTokens:], uint32(c.tokens))
	binary.LittleEndian.PutUint32(hdr[hdrNames:], uint32(c.names))
	binary.LittleEndian.PutUint32(hdr[hdrRecords:], uint32(c.records))
	binary.LittleEndian.PutUint32(hdr[hdrSources:], uint32(c.sources))
	binary.LittleEndian.PutUint64(hdr[hdrSize:], sw.off)
	for i, e := range sw.secs {
		putSecEntry(hdr[hdrTable+i*segSectionSize:], e)
	}
	binary.LittleEndian.PutUint32(hdr[hdrHeaderCRC:], headerCRC(hdr))
	if _, err := sw.w.WriteAt(hdr, 0); err != nil {
		return 0, fmt.Errorf("write index segment header: %w", err)
	}
	return int64(sw.off), nil
}

// memSink is a SegmentSink in memory: the image of an in-memory build.
type memSink struct{ b []byte }

func (m *memSink) Write(p []byte) (int, error) {
	m.b = append(m.b, p...)
	return len(p), nil
}

func (m *memSink) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off+int64(len(p)) > int64(len(m.b)) {
		return 0, fmt.Errorf("write at %d+%d past the %d bytes written", off, len(p), len(m.b))
	}
	return copy(m.b[off:], p), nil
}

// offsets turns lengths into the offsets of a flat array: n+1 entries,
// from 0 to the total, and an error past what a uint32 holds.
func offsets(n int, length func(i int) int) ([]uint32, error) {
	off := make([]uint32, n+1)
	total := uint64(0)
	for i := range n {
		total += uint64(length(i))
		if total > 1<<32-1 {
			return nil, fmt.Errorf("write index segment: more than %d entries in one array", uint64(1<<32-1))
		}
		off[i+1] = uint32(total)
	}
	return off, nil
}
