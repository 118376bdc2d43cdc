//go:build linux

package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// A writer reserves address space for its mapping up front; under a limit
// on the address space (ulimit -v) too small for the reservation it maps
// what the file holds instead of refusing to open. The limit is set in a
// child process (this test binary), not in the test's own.
func TestWriterOpensUnderAddressSpaceLimit(t *testing.T) {
	if path := os.Getenv("AMLSCREEN_ASLIMIT_STORE"); path != "" {
		lim := &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
			t.Skip("cannot limit the address space:", err)
		}
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.ReplaceAll("v1", Slice(publicRecords()), nil); err != nil {
			t.Fatal(err)
		}
		return
	}
	if testing.Short() {
		// Also keeps it out of the race detector's run (-short), whose
		// runtime needs more address space than the limit leaves.
		t.Skip("runs a child process")
	}
	if writerMmapSize <= 4<<30 {
		t.Skip("the reservation fits the limit")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterOpensUnderAddressSpaceLimit$")
	cmd.Env = append(os.Environ(), "AMLSCREEN_ASLIMIT_STORE="+filepath.Join(t.TempDir(), "s.db"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("open under a 4 GiB address-space limit: %v\n%s", err, out)
	}
}
