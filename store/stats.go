package store

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// Record counts are kept up to date in the stats bucket by every import
// and change set, so that status answers at once, whatever the size of the
// database. Keys are a prefix and the attribute's value:
const (
	statSourceType = "s:" // source_type
	statEntityType = "e:" // entity_type
	statSourceID   = "i:" // source_id
	// statSourceChanged keys, by source_id, when records of that source
	// were last added, updated or deleted (Unix seconds): the last_modified
	// of source catalogue entries derived from the records.
	statSourceChanged = "t:"
)

// statDelta collects count changes of one transaction.
type statDelta map[string]int

func (s statDelta) add(r *record.Record, n int) {
	s[statSourceType+r.SourceType] += n
	s[statEntityType+r.EntityType] += n
	s[statSourceID+r.SourceID] += n
}

// apply adds s to the counts in b, dropping those that reach zero.
func (s statDelta) apply(b *bolt.Bucket) error {
	for _, k := range sortedKeys(s) {
		d := s[k]
		if d == 0 {
			continue
		}
		n := int64(getUint(b, []byte(k))) + int64(d)
		if n <= 0 {
			if err := b.Delete([]byte(k)); err != nil {
				return err
			}
			continue
		}
		if err := putUint(b, []byte(k), uint64(n)); err != nil {
			return err
		}
	}
	return nil
}

// noteSourcesChanged stamps, in b, the sources whose records a changed, at
// now. A first import changes every source it holds.
func noteSourcesChanged(b *bolt.Bucket, a *Applied, first bool, now time.Time) error {
	ids := map[string]bool{}
	if first {
		err := forPrefix(b, statSourceID, func(id string, _ []byte) error {
			ids[id] = true
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, c := range a.Changes {
		if c.Effect == EffectNone || c.Effect == "" {
			continue
		}
		if c.Before != nil {
			ids[c.Before.SourceID] = true
		}
		if c.After != nil {
			ids[c.After.SourceID] = true
		}
	}
	for _, id := range sortedKeys(ids) {
		if err := putUint(b, []byte(statSourceChanged+id), uint64(now.Unix())); err != nil {
			return err
		}
	}
	return nil
}

// SourcesChanged returns, by source id, when records of that source were
// last added, updated or deleted by an import or change set.
func (db *Store) SourcesChanged() (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketStats)
		if b == nil {
			return nil
		}
		return forPrefix(b, statSourceChanged, func(id string, v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("stats key %q: value of %d bytes", statSourceChanged+id, len(v))
			}
			out[id] = time.Unix(int64(binary.BigEndian.Uint64(v)), 0).UTC()
			return nil
		})
	})
	return out, err
}

// forPrefix calls fn, in key order, with the rest of every key of b that
// starts with prefix and its value (valid only during the call).
func forPrefix(b *bolt.Bucket, prefix string, fn func(rest string, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
		if err := fn(string(k[len(prefix):]), v); err != nil {
			return err
		}
	}
	return nil
}

// Stats summarises a store for status reports.
type Stats struct {
	Version Version // the current version
	Records int     // number of records
	// Counts by source_type, entity_type and source_id; records without
	// the attribute count under "".
	BySourceType map[string]int
	ByEntityType map[string]int
	BySourceID   map[string]int
	Size         int64 // bytes of the store file
	Sources      int   // entries of the stored source catalogue
	// SourcesAt is when the catalogue was last stored; zero when never.
	SourcesAt time.Time
	// DeltasFrom is the oldest version a delta to the current one can be
	// answered from ("" when none can).
	DeltasFrom string
}

// Stats returns counts and sizes of the store, all from one transaction.
func (db *Store) Stats() (Stats, error) {
	s := Stats{BySourceType: map[string]int{}, ByEntityType: map[string]int{}, BySourceID: map[string]int{}}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		if s.Version, err = currentVersion(tx); err != nil {
			return err
		}
		s.Size = tx.Size()
		meta := tx.Bucket(bucketMeta)
		s.Records = int(getUint(meta, metaCount))
		if b := tx.Bucket(bucketStats); b != nil {
			b.ForEach(func(k, v []byte) error {
				n := int(getUint(b, k))
				key := string(k)
				switch {
				case strings.HasPrefix(key, statSourceType):
					s.BySourceType[key[len(statSourceType):]] = n
				case strings.HasPrefix(key, statEntityType):
					s.ByEntityType[key[len(statEntityType):]] = n
				case strings.HasPrefix(key, statSourceID):
					s.BySourceID[key[len(statSourceID):]] = n
				}
				return nil
			})
		}
		if b := tx.Bucket(bucketSources); b != nil {
			s.Sources = b.Stats().KeyN
		}
		if meta != nil {
			if v := meta.Get(metaSourcesAt); v != nil {
				s.SourcesAt, _ = time.Parse(time.RFC3339Nano, string(v))
			}
		}
		s.DeltasFrom, err = oldestAnswerable(tx)
		return err
	})
	return s, err
}
