package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key":"k"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(apiKeyEnv, "")
	for _, c := range []struct {
		args []string
		errs string
	}{
		{[]string{"serve", "--keys", keys}, "--store"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db")}, "--keys"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", filepath.Join(dir, "none.json")}, "--keys"},
		{[]string{"serve", "--store", filepath.Join(dir, "absent.db"), "--keys", keys}, "--store"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys, "--upstream", "http://x"}, "--api-key"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys, "--api-key", "k"}, "--api-key"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys, "--upstream", "http://x", "--api-key", "k", "--every", "0s"}, "--every"},
	} {
		code, _, errs := runStoreCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %s", c.args, code, errs, exitUsage, c.errs)
		}
	}
}

// TestServeAndReplica runs serve over an imported store, checks it
// answers, then runs a second serve that syncs from the first with
// --upstream and answers the same, and stops both through their context.
func TestServeAndReplica(t *testing.T) {
	dir := t.TempDir()
	primaryDB := filepath.Join(dir, "primary", "aml.db")
	os.MkdirAll(filepath.Dir(primaryDB), 0o700)
	if code, _, errs := runStoreCLI(t, "import", "--store", primaryDB, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	keys := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key":"client-key"},{"key":"replica-key","include_other":true,"features":{"pep_level":true,"source_country":true}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	primary := startServe(t, &serveFlags{store: primaryDB, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	if _, err := os.Stat(filepath.Join(dir, "primary", "signing-keys", "keyring.json")); err != nil {
		t.Errorf("no keyring next to the store: %v", err)
	}
	want := get(t, primary.addr, "client-key", "/v1/checkName?names=ivan%20petrov")

	replicaDB := filepath.Join(dir, "replica", "aml.db")
	os.MkdirAll(filepath.Dir(replicaDB), 0o700)
	replica := startServe(t, &serveFlags{store: replicaDB, keys: keys, listen: "127.0.0.1:0", every: time.Hour,
		upstream: "http://" + primary.addr, apiKey: "replica-key"})
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + replica.addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica not ready after 10 s:\n%s", replica.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := get(t, replica.addr, "client-key", "/v1/checkName?names=ivan%20petrov")
	if !sameHits(t, want, got) {
		t.Errorf("replica answers %s, primary %s", got, want)
	}
	replica.stop(t)
	primary.stop(t)
	if !strings.Contains(primary.log(), "stopped") {
		t.Errorf("no graceful stop in the log:\n%s", primary.log())
	}
}

type serving struct {
	addr   string
	cancel context.CancelFunc
	done   chan error
	mu     *sync.Mutex
	buf    *bytes.Buffer
}

func (s *serving) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func (s *serving) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("serve: %v\n%s", err, s.log())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// lockedWriter lets the test read the log while serve writes it.
type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func startServe(t *testing.T, f *serveFlags) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{cancel: cancel, done: make(chan error, 1), mu: &sync.Mutex{}, buf: &bytes.Buffer{}}
	ready := make(chan string, 1)
	f.ready = func(addr string) { ready <- addr }
	go func() { s.done <- runServe(ctx, lockedWriter{s.mu, s.buf}, f) }()
	select {
	case s.addr = <-ready:
	case err := <-s.done:
		t.Fatalf("serve: %v\n%s", err, s.log())
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	t.Cleanup(func() { cancel() })
	return s
}

func get(t *testing.T, addr, key, path string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	req.Header.Set("x-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
	}
	return string(body)
}

// sameHits compares check answers without their timestamps.
func sameHits(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y map[string]any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	delete(x, "timestamp")
	delete(y, "timestamp")
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya) && x["total_hits"].(float64) > 0
}
