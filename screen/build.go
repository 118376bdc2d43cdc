package screen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Building an index from all the records (a full import, a rebuild) in
// bounded memory. A build holds at most partRecords records' worth of
// arrays: each part is written to a file of its own as it fills, and the
// parts are merged into one segment at the end. The merge streams (see
// engine.MergeSegments): it holds the merged dictionary and one remap
// table per part, not the records. Before this, a build held every
// record's arrays at once and its memory grew with the database: 3.9 GB
// at the peak of importing two million records.
//
// A build writes its files under the prefix "build-", which no MANIFEST
// names and which the clean-up after a MANIFEST (removeUnnamed) leaves
// alone, so a change set persisted meanwhile cannot delete a build's
// files under it. The result is renamed to a segment file ("seg-") when it
// is installed; leftovers of a killed build are removed the next time the
// index is opened to write (removeStaleBuilds).

// partRecords is the most records one part of a build holds in memory.
// At about 500 bytes of arrays per record while it is built, a part takes
// some 130 MB; a smaller part makes more files to merge. Tests make it
// small.
var partRecords = 262_144

// buildPrefix is the file name prefix of a build's files.
const buildPrefix = "build-"

// building lists the files of builds under way in this process, so that
// removeStaleBuilds removes only those of killed processes.
var building = struct {
	sync.Mutex
	files map[string]bool
}{files: map[string]bool{}}

func claimBuildFile(path string, on bool) {
	building.Lock()
	defer building.Unlock()
	if on {
		building.files[path] = true
	} else {
		delete(building.files, path)
	}
}

// removeStaleBuilds deletes build files in dir that no build of this
// process is writing: leftovers of a process killed during a build. Only
// a writer calls it, and a store has one writing process at a time.
func removeStaleBuilds(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	building.Lock()
	defer building.Unlock()
	for _, e := range ents {
		n := e.Name()
		path := filepath.Join(dir, n)
		if strings.HasPrefix(n, buildPrefix) && !building.files[path] {
			os.Remove(path)
		}
	}
}

// chunkedBuild builds one segment file from records in bounded memory.
// It is used by one goroutine.
type chunkedBuild struct {
	w     *writer
	bl    *engine.Builder
	parts []string   // part files written, in order
	dead  [][]uint64 // per part, its records replaced within it
	err   error
}

func newChunkedBuild(dir string) *chunkedBuild {
	return &chunkedBuild{w: &writer{dir: dir}}
}

// Add adds r, writing the current part when it is full.
func (c *chunkedBuild) Add(r *record.Record) {
	if c.err != nil {
		return
	}
	if c.bl == nil {
		c.bl = engine.NewSegmentBuilder()
	}
	c.bl.Add(r)
	if c.bl.Len() == partRecords {
		c.flush()
	}
}

// flush writes the part under way to a file.
func (c *chunkedBuild) flush() {
	bl := c.bl
	c.bl = nil
	var dead []uint64
	path, err := c.w.writeSegment(buildPrefix, func(sink engine.SegmentSink) error {
		var err error
		_, dead, err = bl.FinishSegment(sink)
		return err
	})
	if err != nil {
		c.err = err
		return
	}
	c.parts = append(c.parts, path)
	c.dead = append(c.dead, dead)
	crashPoint("part")
}

// Finish writes the last part and merges the parts into one segment file,
// and returns its path and the records replaced within it (by a later
// record with the same id; none after a merge, which leaves them out).
// The file is the caller's; on error none is left.
func (c *chunkedBuild) Finish() (path string, dead []uint64, err error) {
	if c.bl != nil || (len(c.parts) == 0 && c.err == nil) {
		if c.bl == nil { // no records: an empty segment
			c.bl = engine.NewSegmentBuilder()
		}
		c.flush()
	}
	if c.err != nil {
		c.Discard()
		return "", nil, c.err
	}
	if len(c.parts) == 1 {
		path, dead = c.parts[0], c.dead[0]
		c.parts, c.dead = nil, nil
		return path, dead, nil
	}
	path, err = c.merge()
	c.Discard()
	if err != nil {
		return "", nil, err
	}
	return path, nil, nil
}

// merge merges the part files into a new one.
func (c *chunkedBuild) merge() (string, error) {
	parts := make([]engine.MergePart, 0, len(c.parts))
	defer func() {
		for _, p := range parts {
			p.Segment.Close()
		}
	}()
	for i, path := range c.parts {
		seg, err := engine.OpenSegmentFile(path)
		if err != nil {
			return "", fmt.Errorf("merge the build's parts: %w", err)
		}
		// A part's tombstones are the earlier copies of an id it holds
		// twice, which its id order no longer lists: the merge must be
		// told. Copies in different parts it finds itself, keeping the
		// latest part's.
		parts = append(parts, engine.MergePart{Segment: seg, Tomb: c.dead[i]})
	}
	path, err := c.w.writeSegment(buildPrefix, func(sink engine.SegmentSink) error {
		_, err := engine.MergeSegments(sink, parts)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("merge the build's parts: %w", err)
	}
	return path, nil
}

// Discard removes the part files (an abandoned or finished build).
func (c *chunkedBuild) Discard() {
	if c.bl != nil {
		c.bl.FinishSegment(discardSink{})
		c.bl = nil
	}
	for _, p := range c.parts {
		os.Remove(p)
		claimBuildFile(p, false)
	}
	c.parts, c.dead = nil, nil
}

// discardSink is a segment sink that keeps nothing.
type discardSink struct{}

func (discardSink) Write(p []byte) (int, error)            { return len(p), nil }
func (discardSink) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }

// builtSegment is a finished build: its file, under the build prefix, and
// its tombstones.
type builtSegment struct {
	path string
	dead []uint64
}

// install renames a finished build's file to a segment file of the index
// and maps it.
func (w *writer) install(b builtSegment) (*engine.Segment, error) {
	defer claimBuildFile(b.path, false)
	name := w.name("seg-", ".seg")
	path := filepath.Join(w.dir, name)
	if err := os.Rename(b.path, path); err != nil {
		os.Remove(b.path)
		return nil, fmt.Errorf("install index segment: %w", err)
	}
	seg, err := engine.OpenSegmentFile(path)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return seg, nil
}

// importBuild builds the index of a full import from the records as the
// store reads them (a store.ImportTap). The records go to a goroutine of
// its own in batches, so that reading is held up only when the build
// falls more than a few batches behind; it writes the parts as they fill
// and merges them once reading ended, while the store writes its
// transaction. Records of local sources the import keeps, which the store
// hands over inside its transaction, make a second, small segment.
type importBuild struct {
	dir, version string
	in           chan []*record.Record
	cur          []*record.Record
	closeIn      sync.Once
	done         chan struct{}
	kept         []*record.Record

	// Set by the goroutine before done is closed.
	out builtSegment
	err error
}

// importBatch is the number of records handed to the build goroutine at
// a time.
const importBatch = 4096

func startImportBuild(dir, version string) *importBuild {
	b := &importBuild{dir: dir, version: version, in: make(chan []*record.Record, 8), done: make(chan struct{})}
	go b.run()
	return b
}

func (b *importBuild) run() {
	defer close(b.done)
	c := newChunkedBuild(b.dir)
	for batch := range b.in {
		if batch == nil { // aborted
			c.Discard()
			b.err = errors.New("import aborted")
			for range b.in {
			}
			return
		}
		for _, r := range batch {
			c.Add(r)
		}
	}
	path, dead, err := c.Finish()
	b.out, b.err = builtSegment{path: path, dead: dead}, err
}

// Record implements store.ImportTap.
func (b *importBuild) Record(r *record.Record) {
	b.cur = append(b.cur, r)
	if len(b.cur) == importBatch {
		b.in <- b.cur
		b.cur = make([]*record.Record, 0, importBatch)
	}
}

// Read implements store.ImportTap: the build finishes and merges its
// parts in the background.
func (b *importBuild) Read() {
	b.closeIn.Do(func() {
		if len(b.cur) > 0 {
			b.in <- b.cur
		}
		b.cur = nil
		close(b.in)
	})
}

// Kept implements store.ImportTap.
func (b *importBuild) Kept(r *record.Record) {
	b.kept = append(b.kept, r)
}

// Abort implements store.ImportTap: the build stops and its files go.
func (b *importBuild) Abort(error) {
	b.closeIn.Do(func() {
		b.cur = nil
		b.in <- nil
		close(b.in)
	})
	<-b.done
	b.discard()
}

// discard removes the finished build's file.
func (b *importBuild) discard() {
	if b.out.path != "" {
		os.Remove(b.out.path)
		claimBuildFile(b.out.path, false)
		b.out.path = ""
	}
}

// wait waits for the build to end and returns the segments it makes: the
// import's records, and the local records it kept when there are any.
func (b *importBuild) wait() ([]builtSegment, error) {
	b.Read() // a no-op once the store said so
	<-b.done
	if b.err != nil {
		return nil, b.err
	}
	out := []builtSegment{b.out}
	if len(b.kept) > 0 {
		c := newChunkedBuild(b.dir)
		for _, r := range b.kept {
			c.Add(r)
		}
		path, dead, err := c.Finish()
		if err != nil {
			b.discard()
			return nil, err
		}
		out = append(out, builtSegment{path: path, dead: dead})
	}
	return out, nil
}

var _ store.ImportTap = (*importBuild)(nil)
