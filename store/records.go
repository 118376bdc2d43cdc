package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// ForEachRecord calls fn for every record of the current version, in id
// order, one call at a time, from one read transaction: it sees one version
// whole even while a change set is being applied. Records are decoded in
// parallel ahead of fn, which is how the engine loads a million records in
// seconds. An error from fn stops the walk and is returned.
func (db *Store) ForEachRecord(fn func(*record.Record) error) error {
	_, err := db.LoadAll(fn)
	return err
}

// LoadAll is ForEachRecord that also returns the version the records are
// at, read in the same transaction. A loader needs both to apply the
// change sets that follow: the version tells which ones.
func (db *Store) LoadAll(fn func(*record.Record) error) (Version, error) {
	return db.loadAll(nil, fn)
}

// loadAll is LoadAll; meta, when set, reads more of the same transaction.
func (db *Store) loadAll(meta func(tx *bolt.Tx), fn func(*record.Record) error) (Version, error) {
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		if meta != nil {
			meta(tx)
		}
		if v, err = currentVersion(tx); err != nil {
			return err
		}
		return db.walkRecords(tx, min(runtime.GOMAXPROCS(0), 8), fn)
	})
	return v, err
}

// walkRecords calls fn for every record of tx in id order, decoding with
// up to workers goroutines (one walks the cursor itself).
func (db *Store) walkRecords(tx *bolt.Tx, workers int, fn func(*record.Record) error) error {
	b := tx.Bucket(bucketRecords)
	if b == nil {
		return nil
	}
	if workers < 2 {
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			r, err := db.codec.decode(v)
			if err != nil {
				return fmt.Errorf("record %s: %w", k, err)
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	return db.forEachParallel(b, workers, fn)
}

// decodeBatch is a run of consecutive blobs decoded by one worker. The
// blobs point into bbolt's memory map, valid while the read transaction
// lasts, which outlives every worker.
type decodeBatch struct {
	keys  [][]byte
	blobs [][]byte
	recs  []*record.Record
	err   error
	done  chan struct{}
}

const decodeBatchSize = 512

func (db *Store) forEachParallel(b *bolt.Bucket, workers int, fn func(*record.Record) error) error {
	work := make(chan *decodeBatch, workers)
	order := make(chan *decodeBatch, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for bt := range work {
				bt.recs = make([]*record.Record, len(bt.blobs))
				for i, v := range bt.blobs {
					r, err := db.codec.decode(v)
					if err != nil {
						bt.err = fmt.Errorf("record %s: %w", bt.keys[i], err)
						break
					}
					bt.recs[i] = r
				}
				close(bt.done)
			}
		})
	}
	// The producer walks the cursor; it is the only goroutine using it.
	wg.Go(func() {
		defer close(order)
		defer close(work)
		c := b.Cursor()
		bt := &decodeBatch{done: make(chan struct{})}
		send := func() bool {
			select {
			case order <- bt:
			case <-stop:
				return false
			}
			select {
			case work <- bt:
			case <-stop:
				return false
			}
			bt = &decodeBatch{done: make(chan struct{})}
			return true
		}
		for k, v := c.First(); k != nil; k, v = c.Next() {
			bt.keys = append(bt.keys, k)
			bt.blobs = append(bt.blobs, v)
			if len(bt.blobs) == decodeBatchSize && !send() {
				return
			}
		}
		if len(bt.blobs) > 0 {
			send()
		}
	})
	var err error
	for bt := range order {
		if err != nil {
			continue
		}
		<-bt.done
		if bt.err != nil {
			err = bt.err
		}
		for _, r := range bt.recs {
			if err != nil {
				break
			}
			err = fn(r)
		}
		if err != nil {
			close(stop)
		}
	}
	// A batch handed to order but never to work has no worker to close
	// its done channel; nobody waits for it once stop is closed.
	wg.Wait()
	return err
}

// importEntry is one record of a full import, encoded and waiting for its
// place in id order.
type importEntry struct {
	key  []byte
	blob []byte
	// Attributes counted in the stats, kept apart so the record itself
	// can be dropped once encoded.
	sourceType, entityType, sourceID string
}

// Slice hands recs one by one, then io.EOF: the form ReplaceAll and
// MergeSources read, for records already in memory.
func Slice(recs []*record.Record) func() (*record.Record, error) {
	i := 0
	return func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}
}

// ReplaceAll replaces every record with those returned by next, which
// returns io.EOF after the last, and makes version current: one
// transaction, so the store is at the old version or the new one, never
// between. An error from next (a bad line) leaves the store untouched. When
// an id occurs twice, the later record wins.
//
// A feed with no records, or one that would remove more than ShrinkShare
// of the store's records (unless Options.AllowShrink), is refused with a
// *ShrinkError before anything is written and before hook runs: see the
// full-import guard in guard.go.
//
// The records are read and encoded before the write transaction starts, so
// that a slow or failing source never keeps a transaction open, then
// written in id order, which is what keeps bbolt's work per record
// constant. Records
// that are byte-for-byte unchanged are not rewritten, so re-importing a
// file that differs little from the store costs little more than reading
// it. The differences are logged as a change set, so that a server can go
// on answering deltas across a full import, and handed to hook in Applied.
// Into an empty store nothing is compared or logged. Records of local
// sources (merged into the store, see local.go) that the file does not
// hold are kept.
//
// Memory: every encoded record (about 250 bytes each) is held until the
// commit, plus bbolt's dirty pages; a million records take well under
// 2 GiB at the peak.
func (db *Store) ReplaceAll(version string, next func() (*record.Record, error), hook Hook) error {
	if db.readOnly {
		return ErrReadOnly
	}
	if version == "" {
		return fmt.Errorf("import: %w", ErrNoVersion)
	}
	tap := db.startImport(version)
	entries, err := db.readEntries(next, tap)
	if err != nil {
		err = fmt.Errorf("import %s: %w", version, err)
		if tap != nil {
			tap.Abort(err)
		}
		return err
	}
	if tap != nil {
		tap.Read()
	}
	var shrink bool
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		var a *Applied
		var err error
		a, shrink, err = db.replace(tx, version, entries, tap)
		if err != nil {
			return err
		}
		a.Import = tap
		if err := db.runHooks(tx, a, hook); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		err = fmt.Errorf("import %s: %w", version, err)
		if tap != nil {
			tap.Abort(err)
		}
		return err
	}
	if shrink {
		db.guard.allowed.Add(1)
	}
	return nil
}

// readEntries drains next, encoding records on all cores, and returns them
// sorted by id with duplicates resolved. tap, when not nil, sees every
// record read.
func (db *Store) readEntries(next func() (*record.Record, error), tap ImportTap) ([]importEntry, error) {
	type job struct {
		recs []*record.Record
		ents []importEntry
		done chan struct{}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	work := make(chan *job, workers)
	results := make(chan *job, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			// Source ids repeat across many records; share one copy each.
			ids := map[string]string{}
			for j := range work {
				j.ents = make([]importEntry, len(j.recs))
				for i, r := range j.recs {
					j.ents[i] = importEntry{
						key:        []byte(r.ID),
						blob:       db.codec.encode(r),
						sourceType: intern(r.SourceType),
						entityType: intern(r.EntityType),
						sourceID:   internIn(ids, r.SourceID),
					}
				}
				close(j.done)
			}
		})
	}
	var entries []importEntry
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for j := range results {
			<-j.done
			entries = append(entries, j.ents...)
		}
	}()
	var readErr error
	j := &job{done: make(chan struct{})}
	for {
		r, err := next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		if r == nil {
			readErr = fmt.Errorf("record %d: %w", len(entries)+len(j.recs)+1, record.ErrNoID)
			break
		}
		if err := r.Validate(); err != nil {
			readErr = fmt.Errorf("record %d: %w", len(entries)+len(j.recs)+1, err)
			break
		}
		if tap != nil {
			tap.Record(r)
		}
		j.recs = append(j.recs, r)
		if len(j.recs) == decodeBatchSize {
			results <- j
			work <- j
			j = &job{done: make(chan struct{})}
		}
	}
	if len(j.recs) > 0 {
		results <- j
		work <- j
	}
	close(work)
	close(results)
	wg.Wait()
	<-collected
	if readErr != nil {
		return nil, readErr
	}
	return sortEntries(entries), nil
}

// replace writes entries (sorted, unique) as the new record set of tx.
// It returns whether the import is a shrink allowed by Options.AllowShrink,
// and a *ShrinkError, before anything is written, when the guard refuses
// it.
func (db *Store) replace(tx *bolt.Tx, version string, entries []importEntry, tap ImportTap) (*Applied, bool, error) {
	recs := tx.Bucket(bucketRecords)
	// Records go in in key order, so pages can be filled almost full; the
	// store is read far more than it is changed.
	recs.FillPercent = 0.9
	previous := currentID(tx)
	first := previous == ""
	a := &Applied{Previous: previous, Version: version, Full: true, Records: len(entries)}

	// An empty file is refused before any work.
	if len(entries) == 0 {
		before := int(getUint(tx.Bucket(bucketMeta), metaCount))
		_, err := db.guard.check(version, before, 0, 0)
		return nil, false, err
	}

	// Records of local sources (merged into the store, see local.go) that
	// the file does not hold stay.
	local, err := localSources(tx)
	if err != nil {
		return nil, false, err
	}
	g := &goneRecords{db: db, a: a, local: local, tap: tap, first: first}
	gone := g.note

	// First pass, read only: merge the old keys with the new ones. bbolt
	// forbids changing a bucket under a live cursor, so the writes wait for
	// the second pass.
	var puts []int // indexes into entries
	kept := 0      // stored records the file holds too
	c := recs.Cursor()
	k, v := c.First()
	for i := range entries {
		e := &entries[i]
		for k != nil && bytes.Compare(k, e.key) < 0 {
			if err := gone(k, v); err != nil {
				return nil, false, err
			}
			k, v = c.Next()
		}
		if k != nil && bytes.Equal(k, e.key) {
			kept++
			if !bytes.Equal(v, e.blob) {
				if err := db.noteUpdated(a, v, e, first); err != nil {
					return nil, false, err
				}
				puts = append(puts, i)
			}
			k, v = c.Next()
			continue
		}
		if !first {
			after, err := db.codec.decode(e.blob)
			if err != nil {
				return nil, false, err
			}
			a.Changes = append(a.Changes, AppliedChange{ID: string(e.key), Effect: EffectAdd, After: after})
		}
		a.Added++
		puts = append(puts, i)
	}
	for ; k != nil; k, v = c.Next() {
		if err := gone(k, v); err != nil {
			return nil, false, err
		}
	}
	a.Records += len(g.localKept)
	// The guard decides before anything is written (and the hook runs
	// after the writes, so never for a refused import). Its counts come
	// from the merge above at no cost to imports it lets through; local
	// records kept count as kept.
	shrink, err := db.guard.check(version, kept+len(g.localKept)+len(g.dels), kept+len(g.localKept), len(entries)+len(g.localKept))
	if err != nil {
		return nil, false, err
	}

	if err := writeRecords(recs, entries, puts, g.dels); err != nil {
		return nil, false, err
	}
	if err := rebuildStats(tx, entries, g.localKept); err != nil {
		return nil, false, err
	}
	return a, shrink, db.commitVersion(tx, a, first)
}

// goneRecords handles the stored records a full import's file does not
// hold: a record of a local source stays (localKept, its stats
// attributes), any other is deleted (dels).
type goneRecords struct {
	db        *Store
	a         *Applied
	local     map[string]bool
	tap       ImportTap
	first     bool
	localKept []importEntry
	dels      [][]byte
}

func (g *goneRecords) note(k, v []byte) error {
	if len(g.local) > 0 {
		r, err := g.db.codec.decode(v)
		if err != nil {
			return fmt.Errorf("record %s: %w", k, err)
		}
		if g.local[r.SourceID] {
			if g.tap != nil {
				g.tap.Kept(r)
			}
			g.localKept = append(g.localKept, importEntry{sourceType: intern(r.SourceType), entityType: intern(r.EntityType), sourceID: r.SourceID})
			return nil
		}
	}
	if err := g.db.noteDeleted(g.a, k, v, g.first); err != nil {
		return err
	}
	g.dels = append(g.dels, bytes.Clone(k))
	return nil
}

// writeRecords deletes the keys dels and puts entries[i] for every i in
// puts: the second pass of replace, once its cursor is done.
func writeRecords(recs *bolt.Bucket, entries []importEntry, puts []int, dels [][]byte) error {
	for _, key := range dels {
		if err := recs.Delete(key); err != nil {
			return fmt.Errorf("delete %s: %w", key, err)
		}
	}
	for _, i := range puts {
		if err := recs.Put(entries[i].key, entries[i].blob); err != nil {
			return fmt.Errorf("put %s: %w", entries[i].key, err)
		}
	}
	return nil
}

// rebuildStats counts the records of lists afresh after a full import:
// cheaper than adjusting the counts, and the natural point to heal any
// drift. The change times of sources that still have records carry over.
func rebuildStats(tx *bolt.Tx, lists ...[]importEntry) error {
	stamps := map[string][]byte{}
	err := forPrefix(tx.Bucket(bucketStats), statSourceChanged, func(id string, v []byte) error {
		stamps[id] = bytes.Clone(v)
		return nil
	})
	if err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketStats); err != nil {
		return err
	}
	sb, err := tx.CreateBucket(bucketStats)
	if err != nil {
		return err
	}
	stats := statDelta{}
	for _, list := range lists {
		for i := range list {
			e := &list[i]
			stats[statSourceType+e.sourceType]++
			stats[statEntityType+e.entityType]++
			stats[statSourceID+e.sourceID]++
		}
	}
	if err := stats.apply(sb); err != nil {
		return err
	}
	for _, id := range sortedKeys(stamps) {
		if stats[statSourceID+id] == 0 {
			continue
		}
		if err := sb.Put([]byte(statSourceChanged+id), stamps[id]); err != nil {
			return err
		}
	}
	return nil
}

func (db *Store) noteDeleted(a *Applied, k, v []byte, first bool) error {
	a.Deleted++
	if first {
		return nil
	}
	before, err := db.codec.decode(v)
	if err != nil {
		return fmt.Errorf("record %s: %w", k, err)
	}
	a.Changes = append(a.Changes, AppliedChange{ID: string(k), Effect: EffectDelete, Before: before})
	return nil
}

// noteUpdated records an update of e over the stored blob old. Blobs
// differ when the encoding changed (a new record schema) without the
// record changing; only a real difference counts.
func (db *Store) noteUpdated(a *Applied, old []byte, e *importEntry, first bool) error {
	before, err := db.codec.decode(old)
	if err != nil {
		return fmt.Errorf("record %s: %w", e.key, err)
	}
	after, err := db.codec.decode(e.blob)
	if err != nil {
		return fmt.Errorf("record %s: %w", e.key, err)
	}
	if sameRecord(before, after) {
		return nil
	}
	a.Updated++
	if !first {
		a.Changes = append(a.Changes, AppliedChange{ID: string(e.key), Effect: EffectUpdate, Before: before, After: after})
	}
	return nil
}

func sameRecord(a, b *record.Record) bool {
	return bytes.Equal(a.Append(nil, record.WriteOptions{Case: record.Camel}), b.Append(nil, record.WriteOptions{Case: record.Camel}))
}

// intern returns a shared copy of the few distinct type values, so that a
// million entries do not each hold their own.
func intern(s string) string {
	switch s {
	case record.SourceSanction:
		return record.SourceSanction
	case record.SourcePEP:
		return record.SourcePEP
	case record.SourceCriminal:
		return record.SourceCriminal
	case record.SourceNonCompliantTaxpayer:
		return record.SourceNonCompliantTaxpayer
	case record.SourceOther:
		return record.SourceOther
	case record.EntityIndividual:
		return record.EntityIndividual
	case record.EntityEntity:
		return record.EntityEntity
	case record.EntityVessel:
		return record.EntityVessel
	case record.EntityAircraft:
		return record.EntityAircraft
	case record.EntityJurisdiction:
		return record.EntityJurisdiction
	case record.EntityObject:
		return record.EntityObject
	case record.EntityUnknown:
		return record.EntityUnknown
	}
	return s
}

func internIn(m map[string]string, s string) string {
	if v, ok := m[s]; ok {
		return v
	}
	m[s] = s
	return s
}

// sortEntries sorts entries by key and keeps, of several with one key, the
// one read last.
func sortEntries(entries []importEntry) []importEntry {
	slices.SortStableFunc(entries, func(a, b importEntry) int { return bytes.Compare(a.key, b.key) })
	out := entries[:0]
	for i := range entries {
		if i+1 < len(entries) && bytes.Equal(entries[i].key, entries[i+1].key) {
			continue
		}
		out = append(out, entries[i])
	}
	return out
}
