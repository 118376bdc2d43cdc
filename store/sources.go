package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// Sources returns the stored source catalogue, sorted by source id; nil
// when none was ever stored.
func (db *Store) Sources() ([]record.Source, error) {
	var out []record.Source
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSources)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var s record.Source
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("source %s: %w", k, err)
			}
			out = append(out, s)
			return nil
		})
	})
	return out, err
}

// PutSources replaces the stored catalogue with sources, as synced from the
// upstream's getSourceList?scope=all. Entries without a source id are
// dropped; of several with one id the last is kept.
func (db *Store) PutSources(sources []record.Source) error {
	if db.readOnly {
		return ErrReadOnly
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		// The entries of local sources (see local.go) that the new
		// catalogue lacks stay: an upstream's catalogue knows nothing of
		// them.
		local, err := localSources(tx)
		if err != nil {
			return err
		}
		listed := map[string]bool{}
		for _, s := range sources {
			listed[s.Source] = true
		}
		keep := map[string][]byte{}
		if old := tx.Bucket(bucketSources); old != nil {
			for id := range local {
				if v := old.Get([]byte(id)); v != nil && !listed[id] {
					keep[id] = bytes.Clone(v)
				}
			}
		}
		if err := tx.DeleteBucket(bucketSources); err != nil {
			return err
		}
		b, err := tx.CreateBucket(bucketSources)
		if err != nil {
			return err
		}
		for id, v := range keep {
			if err := b.Put([]byte(id), v); err != nil {
				return err
			}
		}
		for _, s := range sources {
			if s.Source == "" {
				continue
			}
			v, err := json.Marshal(s)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(s.Source), v); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(metaSourcesAt, []byte(db.now().UTC().Format(time.RFC3339Nano)))
	})
	if err != nil {
		return fmt.Errorf("store sources: %w", err)
	}
	return nil
}
