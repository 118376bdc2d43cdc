package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Version is one state of the database: the File-Version string it carries
// and when this store reached it.
//
// Version strings are opaque: a store that imports an upstream file keeps
// the upstream's string as it is. Versions this project makes itself
// (NewVersion) read "<RFC 3339 UTC time>~<sequence number>".
type Version struct {
	ID        string    `json:"id"`         // the File-Version string; "" for an empty store
	AppliedAt time.Time `json:"applied_at"` // when this store reached it
	// Previous is the version the store was at before, "" for the first.
	Previous string `json:"previous,omitempty"`
	// Full is set for a whole-file import, clear for a delta.
	Full bool `json:"full,omitempty"`
	// Changes is the number of records added, updated or deleted.
	Changes int `json:"changes"`
	// Records is the number of records at this version.
	Records int `json:"records"`
	// Logged is set while the change set that led to this version is in
	// the change log, so that deltas across it can be answered.
	Logged bool `json:"logged,omitempty"`
}

// NewVersion returns a version string of this project's form for a change
// set made at t with sequence number seq.
func NewVersion(t time.Time, seq uint64) string {
	return t.UTC().Format(time.RFC3339) + "~" + strconv.FormatUint(seq, 10)
}

// NextVersion returns a fresh version string for a change set this store
// is about to apply (an import without a version of its own, or a change
// set made locally). Its sequence number is one past the change sets the
// store has applied, so versions of one store sort by time and then by
// sequence.
func (db *Store) NextVersion() (string, error) {
	var seq uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		seq = getUint(tx.Bucket(bucketMeta), metaSeq)
		return nil
	})
	return NewVersion(db.now(), seq+1), err
}

// Version returns the current version; its ID is "" for an empty store.
func (db *Store) Version() (Version, error) {
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		v, err = currentVersion(tx)
		return err
	})
	return v, err
}

func currentVersion(tx *bolt.Tx) (Version, error) {
	b := tx.Bucket(bucketVersions)
	if b == nil {
		return Version{}, nil
	}
	_, raw := b.Cursor().Last()
	if raw == nil {
		return Version{}, nil
	}
	var v Version
	if err := json.Unmarshal(raw, &v); err != nil {
		return Version{}, fmt.Errorf("read current version: %w", err)
	}
	return v, nil
}

// Versions returns every version the store has been at, oldest first.
func (db *Store) Versions() ([]Version, error) {
	var out []Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketVersions)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, raw []byte) error {
			var v Version
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("read version %x: %w", k, err)
			}
			out = append(out, v)
			return nil
		})
	})
	return out, err
}

// recordVersion makes v the current version, in tx: the versions list, the
// meta keys and the sequence number.
func recordVersion(tx *bolt.Tx, v Version) (uint64, error) {
	meta := tx.Bucket(bucketMeta)
	seq := getUint(meta, metaSeq) + 1
	raw, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	if err := tx.Bucket(bucketVersions).Put(seqKey(seq), raw); err != nil {
		return 0, err
	}
	if err := putUint(meta, metaSeq, seq); err != nil {
		return 0, err
	}
	if err := meta.Put(metaVersion, []byte(v.ID)); err != nil {
		return 0, err
	}
	if err := meta.Put(metaAppliedAt, []byte(v.AppliedAt.UTC().Format(time.RFC3339Nano))); err != nil {
		return 0, err
	}
	return seq, putUint(meta, metaCount, uint64(v.Records))
}

// currentID is the current version string as the meta bucket holds it.
func currentID(tx *bolt.Tx) string {
	if m := tx.Bucket(bucketMeta); m != nil {
		return string(m.Get(metaVersion))
	}
	return ""
}
