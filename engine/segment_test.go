package engine

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unsafe"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// segmentImage builds the image of a segment over recs, as a file holds
// it, and the tombstones of ids given twice.
func segmentImage(t testing.TB, recs []*record.Record) ([]byte, []uint64) {
	t.Helper()
	bl := NewSegmentBuilder()
	for _, r := range recs {
		bl.Add(r)
	}
	var m memSink
	if _, dead, err := bl.FinishSegment(&m); err != nil {
		t.Fatal(err)
	} else {
		return m.b, dead
	}
	return nil, nil
}

// mapSource is a RecordSource over a map, as the store is one.
type mapSource map[string]*record.Record

func (m mapSource) Records(ids []string) ([]*record.Record, error) {
	out := make([]*record.Record, len(ids))
	for i, id := range ids {
		if out[i] = m[id]; out[i] == nil {
			return nil, errors.New("no record " + id)
		}
	}
	return out, nil
}

func sourceOf(recs []*record.Record) mapSource {
	m := mapSource{}
	for _, r := range recs {
		m[r.ID] = r
	}
	return m
}

// TestSegmentFileAnswersLikeBrute writes a segment to a file, maps it
// back (the checksums and arrays checked), and holds the index over it,
// which reads its hits' records from a source, to the brute-force
// matcher.
func TestSegmentFileAnswersLikeBrute(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	nRecs, nQueries := 1000, 45 // AMLSCREEN_LONG_TESTS=1: 2500 and 600
	if longTests() {
		nRecs, nQueries = 2500, 600
	}
	recs := generated(nRecs, 21)
	img, dead := segmentImage(t, recs)
	path := filepath.Join(t.TempDir(), "seg")
	if err := os.WriteFile(path, img, 0o600); err != nil {
		t.Fatal(err)
	}
	seg, err := OpenSegmentFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := NewPersisted([]*Segment{seg}, [][]uint64{dead}, sourceOf(recs))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if seg.recs != nil {
		t.Fatal("a persisted segment keeps records beside it")
	}
	agreesWithBrute(t, ix, recs, nQueries, 4)
}

// TestSegmentRefusesDamage: a segment file with any byte changed, cut
// short or of another format version is refused with ErrCorruptSegment,
// never opened and never a panic.
func TestSegmentRefusesDamage(t *testing.T) {
	skipUnderRace(t)
	recs := generated(300, 3)
	img, _ := segmentImage(t, recs)
	if _, err := OpenSegment(img, nil); err != nil {
		t.Fatalf("the intact image: %v", err)
	}
	refused := func(name string, b []byte) {
		t.Helper()
		if _, err := OpenSegment(b, nil); !errors.Is(err, ErrCorruptSegment) {
			t.Errorf("%s: error %v, want ErrCorruptSegment", name, err)
		}
	}
	// Every byte of the header, and bytes spread over the body.
	positions := []int{}
	for i := range segHeaderSize {
		positions = append(positions, i)
	}
	for i := segHeaderSize; i < len(img); i += 97 {
		positions = append(positions, i)
	}
	positions = append(positions, len(img)-1)
	changed := 0
	for _, at := range positions {
		// Flipped in place and back: OpenSegment only reads the image, and
		// a copy of it per position was most of the test's time.
		img[at] ^= 0x10
		_, err := OpenSegment(img, nil)
		img[at] ^= 0x10
		if err == nil {
			// Only bytes no check covers may change unnoticed: none.
			t.Errorf("byte %d flipped: opened", at)
			continue
		} else if !errors.Is(err, ErrCorruptSegment) {
			t.Errorf("byte %d flipped: %v", at, err)
		}
		changed++
	}
	for _, n := range []int{0, 7, segHeaderSize - 1, segHeaderSize, len(img) / 2, len(img) - 1} {
		refused("cut to "+itoa(n), img[:n])
	}
	refused("a byte more", append(append([]byte(nil), img...), 0))
	b := append([]byte(nil), img...)
	binary.LittleEndian.PutUint32(b[hdrFormat:], segFormat+1)
	refused("format version", b)
	if changed < 100 {
		t.Fatalf("only %d damaged images tried", changed)
	}
}

// TestSegmentChecksArraysBehindAValidChecksum: an image whose checksums
// are right but whose arrays point outside themselves (a writer's bug, or
// a crafted file) is refused too. The checksums are recomputed after the
// damage, so only the array checks can catch it.
func TestSegmentChecksArraysBehindAValidChecksum(t *testing.T) {
	recs := generated(300, 3)
	img, _ := segmentImage(t, recs)
	seg, err := OpenSegment(img, nil)
	if err != nil {
		t.Fatal(err)
	}
	offsetOf := func(a []uint32) int { return int(uintptrOf(u32bytes(a)) - uintptrOf(img)) }
	for _, c := range []struct {
		name string
		at   int
		val  uint32
	}{
		{"posting past the name strings", offsetOf(seg.post), uint32(len(seg.nsRec))},
		{"name-string token past the dictionary", offsetOf(seg.nsTok), uint32(seg.Len()) + 5},
		{"name-string record past the records", offsetOf(seg.nsRec) + 4*(len(seg.nsRec)-1), uint32(seg.Records())},
		{"bag token past the dictionary", offsetOf(seg.bagTok), 1 << 30},
		{"offset going back", offsetOf(seg.nsOff) + 8, 0},
		{"gram id past the dictionary", offsetOf(seg.GramIDs), uint32(seg.Len())},
		{"id order past the records", offsetOf(seg.idOrder), uint32(seg.Records())},
		{"search_all posting past the records", offsetOf(seg.bagPost), uint32(seg.Records()) + 1},
	} {
		b := append([]byte(nil), img...)
		binary.LittleEndian.PutUint32(b[c.at:], c.val)
		fixChecksums(b)
		if _, err := OpenSegment(b, nil); !errors.Is(err, ErrCorruptSegment) {
			t.Errorf("%s: error %v, want ErrCorruptSegment", c.name, err)
		}
	}
}

// fixChecksums recomputes both checksums of an image.
func fixChecksums(b []byte) {
	if len(b) < segHeaderSize {
		return
	}
	binary.LittleEndian.PutUint32(b[hdrBodyCRC:], crc32c(b[segHeaderSize:]))
	binary.LittleEndian.PutUint32(b[hdrHeaderCRC:], headerCRC(b))
}

// FuzzOpenSegment: arbitrary bytes are refused or opened, never a panic;
// an image that opens answers searches without a panic. Half the inputs
// get their checksums fixed, so that the array checks behind them are
// explored too.
func FuzzOpenSegment(f *testing.F) {
	img, _ := segmentImage(f, generated(6, 9))
	f.Add(img, false)
	f.Add(img, true)
	f.Add(img[:segHeaderSize], false)
	f.Add([]byte(segMagic), false)
	f.Add([]byte{}, false)
	small, _ := segmentImage(f, []*record.Record{{ID: "A", Name: "Ivan Petrov", EntityType: "INDIVIDUAL", SourceID: "s"}})
	f.Add(small, true)
	f.Fuzz(func(t *testing.T, b []byte, fix bool) {
		if len(b) > 1<<22 {
			return
		}
		b = append([]byte(nil), b...) // 8-byte aligned, as a file or a build's buffer is
		if fix {
			fixChecksums(b)
		}
		seg, err := OpenSegment(b, nil)
		if err != nil {
			if !errors.Is(err, ErrCorruptSegment) {
				t.Fatalf("error %v does not wrap ErrCorruptSegment", err)
			}
			return
		}
		ix, err := NewPersisted([]*Segment{seg}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []query.Query{
			{Names: "ivan petrov", Fuzzy: 2, DOB: "00/00/1970", Citizenship: "ru", Gender: "male"},
			{SearchAll: "ivan", Fuzzy: 1, Sources: map[string]bool{"s": true}},
			{Names: "a"},
		} {
			ix.Search(q) // hits without records are an error, not a panic
		}
		ix.Search(query.Query{Names: "ivan petrov", Fuzzy: 2, Match: query.Scored})
		ix.ScoreRecord(query.Query{Names: "ivan petrov", Fuzzy: 1, Match: query.Scored}, "A")
		ix.Stats()
		ix.SourceTypes()
		ix.Get("A")
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

func u32bytes(a []uint32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 4*len(a))
}
