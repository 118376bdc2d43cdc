package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// TestServeInterruptReleasesStore: Ctrl-C (SIGINT) stops serve without
// its drain delay, so the next command on the store opens it at once
// instead of finding it "locked by pid N" for the delay. SIGTERM keeps
// the delay (TestServeSignals).
func TestServeInterruptReleasesStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir, db := importedStore(t)
	keys := writeKeys(t, dir, `[{"key":"client-key"}]`)
	// A drain delay no test waits out: only skipping it ends serve.
	cmd := cliChild("serve", "--store", db, "--keys", keys, "--listen", "127.0.0.1:0", "--drain-delay", "1h")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	logw := &lockedWriter{&sync.Mutex{}, &bytes.Buffer{}}
	listenAddr(t, stderr, logw)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGINT:\n%s", err, logw)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve still running 30 s after SIGINT, with a drain delay of 1h:\n%s", logw)
	}
	if !strings.Contains(logw.String(), "stopping without the drain delay") {
		t.Errorf("no line says the delay was skipped:\n%s", logw)
	}
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatalf("the store after serve stopped: %v", err)
	}
	st.Close()
}
