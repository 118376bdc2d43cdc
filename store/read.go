package store

import (
	"errors"
	"fmt"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// ErrMoved is returned by RecordsAt when the store is no longer at the
// sequence number asked for: a change set committed since. The caller
// waits for what it derives from the store to catch up, and reads again.
var ErrMoved = errors.New("the store has moved to a newer version")

// RecordsAt returns the records with these ids, in order, from one read
// transaction, provided the store is at sequence number seq
// (Version.Seq): a reader that found the ids in a view of the store at seq
// (the screening index) never gets records of another version. A store
// at another sequence number gives an error wrapping ErrMoved; an id the
// store does not hold, one wrapping ErrNotFound (at the right version,
// that is an inconsistency, never to be skipped quietly).
func (db *Store) RecordsAt(seq uint64, ids []string) ([]*record.Record, error) {
	out := make([]*record.Record, len(ids))
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if cur := getUint(tx.Bucket(bucketMeta), metaSeq); cur != seq {
			return fmt.Errorf("%w: asked for change set %d, the store is at %d", ErrMoved, seq, cur)
		}
		b := tx.Bucket(bucketRecords)
		for i, id := range ids {
			v := b.Get([]byte(id))
			if v == nil {
				return fmt.Errorf("record %s: %w", id, ErrNotFound)
			}
			r, err := db.codec.decode(v)
			if err != nil {
				return fmt.Errorf("record %s: %w", id, err)
			}
			out[i] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Seq returns the store's sequence number: the number of imports and
// change sets it has applied (Version.Seq of the current version).
func (db *Store) Seq() (uint64, error) {
	var seq uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		seq = getUint(tx.Bucket(bucketMeta), metaSeq)
		return nil
	})
	return seq, err
}

// Current returns the current version and the store's sequence number,
// read in one transaction: what the persisted index records it reflects.
func (db *Store) Current() (Version, uint64, error) {
	var v Version
	var seq uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		v, err = currentVersion(tx)
		seq = getUint(tx.Bucket(bucketMeta), metaSeq)
		return err
	})
	return v, seq, err
}

// LoadAllAt is LoadAll that also returns the sequence number (Seq) the
// records are at, read in the same transaction.
func (db *Store) LoadAllAt(fn func(*record.Record) error) (Version, uint64, error) {
	var seq uint64
	v, err := db.loadAll(func(tx *bolt.Tx) { seq = getUint(tx.Bucket(bucketMeta), metaSeq) }, fn)
	return v, seq, err
}
