package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/service"
	"github.com/amlscreen/amlscreen/store"
)

// This file is serve --demo: the embedded sample in a throw-away store,
// with a generated key, to try the workbench.

// setupDemo prepares serve --demo: the embedded sample imported into a
// store in a new temporary directory, a keys file with one generated key,
// and the listener, on this machine only. It prints where to go and the
// key, and returns a function that removes the directory.
func setupDemo(stderr io.Writer, f *serveFlags) (cleanup func(), err error) {
	if f.store != "" || f.keys != "" || f.upstream != "" || f.signingKeys != "" || f.apiKey != "" {
		return nil, usagef("--demo: serves the embedded sample from a throw-away store; it takes no --store, --keys, --signing-keys, --upstream or --api-key")
	}
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return nil, usagef("--listen: %v", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, usagef("--listen: --demo listens on this machine only (localhost, 127.0.0.1 or ::1), not on %q: its key is printed on the terminal", f.listen)
	}
	dir, err := os.MkdirTemp("", "amlscreen-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	f.store = filepath.Join(dir, "demo.db")
	f.keys = filepath.Join(dir, "keys.json")
	f.signingKeys = filepath.Join(dir, "signing-keys")
	n, err := importSample(f.store)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	f.listener = ln
	removeDir := cleanup
	cleanup = func() { ln.Close(); removeDir() }
	secret := make([]byte, 16)
	rand.Read(secret)
	key := "demo-" + hex.EncodeToString(secret)
	// No features: the demo key answers as a hosted key does by default,
	// without the experimental source_country and the beta pep_level that
	// typed clients do not expect.
	keys, _ := json.Marshal([]map[string]any{{
		"key": key, "name": "demo", "webhook_url": "http://" + ln.Addr().String() + service.DemoWebhookPath,
	}})
	if err = os.WriteFile(f.keys, keys, 0o600); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	// A demo stops at once on Ctrl-C: there is no load balancer to drain.
	f.drainDelay = 0
	fmt.Fprintf(stderr, `
amlscreen demo: the embedded sample (%d records) in a throw-away store, removed on exit.

  open     http://%s/ui/
  API key  %s

Sign in with the key; the /v1 API answers on the same address with it
(x-api-key). Ctrl-C stops the demo.

`, n, ln.Addr().String(), key)
	return cleanup, nil
}

// importSample imports the embedded sample and its catalogue into a new
// store at path.
func importSample(path string) (int, error) {
	recs, err := sampledata.Records()
	if err != nil {
		return 0, err
	}
	srcs, err := sampledata.Sources()
	if err != nil {
		return 0, err
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		return 0, err
	}
	i := 0
	next := func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}
	err = st.ReplaceAll(sampledata.Version, next, nil)
	if err == nil {
		err = st.PutSources(srcs)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return len(recs), err
}
