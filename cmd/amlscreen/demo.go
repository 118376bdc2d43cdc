package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"github.com/amlscreen/amlscreen/media"
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
	// remove is a variable of its own: a "return nil, err" sets the
	// named result cleanup to nil before the deferred call reads it.
	var ln net.Listener
	remove := func() {
		if ln != nil {
			ln.Close()
		}
		os.RemoveAll(dir)
	}
	defer func() {
		if err != nil {
			remove()
		}
	}()
	f.store = filepath.Join(dir, "demo.db")
	f.keys = filepath.Join(dir, "keys.json")
	f.signingKeys = filepath.Join(dir, "signing-keys")
	// The address first: a port in use is refused before the sample is
	// imported.
	if ln, err = net.Listen("tcp", f.listen); err != nil {
		return nil, listenError(f.listen, err)
	}
	f.listener = ln
	n, err := importSample(f.store, store.Options{Log: cliLogger(stderr)})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
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
	if logsJSON() {
		cliLogger(stderr).Info("demo: the embedded sample in a throw-away store, removed on exit; sign in at the URL with the key",
			"records", n, "open", "http://"+ln.Addr().String()+"/ui/", "api_key", key)
		return remove, nil
	}
	fmt.Fprintf(stderr, `
amlscreen demo: the embedded sample (%d records) in a throw-away store, removed on exit.

  open     http://%s/ui/
  API key  %s

Sign in with the key; the /v1 API answers on the same address with it
(x-api-key). Ctrl-C stops the demo.

`, n, ln.Addr().String(), key)
	return remove, nil
}

// listenError says why the address of --listen cannot be listened on; an
// address in use, the usual case, is named as such with the way out.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("--listen %s: the address is in use (is another serve running?); stop it or give another address, e.g. --listen localhost:8081", addr)
	}
	return fmt.Errorf("--listen %s: %w", addr, err)
}

// importSample imports the embedded sample into the store at path,
// created when absent: its records and source catalogue (replacing what
// the store held) and its media corpus, so that media checks answer as
// media check does without --store. The screening index is built as the
// records are read, as a full import builds it.
func importSample(path string, opts store.Options) (int, error) {
	recs, err := sampledata.Records()
	if err != nil {
		return 0, err
	}
	srcs, err := sampledata.Sources()
	if err != nil {
		return 0, err
	}
	st, err := openStoreToWrite(path, opts)
	if err != nil {
		return 0, err
	}
	err = st.ReplaceAll(sampledata.Version, store.Slice(recs), nil)
	if err == nil {
		err = st.PutSources(srcs)
	}
	if err == nil {
		err = importSampleMedia(st)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return len(recs), err
}

// importSampleMedia upserts the embedded media sample into st's corpus.
func importSampleMedia(st *store.Store) error {
	c, err := media.Load(st, media.Options{})
	if err != nil {
		return fmt.Errorf("media corpus: %w", err)
	}
	if _, err := c.ImportSample(); err != nil {
		return fmt.Errorf("embedded media sample: %w", err)
	}
	return nil
}
