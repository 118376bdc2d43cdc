package store

import (
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Tx is one transaction on the store's file, read or write. The packages
// that keep state beside the records (monitoring, decisions, usage, media,
// public lists) read and write their sub-stores through it, so that their
// state changes in the same transaction as the records it depends on and
// no package but this one knows the file format.
type Tx struct{ tx *bolt.Tx }

// Writable reports whether the transaction may write.
func (t *Tx) Writable() bool { return t.tx.Writable() }

// OnCommit runs fn after the transaction has committed; never when it
// rolls back.
func (t *Tx) OnCommit(fn func()) { t.tx.OnCommit(fn) }

// Read runs fn in a read transaction: it sees one committed version
// throughout.
func (db *Store) Read(fn func(tx *Tx) error) error {
	return db.bolt.View(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx}) })
}

// Write runs fn in a write transaction; an error from fn rolls it back.
func (db *Store) Write(fn func(tx *Tx) error) error {
	if db.readOnly {
		return ErrReadOnly
	}
	return db.bolt.Update(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx}) })
}

// Sub is a top-level bucket a package other than store keeps its state
// in. Its name is declared here, so that one file lists what the store
// holds.
type Sub struct{ name []byte }

// The sub-stores of other packages. Their owners and layouts are in
// docs/ARCHITECTURE.md ("Buckets of the store").
var (
	Profiles      = Sub{bucketProfiles}           // monitor: search profiles
	Outbox        = Sub{bucketOutbox}             // monitor: notifications to deliver and dead letters
	Usage         = Sub{bucketUsage}              // access: calls per key, day and endpoint
	Keys          = Sub{bucketKeys}               // reserved
	Decisions     = Sub{[]byte("decisions")}      // decision: decisions and their audit trail
	Lists         = Sub{[]byte("lists")}          // lists: each fetched public list's state
	MediaMeta     = Sub{[]byte("media_meta")}     // media: the corpus's layout and counters
	MediaArticles = Sub{[]byte("media_articles")} // media: articles by id
	MediaDocs     = Sub{[]byte("media_docs")}     // media: live documents by number
	MediaPostings = Sub{[]byte("media_postings")} // media: the positional index, in segments

	Alerts           = Sub{[]byte("alerts")}        // casework: alert id (8 bytes, big-endian) -> alert JSON
	AlertIndex       = Sub{[]byte("alert_index")}   // casework: alert id -> the summary the queue filters on
	AlertKeys        = Sub{[]byte("alert_keys")}    // casework: subject 0x00 record id -> alert id
	AlertRecords     = Sub{[]byte("alert_records")} // casework: record id 0x00 subject -> alert id
	Users            = Sub{[]byte("users")}         // casework: user name -> user JSON
	Audit            = Sub{[]byte("audit")}         // casework: entry seq (8 bytes, big-endian) -> hash-chained entry
	CaseworkSettings = Sub{[]byte("casework")}      // casework: the audit head and the site's settings

	BookCustomers = Sub{[]byte("book_customers")} // book: customer id -> customer JSON; its sequence advances on every change
	BookMeta      = Sub{[]byte("book_meta")}      // book: "meta" -> configuration and last import, "last_screen" -> last change set screened
)

// Bucket returns the sub-store's bucket in tx, or nil when it does not
// exist yet: its owner reads a missing one as empty.
func (s Sub) Bucket(tx *Tx) *Bucket { return wrapBucket(tx.tx.Bucket(s.name)) }

// Create returns the sub-store's bucket in the write transaction tx,
// creating it when missing.
func (s Sub) Create(tx *Tx) (*Bucket, error) {
	b, err := tx.tx.CreateBucketIfNotExists(s.name)
	return wrapBucket(b), err
}

// Drop deletes the sub-store's bucket and everything in it; a missing
// bucket is no error.
func (s Sub) Drop(tx *Tx) error {
	if err := tx.tx.DeleteBucket(s.name); err != nil && err != berrors.ErrBucketNotFound {
		return err
	}
	return nil
}

// Bucket is a bucket of a sub-store, or one nested in it. Its keys and
// values are valid for the life of the transaction only; a value handed
// to Put must not change until the transaction ends.
type Bucket struct{ b *bolt.Bucket }

func wrapBucket(b *bolt.Bucket) *Bucket {
	if b == nil {
		return nil
	}
	return &Bucket{b: b}
}

// Get returns the value of key, or nil when it is absent or a bucket.
func (b *Bucket) Get(key []byte) []byte { return b.b.Get(key) }

// Put sets key to value.
func (b *Bucket) Put(key, value []byte) error { return b.b.Put(key, value) }

// Delete removes key; an absent key is no error.
func (b *Bucket) Delete(key []byte) error { return b.b.Delete(key) }

// ForEach calls fn for every key in order; a nested bucket's value is nil.
// It stops at fn's first error and returns it.
func (b *Bucket) ForEach(fn func(k, v []byte) error) error { return b.b.ForEach(fn) }

// Bucket returns the nested bucket name, or nil when it does not exist.
func (b *Bucket) Bucket(name []byte) *Bucket { return wrapBucket(b.b.Bucket(name)) }

// CreateBucketIfNotExists returns the nested bucket name, creating it
// when missing.
func (b *Bucket) CreateBucketIfNotExists(name []byte) (*Bucket, error) {
	nb, err := b.b.CreateBucketIfNotExists(name)
	return wrapBucket(nb), err
}

// Sequence returns the bucket's sequence number, which only NextSequence
// changes: an owner advances it to mark a change its readers must notice.
func (b *Bucket) Sequence() uint64 { return b.b.Sequence() }

// NextSequence increments the bucket's sequence number and returns it.
func (b *Bucket) NextSequence() (uint64, error) { return b.b.NextSequence() }

// KeyN returns the number of keys in the bucket.
func (b *Bucket) KeyN() int { return b.b.Stats().KeyN }

// SetFillPercent sets how full this transaction fills the bucket's pages
// when they split: 1.0 suits keys that only grow, bbolt's default 0.5
// keys that arrive in any order.
func (b *Bucket) SetFillPercent(f float64) { b.b.FillPercent = f }

// Cursor returns a cursor over the bucket's keys in order.
func (b *Bucket) Cursor() *Cursor { return &Cursor{c: b.b.Cursor()} }

// Cursor walks a bucket's keys in order. A key's value is nil when the
// key is a nested bucket. The bucket must not change while a cursor walks
// it: collect the keys, then change them.
type Cursor struct{ c *bolt.Cursor }

// First moves to the first key.
func (c *Cursor) First() (k, v []byte) { return c.c.First() }

// Next moves to the next key; k is nil past the end.
func (c *Cursor) Next() (k, v []byte) { return c.c.Next() }

// Last moves to the last key.
func (c *Cursor) Last() (k, v []byte) { return c.c.Last() }

// Prev moves to the previous key; k is nil before the start.
func (c *Cursor) Prev() (k, v []byte) { return c.c.Prev() }

// Seek moves to key, or to the first key after it.
func (c *Cursor) Seek(key []byte) (k, v []byte) { return c.c.Seek(key) }
