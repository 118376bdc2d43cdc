package store

import (
	"fmt"
	"sync"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// Change hooks. Monitoring's promise, that the notifications of a change
// set are written in the same transaction as the change, must not depend
// on every writer remembering to pass a hook: a writer added later would
// lose notifications without a word. So the hooks are the store's. Whoever
// opens a store to write registers them once (OnApply), and every
// transaction that changes records (ApplyDelta, ReplaceAll, MergeSources)
// runs them, after the hook the call itself was given, before the commit.
// A hook's error rolls the whole change back.

// hooks are the change hooks of a Store.
type hooks struct {
	mu          sync.RWMutex
	list        []Hook
	importStart func(version string) ImportTap
}

// OnApply registers h to run inside every transaction that changes the
// store's records, whoever makes the change: see the comment above. Hooks
// run in the order registered.
// Register them before the store is shared with writers: a change already
// under way does not run a hook registered during it.
func (db *Store) OnApply(h Hook) {
	if h == nil {
		return
	}
	db.hooks.mu.Lock()
	defer db.hooks.mu.Unlock()
	db.hooks.list = append(db.hooks.list, h)
}

// runHooks runs the call's own hook, then the registered ones.
func (db *Store) runHooks(btx *bolt.Tx, a *Applied, own Hook) error {
	tx := &Tx{tx: btx}
	if own != nil {
		if err := own(tx, a); err != nil {
			return fmt.Errorf("hook: %w", err)
		}
	}
	db.hooks.mu.RLock()
	list := db.hooks.list
	db.hooks.mu.RUnlock()
	for _, h := range list {
		if err := h(tx, a); err != nil {
			return fmt.Errorf("hook: %w", err)
		}
	}
	return nil
}

// ImportTap follows a full import (ReplaceAll) as it happens, so that
// whatever is derived from the records (the screening index) can be built
// while the store reads and writes them, rather than by reading them all
// back after the commit. A tap sees exactly the records the import leaves
// in the store: every record read, in the order read (of two with one id,
// the later wins, as in the store), then the stored records of local
// sources the import keeps.
//
// The calls come in this order: Record for each record read, from the
// goroutine that reads them; Read once reading ended without error; Kept
// for each local record kept, inside the write transaction; then either
// the change hooks see the commit with Applied.Import set to the tap, or
// Abort says the import failed or was refused and nothing was committed.
// Records are shared, not copied: a tap must not change them.
type ImportTap interface {
	Record(r *record.Record)
	Read()
	Kept(r *record.Record)
	Abort(err error)
}

// OnImport registers start, called as every full import begins, with the
// version it imports; it returns the import's tap, or nil to follow none.
// One function at most: a later registration replaces an earlier one.
func (db *Store) OnImport(start func(version string) ImportTap) {
	db.hooks.mu.Lock()
	defer db.hooks.mu.Unlock()
	db.hooks.importStart = start
}

// startImport returns the tap of an import of version, or nil.
func (db *Store) startImport(version string) ImportTap {
	db.hooks.mu.RLock()
	start := db.hooks.importStart
	db.hooks.mu.RUnlock()
	if start == nil {
		return nil
	}
	return start(version)
}
