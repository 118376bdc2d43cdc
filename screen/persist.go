package screen

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// The persisted index. Beside a store at PATH, the directory PATH.index
// holds the index's segment files (seg-*.seg), their tombstone bitsets
// (tomb-*.bits) and a MANIFEST naming the ones that make the index, with
// their sizes and checksums, and the store state they reflect (version and
// sequence number). Files are written under new names, fsynced, and the
// MANIFEST replaced last (temporary file, fsync, rename, directory fsync),
// so a kill at any point leaves the previous MANIFEST and every file it
// names whole. The store always commits first: an index never runs ahead
// of its store, only behind, and an index behind is caught up on open.

// crashPoint is called at the points of an index write where the crash
// test (crash_test.go) kills its child process; a no-op otherwise.
var crashPoint = func(string) {}

// IndexDir returns the directory of the persisted index of the store at
// storePath.
func IndexDir(storePath string) string { return storePath + ".index" }

const (
	manifestName   = "MANIFEST"
	manifestFormat = 1
)

// manifest is the MANIFEST of a persisted index.
type manifest struct {
	Format int `json:"format"`
	// StoreID is the id of the store the index was built from
	// (store.Store.ID): an index beside another store is rebuilt.
	StoreID      string        `json:"store_id,omitempty"`
	StoreVersion string        `json:"store_version"`
	StoreSeq     uint64        `json:"store_seq"`
	Records      int           `json:"records"`
	Segments     []manifestSeg `json:"segments"`
	Written      time.Time     `json:"written"`
}

// manifestSeg is one segment of a manifest: its file and its tombstones.
type manifestSeg struct {
	File    string `json:"file"`
	Size    int64  `json:"size"`
	Tomb    string `json:"tomb,omitempty"` // "" when the segment has none
	TombCRC uint32 `json:"tomb_crc,omitempty"`
	Records int    `json:"records"`
	Live    int    `json:"live"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errStale wraps the reasons a persisted index cannot be used as it is.
var errStale = errors.New("persisted index not usable")

// errNoIndex is the reason of errStale for a store whose index was never
// written (no MANIFEST, no other file): its first start, nothing to warn
// about.
var errNoIndex = errors.New("none built yet")

// readManifest reads and checks the MANIFEST of dir.
func readManifest(dir string) (*manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, manifestName))
	if errors.Is(err, os.ErrNotExist) {
		if entries, _ := os.ReadDir(dir); len(entries) == 0 {
			return nil, fmt.Errorf("%w: %w", errStale, errNoIndex)
		}
		return nil, fmt.Errorf("%w: no MANIFEST", errStale)
	}
	if err != nil {
		return nil, fmt.Errorf("read MANIFEST: %w", err)
	}
	return parseManifest(raw)
}

// parseManifest parses and checks the bytes of a MANIFEST.
func parseManifest(raw []byte) (*manifest, error) {
	if len(raw) > 16<<20 {
		return nil, fmt.Errorf("%w: MANIFEST of %d bytes", errStale, len(raw))
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: MANIFEST: %v", errStale, err)
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("%w: MANIFEST format %d, this program reads %d", errStale, m.Format, manifestFormat)
	}
	if m.Records < 0 {
		return nil, fmt.Errorf("%w: MANIFEST counts %d records", errStale, m.Records)
	}
	for _, s := range m.Segments {
		if !validName(s.File, "seg-", ".seg") || (s.Tomb != "" && !validName(s.Tomb, "tomb-", ".bits")) {
			return nil, fmt.Errorf("%w: MANIFEST names file %q", errStale, s.File)
		}
		if s.Size < 0 || s.Records < 0 || s.Live < 0 || s.Live > s.Records {
			return nil, fmt.Errorf("%w: MANIFEST gives segment %s %d bytes, %d records, %d live", errStale, s.File, s.Size, s.Records, s.Live)
		}
	}
	return &m, nil
}

// validName reports whether name is a plain file name of the index's.
func validName(name, prefix, suffix string) bool {
	return strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) && filepath.Base(name) == name && !strings.ContainsAny(name, `/\`)
}

// openManifest maps the segments m names and reads their tombstones.
// Segments already open (by file name) are reused rather than checked
// again: segment files never change once written.
func openManifest(dir string, m *manifest, open map[string]*engine.Segment) ([]*engine.Segment, [][]uint64, error) {
	segs := make([]*engine.Segment, 0, len(m.Segments))
	tombs := make([][]uint64, 0, len(m.Segments))
	fail := func(err error) ([]*engine.Segment, [][]uint64, error) {
		for _, s := range segs {
			if open[s.Name()] != s {
				s.Close()
			}
		}
		return nil, nil, err
	}
	for _, ms := range m.Segments {
		seg := open[ms.File]
		if seg == nil {
			var err error
			if seg, err = engine.OpenSegmentFile(filepath.Join(dir, ms.File)); err != nil {
				return fail(fmt.Errorf("%w: %v", errStale, err))
			}
		}
		segs = append(segs, seg)
		if seg.Size() != ms.Size {
			return fail(fmt.Errorf("%w: segment %s has %d bytes, the MANIFEST says %d", errStale, ms.File, seg.Size(), ms.Size))
		}
		var tomb []uint64
		if ms.Tomb != "" {
			var err error
			if tomb, err = readTomb(filepath.Join(dir, ms.Tomb), seg.Records(), ms.TombCRC); err != nil {
				return fail(err)
			}
		}
		tombs = append(tombs, tomb)
	}
	return segs, tombs, nil
}

// readTomb reads a tombstone file: little-endian words of a bitset over
// records, checked against the MANIFEST's checksum.
func readTomb(path string, records int, sum uint32) ([]uint64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: tombstones: %v", errStale, err)
	}
	return parseTomb(filepath.Base(path), raw, records, sum)
}

// parseTomb parses the bytes of the tombstone file name.
func parseTomb(name string, raw []byte, records int, sum uint32) ([]uint64, error) {
	if records < 0 {
		return nil, fmt.Errorf("%w: tombstones %s for %d records", errStale, name, records)
	}
	words := (records + 63) / 64
	if len(raw) != 8*words {
		return nil, fmt.Errorf("%w: tombstones %s have %d bytes for %d records", errStale, name, len(raw), records)
	}
	if got := crc32.Checksum(raw, castagnoli); got != sum {
		return nil, fmt.Errorf("%w: tombstones %s fail their checksum (%08x, the MANIFEST says %08x)", errStale, name, got, sum)
	}
	out := make([]uint64, words)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	if tail := records % 64; tail != 0 && out[words-1]>>tail != 0 {
		return nil, fmt.Errorf("%w: tombstones %s mark records past the segment's %d", errStale, name, records)
	}
	return out, nil
}

// writer writes the files of one persisted index.
type writer struct {
	dir string
	seq uint64 // the store sequence number being written, for file names
	n   int
}

// name returns a new file name of the index: unique within the directory,
// so a file a MANIFEST names is never overwritten.
func (w *writer) name(prefix, suffix string) string {
	for {
		w.n++
		name := prefix + strconv.FormatUint(w.seq, 10) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.Itoa(w.n) + suffix
		if _, err := os.Lstat(filepath.Join(w.dir, name)); errors.Is(err, os.ErrNotExist) {
			return name
		}
	}
}

// create opens a new file for writing.
func (w *writer) create(prefix, suffix string) (*os.File, string, error) {
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("index directory: %w", err)
	}
	name := w.name(prefix, suffix)
	path := filepath.Join(w.dir, name)
	if prefix == buildPrefix {
		// Claimed before it exists, so that no clean-up removes it
		// while it is written.
		claimBuildFile(path, true)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		claimBuildFile(path, false)
		return nil, "", fmt.Errorf("create index file: %w", err)
	}
	return f, name, nil
}

// finishFile fsyncs and closes f; on error it removes it.
func finishFile(f *os.File, err error) error {
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", filepath.Base(f.Name()), err)
	}
	return nil
}

// segmentFile writes a segment with write (a build or a merge streaming
// into the file), then maps it.
func (w *writer) segmentFile(write func(engine.SegmentSink) error) (*engine.Segment, error) {
	path, err := w.writeSegment("seg-", write)
	if err != nil {
		return nil, err
	}
	seg, err := engine.OpenSegmentFile(path)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return seg, nil
}

// writeSegment writes a new file named with prefix with write streaming
// into it, fsyncs it, and returns its path.
func (w *writer) writeSegment(prefix string, write func(engine.SegmentSink) error) (string, error) {
	f, _, err := w.create(prefix, ".seg")
	if err != nil {
		return "", err
	}
	path := f.Name()
	// Segment writers write section by section, some in small pieces:
	// buffered, they cost a few large writes.
	bw := &bufSink{w: bufio.NewWriterSize(f, 1<<20), f: f}
	err = write(bw)
	if err == nil {
		err = bw.w.Flush()
	}
	if err := finishFile(f, err); err != nil {
		claimBuildFile(path, false)
		return "", err
	}
	return path, nil
}

// bufSink is a buffered engine.SegmentSink over a file: writes go through
// the buffer, WriteAt (the header, at the end) flushes it first.
type bufSink struct {
	w *bufio.Writer
	f *os.File
}

func (b *bufSink) Write(p []byte) (int, error) { return b.w.Write(p) }

func (b *bufSink) WriteAt(p []byte, off int64) (int, error) {
	if err := b.w.Flush(); err != nil {
		return 0, err
	}
	return b.f.WriteAt(p, off)
}

// copySegment writes a segment built in memory (a change set's) to a file
// and maps it.
func (w *writer) copySegment(s *engine.Segment) (*engine.Segment, error) {
	return w.segmentFile(func(sink engine.SegmentSink) error {
		_, err := sink.Write(s.Bytes())
		return err
	})
}

// tombFile writes a tombstone bitset and returns its name and checksum.
func (w *writer) tombFile(tomb []uint64, records int) (string, uint32, error) {
	raw := make([]byte, 8*((records+63)/64))
	for i := range min(len(tomb), len(raw)/8) {
		binary.LittleEndian.PutUint64(raw[8*i:], tomb[i])
	}
	f, name, err := w.create("tomb-", ".bits")
	if err != nil {
		return "", 0, err
	}
	_, err = f.Write(raw)
	if err := finishFile(f, err); err != nil {
		return "", 0, err
	}
	return name, crc32.Checksum(raw, castagnoli), nil
}

// writeManifest makes m the index's MANIFEST: temporary file, fsync,
// rename, directory fsync. Then it removes the files no longer named.
func writeManifest(dir string, m *manifest) error {
	m.Format = manifestFormat
	m.Written = time.Now().UTC()
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write MANIFEST: %w", err)
	}
	tmp := filepath.Join(dir, manifestName+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write MANIFEST: %w", err)
	}
	_, err = f.Write(append(raw, '\n'))
	if err := finishFile(f, err); err != nil {
		return err
	}
	crashPoint("manifest")
	if err := os.Rename(tmp, filepath.Join(dir, manifestName)); err != nil {
		return fmt.Errorf("write MANIFEST: %w", err)
	}
	crashPoint("renamed")
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write MANIFEST: %w", err)
	}
	removeUnnamed(dir, m)
	return nil
}

// removeUnnamed deletes the index files m does not name: those of older
// states, and leftovers of a write that was killed.
func removeUnnamed(dir string, m *manifest) {
	named := map[string]bool{}
	for _, s := range m.Segments {
		named[s.File] = true
		named[s.Tomb] = true
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if !named[n] && (validName(n, "seg-", ".seg") || validName(n, "tomb-", ".bits")) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// storeRecords reads hit records from the store, at the sequence number
// the index reflects.
type storeRecords struct {
	st    *store.Store
	seq   uint64
	moved func() // called when the store is found ahead of the index
}

// Records reads the records with these ids in one read transaction of
// the store, provided it is still at the index's sequence number; if a
// change set committed since, the error wraps engine.ErrRecordsMoved and
// the search is answered again once the index caught up.
func (s storeRecords) Records(ids []string) ([]*record.Record, error) {
	recs, err := s.st.RecordsAt(s.seq, ids)
	if errors.Is(err, store.ErrMoved) {
		if s.moved != nil {
			s.moved()
		}
		return nil, fmt.Errorf("%w: %v", engine.ErrRecordsMoved, err)
	}
	return recs, err
}

// Inspect describes the persisted index of st without opening its
// segments: what its MANIFEST says, whether it was built from this store
// and is at its current version with as many records. Files are only
// checked for their sizes; InspectChecked verifies their checksums too.
func Inspect(st *store.Store) *store.IndexStatus { return inspect(st, false) }

// InspectChecked is Inspect that also reads every segment and tombstone
// file and verifies its checksums, as an open does: a damaged file is
// reported as "unreadable" with the mismatch. It reads the whole index,
// so amlscreen status runs it and /v1/status does not.
func InspectChecked(st *store.Store) *store.IndexStatus { return inspect(st, true) }

func inspect(st *store.Store, verify bool) *store.IndexStatus {
	out := &store.IndexStatus{State: "unreadable"}
	dir := IndexDir(st.Path())
	m, err := readManifest(dir)
	if err != nil {
		out.State, out.Reason = "missing", err.Error()
		if _, serr := os.Stat(filepath.Join(dir, manifestName)); serr == nil {
			out.State = "unreadable"
		}
		return out
	}
	out.Version, out.Records, out.Segments = m.StoreVersion, m.Records, len(m.Segments)
	for _, s := range m.Segments {
		out.Bytes += s.Size
		out.Tombstones += s.Records - s.Live
		fi, err := os.Stat(filepath.Join(dir, s.File))
		if err != nil || fi.Size() != s.Size {
			out.State, out.Reason = "unreadable", fmt.Sprintf("segment %s missing or of another size", s.File)
			return out
		}
	}
	if id := st.ID(); m.StoreID != id {
		out.State, out.Reason = "foreign", fmt.Sprintf("built from store %q, this store is %q", m.StoreID, id)
		return out
	}
	if verify {
		if why := verifyFiles(dir, m); why != "" {
			out.State, out.Reason = "unreadable", why
			return out
		}
	}
	ver, seq, err := st.Current()
	switch {
	case err != nil:
		out.Reason = err.Error()
	case ver.ID == m.StoreVersion && seq == m.StoreSeq:
		out.State = "current"
		if n, err := st.CountAt(seq); err == nil && n != m.Records {
			out.State, out.Reason = "unreadable", fmt.Sprintf("the MANIFEST counts %d records, the store %d", m.Records, n)
		}
	default:
		out.State = "stale"
		out.Reason = fmt.Sprintf("the store is at %q (change set %d), the index at %q (%d)", ver.ID, seq, m.StoreVersion, m.StoreSeq)
	}
	return out
}

// verifyFiles opens every file m names, checksums verified, and closes
// it again; it returns what failed, or "".
func verifyFiles(dir string, m *manifest) string {
	for _, ms := range m.Segments {
		seg, err := engine.OpenSegmentFile(filepath.Join(dir, ms.File))
		if err != nil {
			return fmt.Sprintf("segment %s: %v", ms.File, err)
		}
		records := seg.Records()
		seg.Close()
		if ms.Tomb != "" {
			if _, err := readTomb(filepath.Join(dir, ms.Tomb), records, ms.TombCRC); err != nil {
				return err.Error()
			}
		}
	}
	return ""
}
