package store

import (
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
func (db *DB) Stats() (Stats, error) {
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
