package screen

import (
	"errors"
	"fmt"
	"os"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// States of a persisted index (IndexState.State).
const (
	StateCurrent  = "current"  // opened as it was on disk
	StateReplayed = "replayed" // caught up from the store's change log
	StateRebuilt  = "rebuilt"  // built again from the store's records
	StateImported = "imported" // built from a full import's records as it read them
	StateMemory   = "memory"   // a read-only store's stale index, caught up in memory only
)

// tombFile is a tombstone file written for a segment: the bitset it holds
// (by identity: a published bitset never changes), its name and checksum.
type tombFile struct {
	bits *uint64
	name string
	crc  uint32
}

// catchUp brings the index to the store's current version; the caller
// holds applyMu. At open (first) it reads the persisted index first.
func (d *Database) catchUp(first bool) error {
	ver, seq, err := d.st.Current()
	if err != nil {
		return fmt.Errorf("read store version: %w", err)
	}
	reason := ""
	if first {
		if err := d.openFiles(); err != nil {
			if !errors.Is(err, errStale) {
				return err
			}
			reason = err.Error()
			if errors.Is(err, errNoIndex) {
				reason = errNoIndex.Error()
			}
		}
	}
	if d.ix != nil {
		switch {
		case d.seq == seq && d.version == ver.ID:
			if first {
				d.state = StateCurrent
			}
			return d.loadSources()
		case d.seq < seq:
			changes, to, err := d.st.ChangesSince(d.version)
			if err == nil {
				cv, cseq, err := d.st.Current()
				if err != nil {
					return fmt.Errorf("read store version: %w", err)
				}
				if cv.ID != to {
					return d.catchUp(first) // a change set committed meanwhile
				}
				if n, limit := len(changes), replayLimit(d.ix.Len()); n > limit {
					return d.rebuild(fmt.Sprintf("%d changes to replay, more than %d: building afresh takes less memory", n, limit))
				}
				if err := d.applyChanges(changes, to, cseq); err != nil {
					return err
				}
				if first || d.state == "" {
					d.state = StateReplayed
				}
				if !d.write {
					d.state = StateMemory
				}
				// A change set may have committed meanwhile: go on.
				return d.catchUp(false)
			}
			if !errors.Is(err, store.ErrUnknownVersion) {
				return err
			}
			reason = fmt.Sprintf("the store moved from %q (change set %d) to %q (%d) and its change log does not cover the gap", d.version, d.seq, ver.ID, seq)
		default:
			reason = fmt.Sprintf("the index is at %q (change set %d), the store at %q (%d)", d.version, d.seq, ver.ID, seq)
		}
	}
	return d.rebuild(reason)
}

// openFiles opens the persisted index as its MANIFEST describes it.
func (d *Database) openFiles() error {
	m, err := readManifest(d.dir)
	if err != nil {
		return err
	}
	if id := d.st.ID(); m.StoreID != id {
		if m.StoreID == "" {
			return fmt.Errorf("%w: the MANIFEST names no store (written before stores had ids), this store is %q", errStale, id)
		}
		return fmt.Errorf("%w: the index was built from store %q, this store is %q", errStale, m.StoreID, id)
	}
	segs, tombs, err := openManifest(d.dir, m, nil)
	if err != nil {
		return err
	}
	ix, err := engine.NewPersisted(segs, tombs, d.source(m.StoreSeq))
	if err != nil {
		return err
	}
	// Counted before anything is kept: a MANIFEST or a tombstone file
	// that disagrees with the segments is a damaged index, rebuilt.
	if n := ix.Len(); n != m.Records {
		ix.Close()
		return fmt.Errorf("%w: %d live records, the MANIFEST says %d", errStale, n, m.Records)
	}
	for i, ms := range m.Segments {
		if ms.Tomb != "" && len(tombs[i]) > 0 {
			d.tombs[ms.File] = tombFile{bits: &tombs[i][0], name: ms.Tomb, crc: ms.TombCRC}
		}
	}
	d.swap(ix, m.StoreVersion, m.StoreSeq)
	return nil
}

// countAgrees checks, at open, that an index at the store's version holds
// as many records as the store: one that does not (a tombstone lost, a
// MANIFEST and files from elsewhere) is rebuilt. It returns the reason, or
// "" when the counts agree or the store moved meanwhile (the catch-up
// that follows checks again).
func (d *Database) countAgrees() (string, error) {
	n, err := d.st.CountAt(d.seq)
	if errors.Is(err, store.ErrMoved) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("count records: %w", err)
	}
	if live := d.ix.Len(); live != n {
		return fmt.Sprintf("the index holds %d records, the store %d", live, n), nil
	}
	return "", nil
}

// swap makes ix the index, at version and seq, and closes the one before.
func (d *Database) swap(ix *engine.Index, version string, seq uint64) {
	if d.adm != nil {
		ix.SetAdmitter(d.adm)
	}
	d.mu.Lock()
	old := d.ix
	d.ix, d.version, d.seq = ix, version, seq
	d.mu.Unlock()
	if old != nil && old != ix {
		old.Close()
	}
}

func (d *Database) loadSources() error {
	srcs, err := d.st.Sources()
	if err != nil {
		return fmt.Errorf("load sources: %w", err)
	}
	d.mu.Lock()
	d.sources = srcs
	d.mu.Unlock()
	return nil
}

// applyChanges applies a change set that brings the index to version at
// seq: a new segment (written to a file first) and tombstones, then a
// merge when segments pile up, then the MANIFEST.
func (d *Database) applyChanges(changes []record.Change, version string, seq uint64) error {
	ix := d.ix
	u, err := ix.Prepare(changes, false)
	if err != nil {
		return fmt.Errorf("apply to the index: %w", err)
	}
	w := &writer{dir: d.dir, seq: seq}
	if d.write && u.Segment() != nil {
		seg, err := w.copySegment(u.Segment())
		if err != nil {
			return err
		}
		u.SetSegment(seg)
		crashPoint("segment")
	}
	if err := ix.Commit(u, d.source(seq)); err != nil {
		return fmt.Errorf("apply to the index: %w", err)
	}
	d.mu.Lock()
	d.version, d.seq = version, seq
	d.mu.Unlock()
	if !d.write {
		return nil
	}
	if !d.background {
		if err := d.merge(w); err != nil {
			return err
		}
		return d.persist(w)
	}
	if err := d.persist(w); err != nil {
		return err
	}
	d.mergeSoon()
	return nil
}

// mergeSoon merges segments in a goroutine of its own when they pile up
// (engine.PlanMerge), for an index that lives on (a server): the change
// set that made them pile up is answered from at once, and its writer
// (the sync loop) goes on, while the merge reads the segments and writes
// one file. It holds applyMu, so the next change set waits for it, as
// it would have; searches never do. Close waits for it.
func (d *Database) mergeSoon() {
	if _, ok := engine.PlanMerge(d.ix.Segments()); !ok || !d.merging.CompareAndSwap(false, true) {
		return
	}
	d.bg.Add(1)
	go func() {
		defer d.bg.Done()
		d.applyMu.Lock()
		defer d.applyMu.Unlock()
		// Cleared before the lock goes: an Apply that takes it next and
		// finds segments piling up again must be able to start a merge.
		defer d.merging.Store(false)
		if d.closing.Load() {
			return
		}
		w := &writer{dir: d.dir, seq: d.seq}
		err := d.merge(w)
		if err == nil {
			err = d.persist(w)
		}
		if err != nil {
			d.log.Error("screening index segments not merged; the next change set tries again", "err", err)
		}
	}()
}

// merge merges the segments engine.PlanMerge picks into a new file.
// Searches go on against the old segments meanwhile.
func (d *Database) merge(w *writer) error {
	segs := d.ix.Segments()
	from, ok := engine.PlanMerge(segs)
	if !ok {
		return nil
	}
	parts := make([]engine.MergePart, 0, len(segs)-from)
	for _, s := range segs[from:] {
		parts = append(parts, engine.MergePart{Segment: s.Segment, Tomb: s.Tomb})
	}
	merged, err := w.segmentFile(func(sink engine.SegmentSink) error {
		_, err := engine.MergeSegments(sink, parts)
		return err
	})
	if err != nil {
		return fmt.Errorf("merge index segments: %w", err)
	}
	crashPoint("merged")
	if err := d.ix.ReplaceSegments(segs[from:], merged, nil); err != nil {
		merged.Close()
		return fmt.Errorf("merge index segments: %w", err)
	}
	return nil
}

// persist writes the tombstones not yet on disk and the MANIFEST of the
// current state.
func (d *Database) persist(w *writer) error {
	m := &manifest{StoreID: d.st.ID(), StoreVersion: d.version, StoreSeq: d.seq, Records: d.ix.Len()}
	keep := map[string]tombFile{}
	for _, s := range d.ix.Segments() {
		name := s.Segment.Name()
		if name == "" {
			return fmt.Errorf("write index: a segment has no file")
		}
		ms := manifestSeg{File: name, Size: s.Segment.Size(), Records: s.Segment.Records(), Live: s.Live}
		if len(s.Tomb) > 0 {
			tf, ok := d.tombs[name]
			if !ok || tf.bits != &s.Tomb[0] {
				n, crc, err := w.tombFile(s.Tomb, s.Segment.Records())
				if err != nil {
					return err
				}
				tf = tombFile{bits: &s.Tomb[0], name: n, crc: crc}
			}
			keep[name] = tf
			ms.Tomb, ms.TombCRC = tf.name, tf.crc
		}
		m.Segments = append(m.Segments, ms)
	}
	if err := writeManifest(d.dir, m); err != nil {
		return err
	}
	d.tombs = keep
	return nil
}

// replayLimit is the most changes replayed into an index of live
// records: a change set becomes one segment built in memory, so a larger
// one (a full import that changed most records) is built afresh, in parts
// of bounded size, instead.
func replayLimit(live int) int { return max(partRecords, live/4) }

// rebuild builds the index again from the store's records, with one log
// line saying why, and (for a writable store) writes it: in parts of
// bounded memory (build.go), merged into one segment.
func (d *Database) rebuild(reason string) error {
	if reason != "" {
		d.log.Info("building the screening index from the store", "reason", reason, "index", d.dir)
	}
	if !d.write {
		return d.rebuildInMemory()
	}
	c := newChunkedBuild(d.dir)
	ver, seq, err := d.st.LoadAllAt(func(r *record.Record) error {
		c.Add(r)
		return c.err
	})
	if err != nil {
		c.Discard()
		return fmt.Errorf("load store: %w", err)
	}
	path, dead, err := c.Finish()
	if err != nil {
		return err
	}
	if err := d.installBuilt([]builtSegment{{path: path, dead: dead}}, ver.ID, seq, StateRebuilt); err != nil {
		return err
	}
	return d.afterBuild(ver.ID, seq)
}

// afterBuild catches up with a change set that committed during a build
// of the index at version and seq, or loads the catalogue.
func (d *Database) afterBuild(version string, seq uint64) error {
	if cur, cseq, err := d.st.Current(); err == nil && (cseq != seq || cur.ID != version) {
		return d.catchUp(false)
	}
	return d.loadSources()
}

// rebuildInMemory builds the index of a read-only store, whose stale
// index files it may not replace, in memory.
func (d *Database) rebuildInMemory() error {
	bl := engine.NewSegmentBuilder()
	ver, seq, loadErr := d.st.LoadAllAt(func(r *record.Record) error {
		bl.Add(r)
		return nil
	})
	var buf memSink
	_, dead, err := bl.FinishSegment(&buf)
	if loadErr != nil {
		return fmt.Errorf("load store: %w", loadErr)
	}
	if err != nil {
		return err
	}
	seg, err := engine.OpenSegment(buf.b, nil)
	if err != nil {
		return err
	}
	ix, err := engine.NewPersisted([]*engine.Segment{seg}, [][]uint64{dead}, d.source(seq))
	if err != nil {
		seg.Close()
		return err
	}
	d.swap(ix, ver.ID, seq)
	d.tombs = map[string]tombFile{}
	d.state = StateMemory
	return d.afterBuild(ver.ID, seq)
}

// installImport makes the index a full import built as the store read it
// (importBuild), when the store is still at that import's version. It
// reports whether it did; the build's files are gone either way.
func (d *Database) installImport(b *importBuild) (bool, error) {
	built, err := b.wait()
	if err != nil {
		return false, err
	}
	cur, seq, err := d.st.Current()
	if err != nil || cur.ID != b.version {
		// Another change set committed first: the index catches up
		// the usual way.
		for _, s := range built {
			os.Remove(s.path)
			claimBuildFile(s.path, false)
		}
		return false, err
	}
	if err := d.installBuilt(built, cur.ID, seq, StateImported); err != nil {
		return false, err
	}
	// What the store holds and what the index counts must agree; a build
	// that saw other records than the store kept is never trusted.
	n, err := d.st.Count()
	if err != nil {
		return true, fmt.Errorf("count records: %w", err)
	}
	if live := d.ix.Len(); live != n {
		return true, d.rebuild(fmt.Sprintf("the build of the import holds %d records, the store %d", live, n))
	}
	return true, nil
}

// installBuilt makes finished builds (build.go) the index, at version and
// seq, and writes its MANIFEST. The builds' files are gone on error.
func (d *Database) installBuilt(built []builtSegment, version string, seq uint64, state string) error {
	w := &writer{dir: d.dir, seq: seq}
	segs := make([]*engine.Segment, 0, len(built))
	tombs := make([][]uint64, 0, len(built))
	fail := func(err error, from int) error {
		for _, s := range segs {
			s.Close()
		}
		for _, b := range built[from:] {
			os.Remove(b.path)
			claimBuildFile(b.path, false)
		}
		return err
	}
	for i, b := range built {
		seg, err := w.install(b)
		if err != nil {
			return fail(err, i+1)
		}
		segs = append(segs, seg)
		tombs = append(tombs, b.dead)
	}
	// The renames are durable before a MANIFEST names the new files.
	if err := syncDir(d.dir); err != nil {
		return fail(fmt.Errorf("install index segments: %w", err), len(built))
	}
	ix, err := engine.NewPersisted(segs, tombs, d.source(seq))
	if err != nil {
		return fail(err, len(built))
	}
	crashPoint("rebuilt")
	d.swap(ix, version, seq)
	d.tombs = map[string]tombFile{}
	d.state = state
	return d.persist(w)
}

// memSink is a segment image built in memory.
type memSink struct{ b []byte }

func (m *memSink) Write(p []byte) (int, error) {
	m.b = append(m.b, p...)
	return len(p), nil
}

func (m *memSink) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > len(m.b) {
		m.b = append(m.b, make([]byte, end-len(m.b))...)
	}
	copy(m.b[off:], p)
	return len(p), nil
}

// IndexState describes the screening index for status and metrics.
type IndexState struct {
	Dir        string `json:"dir,omitempty"`
	State      string `json:"state"`
	Version    string `json:"version"`
	Segments   int    `json:"segments"`
	Bytes      int64  `json:"bytes"`
	Records    int    `json:"records"`
	Tombstones int    `json:"tombstones"`
}

// State describes the index.
func (d *Database) State() IndexState {
	d.mu.RLock()
	ix, st := d.ix, IndexState{Dir: d.dir, State: d.state, Version: d.version}
	d.mu.RUnlock()
	if d.st == nil {
		st.State = StateMemory
	}
	s := ix.Stats()
	st.Segments, st.Bytes, st.Records, st.Tombstones = s.Segments, s.Bytes, s.Records, s.Tombstones
	return st
}

// source returns the record source of the index at seq.
func (d *Database) source(seq uint64) storeRecords {
	return storeRecords{st: d.st, seq: seq, moved: d.kick}
}

// kick catches the index up in the background: a search found the store
// ahead of it (written by another process, or by this one between its
// commit and the index's update). The search waits for the new view.
func (d *Database) kick() {
	if !d.kicking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer d.kicking.Store(false)
		d.applyMu.Lock()
		defer d.applyMu.Unlock()
		if err := d.catchUp(false); err != nil {
			d.log.Error("screening index not caught up with the store", "err", err)
		}
	}()
}
