package service

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

const (
	fixture   = "../syncer/testdata/full_v1.jsonl"
	clientKey = "client-key"
	check     = "/v1/checkName?names=ivan%20petrov"
)

// importedStore imports the syncer's full_v1 fixture as version v1 into a
// new store and returns its path, with a keys file beside it.
func importedStore(t *testing.T) (db, keys string) {
	t.Helper()
	dir := t.TempDir()
	db = filepath.Join(dir, "aml.db")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(fixture)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := syncer.ImportFile(st, in, "v1", nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	keys = filepath.Join(dir, "keys.json")
	writeFile(t, keys, `[{"key":"client-key"},{"key":"replica-key","include_other":true,"features":{"pep_level":true,"source_country":true}}]`)
	return db, keys
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// get asks the service at addr with the client key and returns the status
// and body; a refused connection is status 0.
func get(addr, path string) (int, string) {
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	req.Header.Set("x-api-key", clientKey)
	// Fresh connections, as a load balancer's probes and new clients.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// running is a service run by a test.
type running struct {
	*Service
	cancel context.CancelFunc
	done   chan error
}

func start(t *testing.T, cfg Config) *running {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	svc, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Service: svc, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		svc.Shutdown(context.Background())
	})
	return r
}

// stop ends Run and shuts the service down, as a SIGTERM does.
func (r *running) stop(t *testing.T, ctx context.Context) {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if err := r.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

func TestOpenRefusesConfig(t *testing.T) {
	db, keys := importedStore(t)
	for _, tt := range []struct {
		cfg   Config
		field string
	}{
		{Config{KeysFile: keys}, "Store"},
		{Config{Store: db}, "KeysFile"},
		{Config{Store: db, KeysFile: keys + ".absent"}, "KeysFile"},
		{Config{Store: db + ".absent", KeysFile: keys}, "Store"},
		{Config{Store: db, KeysFile: keys, Upstream: "ftp://x", UpstreamKey: "k"}, "Upstream"},
		{Config{Store: db, KeysFile: keys, Upstream: "http://x"}, "UpstreamKey"},
		{Config{Store: db, KeysFile: keys, UpstreamKey: "k"}, "UpstreamKey"},
		{Config{Store: db, KeysFile: keys, Every: -time.Second}, "Every"},
		{Config{Store: db, KeysFile: keys, DrainDelay: -time.Second}, "DrainDelay"},
		{Config{Store: db, KeysFile: keys, BookShard: book.Shard{Index: 2, Count: 2}}, "BookShard"},
	} {
		_, err := Open(tt.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tt.field {
			t.Errorf("%+v: %v, want a ConfigError of %s", tt.cfg, err, tt.field)
		}
	}
	// Failures past the checks are not ConfigErrors, and leave the store
	// closed: it opens again.
	noKeys := filepath.Join(t.TempDir(), "keys.json")
	writeFile(t, noKeys, `[]`)
	_, err := Open(Config{Store: db, KeysFile: noKeys, Listen: "127.0.0.1:0"})
	var ce *ConfigError
	if !errors.Is(err, access.ErrNoEnabledKey) || errors.As(err, &ce) {
		t.Errorf("keys file without an enabled key: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	if st, err := store.Open(empty, store.Options{}); err != nil {
		t.Fatal(err)
	} else {
		st.Close()
	}
	if _, err := Open(Config{Store: empty, KeysFile: keys, Listen: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("empty store without an upstream: %v", err)
	}
	svc, err := Open(Config{Store: db, KeysFile: keys, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatalf("the store is not closed after failed opens: %v", err)
	}
	if err := svc.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown without Run: %v", err)
	}
	// Shutdown released the store and the address.
	if st, err := store.Open(db, store.Options{}); err != nil {
		t.Errorf("store after Shutdown: %v", err)
	} else {
		st.Close()
	}
	if code, _ := get(svc.Addr(), "/readyz"); code != 0 {
		t.Errorf("the listener answers %d after Shutdown", code)
	}
}

// TestDrainAndUsage: after Run's context ends, /readyz answers 503 at
// once while checks are still answered for the drain delay; then the
// listener closes, and every answered check is in the usage written to
// the store.
func TestDrainAndUsage(t *testing.T) {
	db, keys := importedStore(t)
	const delay = time.Second
	r := start(t, Config{Store: db, KeysFile: keys, DrainDelay: delay})
	addr := r.Addr()
	answered := 0
	for _, p := range []string{"/readyz", check, check} {
		if code, body := get(addr, p); code != 200 {
			t.Fatalf("%s: %d %s", p, code, body)
		}
		if p == check {
			answered++
		}
	}
	if _, body := get(addr, check); !strings.Contains(body, `"S1"`) {
		t.Errorf("check answers %s", body)
	} else {
		answered++
	}

	r.cancel()
	if err := <-r.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Still answering after Run returned: nothing stops until Shutdown.
	if code, _ := get(addr, "/readyz"); code != 200 {
		t.Errorf("/readyz %d before Shutdown", code)
	}
	begun := time.Now()
	shut := make(chan error, 1)
	go func() { shut <- r.Shutdown(context.Background()) }()
	sawNotReady := false
	for time.Since(begun) < delay*3/4 {
		code, _ := get(addr, "/readyz")
		if code == 503 {
			sawNotReady = true
			if code, body := get(addr, check); code != 200 {
				t.Fatalf("check during the drain delay: %d %s", code, body)
			}
			answered++
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !sawNotReady {
		t.Error("/readyz never answered 503 during the drain delay")
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begun); took < delay {
		t.Errorf("Shutdown returned %v after it began, before the %v drain delay", took, delay)
	}
	if code, _ := get(addr, "/readyz"); code != 0 {
		t.Errorf("the listener answers %d after Shutdown", code)
	}

	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counts, err := access.NewBook(st).Month(access.KeyID(clientKey), time.Now().UTC().Format("2006-01"))
	if err != nil {
		t.Fatal(err)
	}
	var used int
	for _, n := range counts["/v1/checkName"] {
		used += int(n)
	}
	if used != answered {
		t.Errorf("usage holds %d checks, %d were answered", used, answered)
	}
}

// TestShutdownContextEndsDrainEarly: the context of Shutdown (a second
// signal) ends the drain delay.
func TestShutdownContextEndsDrainEarly(t *testing.T) {
	db, keys := importedStore(t)
	r := start(t, Config{Store: db, KeysFile: keys, DrainDelay: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begun := time.Now()
	r.stop(t, ctx)
	if took := time.Since(begun); took > 20*time.Second {
		t.Errorf("Shutdown took %v with its context ended", took)
	}
}

// TestReplica: a service with an upstream syncs from a primary service
// into an empty store and answers as the primary does.
func TestReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("two services syncing")
	}
	db, keys := importedStore(t)
	primary := start(t, Config{Store: db, KeysFile: keys})
	_, want := get(primary.Addr(), check)

	replicaDB := filepath.Join(t.TempDir(), "replica.db")
	replica := start(t, Config{Store: replicaDB, KeysFile: keys,
		Upstream: "http://" + primary.Addr() + "/v1", UpstreamKey: "replica-key", Every: time.Hour,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, body := get(replica.Addr(), "/readyz")
		if code == 200 {
			var ready struct{ Version string }
			if err := json.Unmarshal([]byte(body), &ready); err != nil || ready.Version != "v1" {
				t.Errorf("replica ready at %s, %v", body, err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica not ready after 20 s: %d %s", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, got := get(replica.Addr(), check); withoutTimestamp(t, got) != withoutTimestamp(t, want) {
		t.Errorf("replica answers %s, primary %s", got, want)
	}
	replica.stop(t, context.Background())
	primary.stop(t, context.Background())
}

func withoutTimestamp(t *testing.T, body string) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	delete(v, "timestamp")
	b, _ := json.Marshal(v)
	return string(b)
}
