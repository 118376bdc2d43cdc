// Package store keeps the consolidated AML database in a bbolt file: the
// records by id, the current File-Version and every version applied before
// it, a change log of the last 14 days (so that a server can answer
// getConsolidatedDelta from any version in that window), the source
// catalogue, the sync state with its daily download counter, and buckets
// reserved for monitoring, usage and keys.
//
// # Guarantees
//
// Every import (ReplaceAll) and every change set (ApplyDelta) is one bbolt
// write transaction that also sets the new version. bbolt makes a
// transaction visible by writing its meta page only after all its data
// pages are on disk, so a crash at any point leaves the store at the
// previous version, whole, or at the new one, whole. A Hook runs inside
// that same transaction, so state kept by other packages (a monitoring
// outbox) changes together with the records or not at all.
//
// # Concurrency
//
// One process may hold a store open for writing; bbolt takes an exclusive
// file lock. Other processes may open it read-only while no writer holds
// it. A process that cannot get the lock gets a *LockedError naming the pid
// of the writer, which the writer records in a sidecar file "PATH.lock"
// (bbolt's lock itself cannot say who holds it). Within a process a Store is
// safe for concurrent use: reads see the last committed version, never a
// change set in part.
//
// The store knows nothing of matching; it stores and returns records.
package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for the file lock when
// Options.Timeout is zero: long enough to ride out a short read by another
// process, short enough that a second writer learns at once that the store
// is busy.
const DefaultTimeout = time.Second

// DefaultRetention is how long change sets stay in the change log: the two
// weeks for which the service answers deltas (docs/API.md "Deltas").
const DefaultRetention = 14 * 24 * time.Hour

// Options configures Open. The zero value opens for writing with the
// defaults.
type Options struct {
	// ReadOnly opens the store with a shared lock; writes fail.
	ReadOnly bool
	// Timeout is how long to wait for the file lock; zero means
	// DefaultTimeout and a negative value waits indefinitely.
	Timeout time.Duration
	// Now is the clock used for applied-at times, download days and the
	// change log's retention; nil means time.Now. Tests set it.
	Now func() time.Time
	// Retention is how long change sets stay in the change log; zero means
	// DefaultRetention.
	Retention time.Duration
	// AllowShrink lets a full import remove more than ShrinkShare of the
	// records (see ShrinkError); the operator's --allow-shrink. A file
	// with no records is refused all the same.
	AllowShrink bool
	// Log receives the full-import guard's lines (a refusal at ERROR, an
	// allowed shrink at WARN); nil means slog.Default().
	Log *slog.Logger
}

// Store is an open store.
type Store struct {
	bolt      *bolt.DB
	path      string
	lockPath  string
	readOnly  bool
	codec     *codec
	now       func() time.Time
	retention time.Duration
	guard     guard
	hooks     hooks
	id        string // ID
}

// ErrNotFound is returned by Get for an id the store does not hold.
var ErrNotFound = errors.New("record not found")

// ErrReadOnly is returned by writes to a store opened read-only.
var ErrReadOnly = errors.New("store is open read-only")

// LockedError is returned by Open when another process holds the store.
type LockedError struct {
	Path string // the store file
	PID  int    // pid of the writer holding the store, 0 when unknown
}

// Error names the store and, when known, the process holding it.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("store %s is locked by pid %d", e.Path, e.PID)
	}
	return fmt.Sprintf("store %s is locked by another process", e.Path)
}

// Open opens the store at path, creating it when opened for writing and
// absent.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.Timeout
	switch {
	case timeout == 0:
		timeout = DefaultTimeout
	case timeout < 0:
		timeout = 0 // bbolt: wait indefinitely
	}
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
	}
	bopts := &bolt.Options{
		Timeout:  timeout,
		ReadOnly: opts.ReadOnly,
		// The hashmap freelist stays fast when a big import has freed many
		// pages; the array one degrades with fragmentation.
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: initialMmapSize(opts.ReadOnly),
	}
	bdb, err := bolt.Open(path, 0o600, bopts)
	if errors.Is(err, syscall.ENOMEM) && bopts.InitialMmapSize > 0 {
		// A limit on the address space (ulimit -v) leaves no room for
		// the reservation: map what the file holds, as readers do.
		bopts.InitialMmapSize = 0
		bdb, err = bolt.Open(path, 0o600, bopts)
	}
	lockPath := path + ".lock"
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &LockedError{Path: path, PID: lockHolder(lockPath)}
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db := &Store{
		bolt:      bdb,
		path:      path,
		readOnly:  opts.ReadOnly,
		now:       opts.Now,
		retention: opts.Retention,
	}
	if db.now == nil {
		db.now = time.Now
	}
	if db.retention <= 0 {
		db.retention = DefaultRetention
	}
	db.guard.allowShrink, db.guard.log = opts.AllowShrink, opts.Log
	if db.guard.log == nil {
		db.guard.log = slog.Default()
	}
	if !opts.ReadOnly {
		// Written only once the exclusive lock is held, so it always names
		// the current writer; a stale file left by a crash is overwritten
		// here and never consulted while nobody holds the lock.
		if err := os.WriteFile(lockPath, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
			bdb.Close()
			return nil, fmt.Errorf("open store %s: write lock file: %w", path, err)
		}
		db.lockPath = lockPath
	}
	if err := db.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return db, nil
}

// writerMmapSize is the address space a writer maps up front. bbolt maps
// the file and maps it again, bigger, whenever a write transaction needs
// more room; every time, it first copies every key and value the
// transaction has touched out of the old mapping, and waits for every
// read transaction to end. A full import into a new store of two million
// records grew the mapping a dozen times and spent 12 of its 50 seconds
// copying (a CPU profile of `amlscreen import`). Mapped pages cost nothing
// until touched and the file still grows only as data is written, so a
// writer reserves room for stores far larger than any list: no remap, and
// no reader blocking the sync loop.
const writerMmapSize = 16 << 30

// initialMmapSize is bbolt's InitialMmapSize for a store. Readers map what
// the file holds. On Windows bbolt grows the file to the mapping, and a
// 32-bit address space has no room, so those keep bbolt's default.
func initialMmapSize(readOnly bool) int {
	if readOnly || runtime.GOOS == "windows" || strconv.IntSize < 64 {
		return 0
	}
	return writerMmapSize
}

// lockHolder returns the pid recorded in the lock file when that process
// still runs, else 0 (the store is then held by readers, which record
// nothing).
func lockHolder(lockPath string) int {
	b, err := os.ReadFile(lockPath)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || !pidAlive(pid) {
		return 0
	}
	return pid
}

// init creates the buckets of a new store and loads the record schemas.
func (db *Store) init() error {
	load := func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta != nil {
			if v := meta.Get(metaSchemaVersion); v != nil {
				n, err := strconv.Atoi(string(v))
				if err != nil || n > schemaVersion {
					return fmt.Errorf("store layout %q is newer than this amlscreen understands (%d); upgrade amlscreen", v, schemaVersion)
				}
			}
		}
		c, names, err := loadCodec(meta)
		if err != nil {
			return err
		}
		if c.current == noSchema && tx.Writable() {
			names = append(names, currentSchema.String())
			b, _ := json.Marshal(names)
			if err := meta.Put(metaRecordSchemas, b); err != nil {
				return err
			}
			c.current = uint64(len(names) - 1)
			c.schemas = append(c.schemas, bind(currentSchema))
		}
		db.codec = c
		if meta != nil {
			db.id = string(meta.Get(metaStoreID))
		}
		return nil
	}
	if db.readOnly {
		return db.bolt.View(load)
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket(bucketMeta)
		if meta.Get(metaSchemaVersion) == nil {
			if err := meta.Put(metaSchemaVersion, []byte(strconv.Itoa(schemaVersion))); err != nil {
				return err
			}
		}
		if _, err := ensureID(tx); err != nil {
			return err
		}
		return load(tx)
	})
}

// noSchema marks a codec that cannot write: a read-only store written
// before the compiled record type existed.
const noSchema = ^uint64(0)

func loadCodec(meta *bolt.Bucket) (*codec, []string, error) {
	c := &codec{current: noSchema}
	var names []string
	if meta != nil {
		if b := meta.Get(metaRecordSchemas); b != nil {
			if err := json.Unmarshal(b, &names); err != nil {
				return nil, nil, fmt.Errorf("record schemas: %w", err)
			}
		}
	}
	cur := currentSchema.String()
	for i, n := range names {
		s, err := parseSchema(n)
		if err != nil {
			return nil, nil, fmt.Errorf("record schema %d: %w", i, err)
		}
		c.schemas = append(c.schemas, bind(s))
		if n == cur {
			c.current = uint64(i)
		}
	}
	return c, names, nil
}

// Close releases the store. The lock file is removed while the lock is
// still held, so that it can never name a process that has let go.
func (db *Store) Close() error {
	if db.lockPath != "" {
		os.Remove(db.lockPath)
		db.lockPath = ""
	}
	if err := db.bolt.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", db.path, err)
	}
	return nil
}

// Path returns the file the store lives in.
func (db *Store) Path() string { return db.path }

// ReadOnly reports whether the store was opened read-only.
func (db *Store) ReadOnly() bool { return db.readOnly }

// Size returns the size of the store file in bytes.
func (db *Store) Size() (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	return n, err
}

// Count returns the number of records.
func (db *Store) Count() (int, error) {
	var n uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		n = getUint(tx.Bucket(bucketMeta), metaCount)
		return nil
	})
	return int(n), err
}

// Get returns the record with the given id, or an error wrapping
// ErrNotFound.
func (db *Store) Get(id string) (*record.Record, error) {
	var r *record.Record
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRecords)
		var v []byte
		if b != nil {
			v = b.Get([]byte(id))
		}
		if v == nil {
			return fmt.Errorf("get %s: %w", id, ErrNotFound)
		}
		var err error
		r, err = db.codec.decode(v)
		if err != nil {
			return fmt.Errorf("get %s: %w", id, err)
		}
		return nil
	})
	return r, err
}

// uint helpers for counters kept as 8-byte big-endian values.

func getUint(b *bolt.Bucket, key []byte) uint64 {
	if b == nil {
		return 0
	}
	v := b.Get(key)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putUint(b *bolt.Bucket, key []byte, n uint64) error {
	return b.Put(key, binary.BigEndian.AppendUint64(nil, n))
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
