package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// metaStoreID is the meta key of the store's id.
var metaStoreID = []byte("store_id")

// ID returns the store's id: 32 random hex digits made once, when the
// store is first opened for writing (a store written by an older version
// gets one on its first write open), and never changed. Files derived
// from the store (the persisted screening index) record it, so that they
// are never trusted beside another store. A read-only store that never
// had a write open since has none: "".
func (db *Store) ID() string { return db.id }

// ensureID gives the store an id when it has none, in the write
// transaction tx, and returns it.
func ensureID(tx *bolt.Tx) (string, error) {
	meta := tx.Bucket(bucketMeta)
	if v := meta.Get(metaStoreID); len(v) > 0 {
		return string(v), nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make store id: %w", err)
	}
	id := hex.EncodeToString(b[:])
	if err := meta.Put(metaStoreID, []byte(id)); err != nil {
		return "", fmt.Errorf("write store id: %w", err)
	}
	return id, nil
}

// CountAt returns the number of records, provided the store is at
// sequence number seq; at another one, an error wrapping ErrMoved. The
// screening index compares its own count with it on open.
func (db *Store) CountAt(seq uint64) (int, error) {
	var n uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if cur := getUint(meta, metaSeq); cur != seq {
			return fmt.Errorf("%w: asked for change set %d, the store is at %d", ErrMoved, seq, cur)
		}
		n = getUint(meta, metaCount)
		return nil
	})
	return int(n), err
}
