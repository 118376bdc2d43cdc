package store

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestStoreID: a store gets a random id when first opened to write, keeps
// it across opens, and a store written before ids existed gets one on its
// first write open (a read-only open before that reports none).
func TestStoreID(t *testing.T) {
	db, path := openTest(t, Options{})
	id := db.ID()
	if len(id) != 32 {
		t.Fatalf("id %q", id)
	}
	other, _ := openTest(t, Options{})
	if other.ID() == id {
		t.Fatal("two stores share an id")
	}
	// A store of an earlier version: no id.
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(metaStoreID) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ro.ID() != "" {
		t.Errorf("read-only open of a store without id: %q", ro.ID())
	}
	ro.Close()
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fresh := db.ID()
	db.Close()
	if len(fresh) != 32 || fresh == id {
		t.Errorf("first write open gave id %q", fresh)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.ID() != fresh {
		t.Errorf("id changed from %q to %q on reopening", fresh, db.ID())
	}
	if n, err := db.CountAt(0); err != nil || n != 0 {
		t.Errorf("CountAt(0) of an empty store: %d, %v", n, err)
	}
	if _, err := db.CountAt(5); err == nil {
		t.Error("CountAt of another change set gave no error")
	}
}
