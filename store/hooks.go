package store

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// Change hooks. Monitoring's promise, that the notifications of a change
// set are written in the same transaction as the change, must not depend
// on every writer remembering to pass a hook: a writer added later would
// lose notifications without a word. So the hooks are the store's. Whoever
// opens a store to write registers them once (OnChange), and every
// transaction that changes records (ApplyDelta, ReplaceAll, MergeSources)
// runs them, after the hook the call itself was given, before the commit.
// A hook's error rolls the whole change back.

// hooks are the change hooks of a Store.
type hooks struct {
	mu   sync.RWMutex
	list []TxHook
}

// OnChange registers h to run inside every transaction that changes the
// store's records, whoever makes the change: see the comment above. Hooks
// run in the order registered. Register them before the store is shared
// with writers: a change already under way does not run a hook registered
// during it.
func (db *Store) OnChange(h TxHook) {
	if h == nil {
		return
	}
	db.hooks.mu.Lock()
	defer db.hooks.mu.Unlock()
	db.hooks.list = append(db.hooks.list, h)
}

// runHooks runs the call's own hook, then the registered ones.
func (db *Store) runHooks(tx *bolt.Tx, a *Applied, own TxHook) error {
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
