package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/klauspost/compress/zstd"
	bolt "go.etcd.io/bbolt"
)

// The change log keeps, for each version reached in the retention window,
// the changes that led to it, as delta lines (docs/API.md
// "Deltas") compressed with zstd. Change sets are split into chunks of
// logChunk lines, so that a large one is never a single huge value.
//
// Changes are logged by their effect, not as they arrived: an UPDATE of an
// unknown id as ADD, a DELETE of an unknown id not at all, a DELETE with
// the record as the store held it. Merging several change sets then only
// needs to know whether a record existed before the first and after the
// last.
const logChunk = 10000

// ErrUnknownVersion is returned by ChangesSince for a version whose later
// change sets are not all in the change log: never applied here, or older
// than the retention window. A server answers it with 404 "Provided
// previous version does not exist.", upon which a client downloads the full
// file.
var ErrUnknownVersion = errors.New("version is unknown or older than the change log")

var (
	zstdEnc = sync.OnceValue(func() *zstd.Encoder {
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		return e
	})
	zstdDec = sync.OnceValue(func() *zstd.Decoder {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
		return d
	})
)

func logKey(seq uint64, chunk uint32) []byte {
	return binary.BigEndian.AppendUint32(seqKey(seq), chunk)
}

// logWriter writes change lines to one bucket in compressed chunks of
// logChunk lines under the keys of one change set.
type logWriter struct {
	b     *bolt.Bucket
	seq   uint64
	buf   []byte
	chunk uint32
	n     int
}

func (w *logWriter) add(c *record.Change) error {
	w.buf = append(c.Append(w.buf), '\n')
	if w.n++; w.n == logChunk {
		return w.flush()
	}
	return nil
}

func (w *logWriter) flush() error {
	if w.n == 0 {
		return nil
	}
	if err := w.b.Put(logKey(w.seq, w.chunk), zstdEnc().EncodeAll(w.buf, nil)); err != nil {
		return err
	}
	w.chunk++
	w.buf, w.n = w.buf[:0], 0
	return nil
}

// writeLog stores the effective changes of change set seq, and the
// records UPDATEs replaced (for the change digest's old values).
func writeLog(tx *bolt.Tx, seq uint64, changes []AppliedChange) error {
	log := &logWriter{b: tx.Bucket(bucketChanges), seq: seq}
	before := &logWriter{b: tx.Bucket(bucketChangesBefore), seq: seq}
	for i := range changes {
		ac := &changes[i]
		c := record.Change{Type: ac.Effect}
		switch ac.Effect {
		case EffectAdd, EffectUpdate:
			c.Record = *ac.After
		case EffectDelete:
			c.Record = *ac.Before
		default:
			continue
		}
		if err := log.add(&c); err != nil {
			return err
		}
		if ac.Effect == EffectUpdate && ac.Before != nil && before.b != nil {
			old := record.Change{Type: EffectUpdate, Record: *ac.Before}
			if err := before.add(&old); err != nil {
				return err
			}
		}
	}
	if err := log.flush(); err != nil {
		return err
	}
	if before.b == nil {
		return nil
	}
	return before.flush()
}

// pruneLog drops the change sets applied before cutoff and marks their
// versions as no longer logged. It starts where the last pruning stopped,
// so its cost does not grow with the store's history.
func pruneLog(tx *bolt.Tx, cutoff time.Time) error {
	vb := tx.Bucket(bucketVersions)
	meta := tx.Bucket(bucketMeta)
	type update struct {
		key []byte
		raw []byte
	}
	var updates []update
	next := getUint(meta, metaPruneFrom)
	c := vb.Cursor()
	for k, raw := c.Seek(seqKey(next)); k != nil; k, raw = c.Next() {
		var v Version
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("read version %x: %w", k, err)
		}
		if !v.AppliedAt.Before(cutoff) {
			break
		}
		next = binary.BigEndian.Uint64(k) + 1
		if !v.Logged {
			continue
		}
		v.Logged = false
		nraw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		updates = append(updates, update{slices.Clone(k), nraw})
	}
	for _, u := range updates {
		if err := vb.Put(u.key, u.raw); err != nil {
			return err
		}
		for _, name := range [][]byte{bucketChanges, bucketChangesBefore} {
			cb := tx.Bucket(name)
			if cb == nil {
				continue
			}
			var dead [][]byte
			cc := cb.Cursor()
			for k, _ := cc.Seek(u.key); k != nil && bytes.HasPrefix(k, u.key); k, _ = cc.Next() {
				dead = append(dead, slices.Clone(k))
			}
			for _, k := range dead {
				if err := cb.Delete(k); err != nil {
					return err
				}
			}
		}
	}
	return putUint(meta, metaPruneFrom, next)
}

// findVersion returns the sequence number at which the store last reached
// version id, and the versions after it, oldest first. It gives up at the
// first version whose change set is no longer logged, since no delta can
// be answered across it.
// versionsAfter is findVersion for a reader of the change log: the
// sequence number of version id and the versions after it, or an error
// wrapping ErrUnknownVersion when the log cannot answer from id.
func versionsAfter(tx *bolt.Tx, id string) (uint64, []Version, error) {
	if id == "" {
		return 0, nil, ErrUnknownVersion
	}
	seq, later, ok, err := findVersion(tx, id)
	if err != nil {
		return 0, nil, err
	}
	if !ok {
		return 0, nil, ErrUnknownVersion
	}
	return seq, later, nil
}

func findVersion(tx *bolt.Tx, id string) (uint64, []Version, bool, error) {
	vb := tx.Bucket(bucketVersions)
	if vb == nil {
		return 0, nil, false, nil
	}
	var later []Version
	c := vb.Cursor()
	for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
		var v Version
		if err := json.Unmarshal(raw, &v); err != nil {
			return 0, nil, false, fmt.Errorf("read version %x: %w", k, err)
		}
		if v.ID == id {
			slices.Reverse(later)
			return binary.BigEndian.Uint64(k), later, true, nil
		}
		if !v.Logged {
			return 0, nil, false, nil
		}
		later = append(later, v)
	}
	return 0, nil, false, nil
}

// oldestAnswerable returns the oldest version from which every later
// change set is logged.
func oldestAnswerable(tx *bolt.Tx) (string, error) {
	vb := tx.Bucket(bucketVersions)
	if vb == nil {
		return "", nil
	}
	oldest := ""
	c := vb.Cursor()
	for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
		var v Version
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", fmt.Errorf("read version %x: %w", k, err)
		}
		oldest = v.ID
		if !v.Logged {
			break
		}
		oldest = v.Previous
	}
	return oldest, nil
}

// ChangesSince returns the changes that lead from version to the current
// version, merged per record id and sorted by id, together with the
// current version: a record added and then updated is one ADD with its
// latest content, one added and deleted again is absent, and so on. For the
// current version itself it returns no changes. It returns an error
// wrapping ErrUnknownVersion when the store cannot answer from version.
func (db *Store) ChangesSince(version string) ([]record.Change, string, error) {
	var out []record.Change
	var current string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		current = currentID(tx)
		seq, later, err := versionsAfter(tx, version)
		if err != nil {
			return err
		}
		type state struct {
			existedBefore bool
			last          record.Change
		}
		merged := map[string]*state{}
		for i, v := range later {
			if !v.Logged {
				return ErrUnknownVersion
			}
			err := readLog(tx.Bucket(bucketChanges), seqKey(seq+uint64(i)+1), func(ch *record.Change) {
				st := merged[ch.Record.ID]
				if st == nil {
					st = &state{existedBefore: ch.Type != record.ChangeAdd}
					merged[ch.Record.ID] = st
				}
				st.last = *ch
			})
			if err != nil {
				return err
			}
		}
		for _, id := range sortedKeys(merged) {
			st := merged[id]
			existsAfter := st.last.Type != record.ChangeDelete
			c := st.last
			switch {
			case !st.existedBefore && existsAfter:
				c.Type = record.ChangeAdd
			case st.existedBefore && existsAfter:
				c.Type = record.ChangeUpdate
			case st.existedBefore && !existsAfter:
				c.Type = record.ChangeDelete
			default:
				continue
			}
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, current, fmt.Errorf("changes since %q: %w", version, err)
	}
	return out, current, nil
}

// readLog calls fn with every change line of bucket b under prefix, in
// order; a missing bucket has none.
func readLog(b *bolt.Bucket, prefix []byte, fn func(*record.Change)) error {
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, blob := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, blob = c.Next() {
		if len(k) != len(prefix)+4 {
			continue
		}
		lines, err := zstdDec().DecodeAll(blob, nil)
		if err != nil {
			return fmt.Errorf("change log %x: %w", k, err)
		}
		rd, err := record.NewReader(bytes.NewReader(lines))
		if err != nil {
			return fmt.Errorf("change log %x: %w", k, err)
		}
		for {
			ch, err := rd.Change()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("change log %x: %w", k, err)
			}
			fn(ch)
		}
	}
	return nil
}
