package engine

import (
	"encoding/binary"
	"hash/crc32"
	"unsafe"

	"github.com/amlscreen/amlscreen/query"
)

// This file is the layout of a segment, shared by the side that writes
// segments (segbuild.go, segmerge.go) and the side that reads them
// (segment.go).
//
// A segment is one flat byte image, the same in a file and in memory:
//
//	header   segHeaderSize bytes: magic, format version, the checksum of the
//	         header and of the body, counts, and the section table (per
//	         section: its id, element size, offset and length in bytes)
//	sections each at an offset that is a multiple of 8, arrays of
//	         little-endian integers, one after another
//
// Every array is used where it lies: the reader turns each section into a
// Go slice over the image (unsafe.Slice), after checking its bounds,
// alignment and the checksums, and that every id it holds points inside
// the array it indexes. So a damaged file is an error when it is opened,
// never a panic or a wrong answer later.
//
// Sections (T tokens, N name strings, R records, S sources):
//
//	dictionary   token offsets (T+1) and blob, sorted, id = rank; rune
//	             lengths (T); bitset of the tokens that pair fuzzily;
//	             bigram index (dict.Frozen): sorted keys, offsets, ids;
//	             indexed tokens by rune length
//	postings     token → name-string ids (offsets T+1, ids), token →
//	             record ordinals of search_all words outside name strings
//	name strings offsets (N+1) into their token ids, record ordinal,
//	             leading word count, slot in NameStrings(record)
//	records      source ordinal, flags (entity type, gender, has
//	             citizenship), dates of birth and citizenship codes
//	             (offsets R+1 into flat arrays), search_all bag (offsets
//	             R+1 into token ids, name-field tokens first, their count)
//	ids          record ids (offsets R+1, blob), ordinals sorted by id
//	sources      source ids and source types by segment-local ordinal
const (
	segMagic       = "AMLSEG\x00\x01"
	segFormat      = 2 // bumped whenever the layout or the name strings change: old files are rebuilt
	segHeaderSize  = 4096
	segSectionSize = 24 // id, element size (4 bytes each), offset, length (8 bytes each)
	segMaxSections = (segHeaderSize - 64) / segSectionSize
)

// Header fields, at these offsets.
const (
	hdrMagic     = 0  // [8]byte
	hdrFormat    = 8  // uint32
	hdrHeaderCRC = 12 // uint32: crc32c of header bytes [16, segHeaderSize)
	hdrBodyCRC   = 16 // uint32: crc32c of bytes [segHeaderSize, size)
	hdrSections  = 20 // uint32
	hdrTokens    = 24 // uint32
	hdrNames     = 28 // uint32
	hdrRecords   = 32 // uint32
	hdrSources   = 36 // uint32
	hdrSize      = 40 // uint64: the whole image
	hdrTable     = 64
)

// Section ids. A reader refuses an image missing one it needs; the ids
// never change meaning within a format version.
const (
	secTokOff uint32 = iota + 1
	secTokBlob
	secTokRunes
	secTokIndexed
	secGramKeys
	secGramOff
	secGramIDs
	secLenOff
	secLenIDs
	secPostOff
	secPost
	secBagPostOff
	secBagPost
	secNSOff
	secNSTok
	secNSRec
	secNSBase
	secNSSlot
	secRecSrc
	secRecFlags
	secDOBOff
	secDOBs
	secCitOff
	secCits
	secBagOff
	secBagTok
	secBagNames
	secIDOff
	secIDBlob
	secIDOrder
	secSrcOff
	secSrcBlob
	secSrcTypeOff
	secSrcTypeBlob
	secCount // one past the last
)

// secElem is the element size of each section, in bytes.
var secElem = [secCount]uint32{
	secTokOff: 4, secTokBlob: 1, secTokRunes: 1, secTokIndexed: 8,
	secGramKeys: 8, secGramOff: 4, secGramIDs: 4, secLenOff: 4, secLenIDs: 4,
	secPostOff: 4, secPost: 4, secBagPostOff: 4, secBagPost: 4,
	secNSOff: 4, secNSTok: 4, secNSRec: 4, secNSBase: 1, secNSSlot: 2,
	secRecSrc: 2, secRecFlags: 1, secDOBOff: 4, secDOBs: 4, secCitOff: 4, secCits: 2,
	secBagOff: 4, secBagTok: 4, secBagNames: 4,
	secIDOff: 4, secIDBlob: 1, secIDOrder: 4,
	secSrcOff: 4, secSrcBlob: 1, secSrcTypeOff: 4, secSrcTypeBlob: 1,
}

// Record flags: entity type in the low two bits, gender in the next two,
// then whether the record has any citizenship value.
const (
	flagETMask     = 0x3
	flagGenderMask = 0x3 << 2
	flagGenderMale = 1 << 2
	flagGenderFem  = 2 << 2
	flagHasCit     = 1 << 4
)

// castagnoli is the CRC-32C table: the checksum hardware computes.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian is whether this machine stores integers as segments do, so
// that sections can be used in place. (Elsewhere they are decoded.)
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// headerCRC returns the checksum of a header.
func headerCRC(hdr []byte) uint32 { return crc32.Checksum(hdr[hdrBodyCRC:segHeaderSize], castagnoli) }

// secEntry is one row of the section table.
type secEntry struct {
	id, elem  uint32
	off, size uint64
}

func putSecEntry(b []byte, e secEntry) {
	binary.LittleEndian.PutUint32(b[0:], e.id)
	binary.LittleEndian.PutUint32(b[4:], e.elem)
	binary.LittleEndian.PutUint64(b[8:], e.off)
	binary.LittleEndian.PutUint64(b[16:], e.size)
}

func getSecEntry(b []byte) secEntry {
	return secEntry{
		id:   binary.LittleEndian.Uint32(b[0:]),
		elem: binary.LittleEndian.Uint32(b[4:]),
		off:  binary.LittleEndian.Uint64(b[8:]),
		size: binary.LittleEndian.Uint64(b[16:]),
	}
}

// uintptrOf returns the address of b's first byte.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// unsafeBytes views s as bytes without copying; they must not be changed.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// datesU32 views dates as the integers they are.
func datesU32(d []query.Date) []uint32 { return unsafe.Slice((*uint32)(unsafe.SliceData(d)), len(d)) }
