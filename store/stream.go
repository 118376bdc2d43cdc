package store

import (
	"runtime"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// StreamAll calls start with the current version, then fn for every
// record of that version in id order, all from one read transaction, so
// that a writer can send a header naming the version before the records
// and the body is exactly that version. Records are decoded a few batches
// ahead of fn and dropped after it returns: memory does not grow with the
// number of records. An error from start or fn stops the walk and is
// returned.
//
// The transaction lasts as long as fn takes: bbolt keeps the pages of that
// version until it ends, so a slow consumer makes the file grow by what
// change sets rewrite meanwhile.
func (db *Store) StreamAll(start func(Version) error, fn func(*record.Record) error) error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		v, err := currentVersion(tx)
		if err != nil {
			return err
		}
		if err := start(v); err != nil {
			return err
		}
		return db.walkRecords(tx, min(runtime.GOMAXPROCS(0), 2), fn)
	})
}
