// Package storetest opens the stores earlier versions wrote, kept gzipped
// in a package's testdata, for the tests that check they still read: a
// copy is opened, so the fixture itself is never written.
package storetest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/store"
)

// OpenGzipped unpacks the gzipped store file at path into a temporary
// directory of t, opens it, and closes it when t ends.
func OpenGzipped(t testing.TB, path string) *store.Store {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	copyPath := filepath.Join(t.TempDir(), "aml.db")
	out, err := os.Create(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(copyPath, store.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
