package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	keys := writeKeys(t, dir, `[{"key":"k"}]`)
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
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys, "--book-shard", "2/2"}, "--book-shard"},
		{[]string{"serve", "--store", filepath.Join(dir, "a.db"), "--keys", keys, "--book-shard", "half"}, "--book-shard"},
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
	keys := writeKeys(t, dir, `[{"key":"client-key"},{"key":"replica-key","include_other":true,"features":{"pep_level":true,"source_country":true}}]`)
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

func (w lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
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

// cliChild returns the test binary set up to run the CLI with args in a
// child process (through TestBatchHelperProcess), so that a real signal
// reaches a real process.
func cliChild(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestBatchHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "AMLSCREEN_BATCH_HELPER=1")
	return cmd
}

// listenAddr reads a serve log from r until the "serving" line and
// returns its listen address; the rest of the log goes to rest.
func listenAddr(t *testing.T, r io.Reader, rest *lockedWriter) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			line := sc.Text()
			rest.Write([]byte(line + "\n"))
			if strings.Contains(line, "msg=serving") {
				for _, f := range strings.Fields(line) {
					if a, ok := strings.CutPrefix(f, "listen="); ok {
						found <- a
					}
				}
			}
		}
	}()
	select {
	case a := <-found:
		return a
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", rest)
		return ""
	}
}

// TestServeSignals runs serve in a child process. SIGHUP with a keys file
// that holds no key keeps the keys in force and logs at ERROR. After
// SIGTERM, /readyz answers 503 at once, requests on new connections are
// still answered during --drain-delay, then the process exits 0 and the
// listener is gone; every call answered, the last ones included, is in the
// usage written to the store.
func TestServeSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	t.Parallel() // waits out a drain delay; its ports, store and child are its own
	dir, db := importedStore(t)
	keys := writeKeys(t, dir, `[{"key":"client-key"}]`)
	const delay = 2 * time.Second
	cmd := cliChild("serve", "--store", db, "--keys", keys, "--listen", "127.0.0.1:0", "--drain-delay", delay.String())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	logw := &lockedWriter{&sync.Mutex{}, &bytes.Buffer{}}
	addr := listenAddr(t, stderr, logw)
	// Fresh connections each time: a load balancer's probes and new
	// clients open their own.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	status := func(path string) (int, error) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
		req.Header.Set("x-api-key", "client-key")
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	const check = "/v1/checkName?names=ivan%20petrov"
	for _, p := range []string{"/readyz", check, check} {
		if code, err := status(p); code != 200 {
			t.Fatalf("%s before the signal: %d %v", p, code, err)
		}
	}
	if err := os.WriteFile(keys, []byte(`[]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logw.String(), "level=ERROR msg=\"keys file not reloaded"); {
		if time.Now().After(deadline) {
			t.Fatalf("no ERROR line for a reload to no keys:\n%s", logw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, err := status(check); code != 200 {
		t.Fatalf("check after a reload to no keys: %d %v", code, err)
	}
	if err := os.WriteFile(keys, []byte(`[{"key":"client-key"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	answered := 3
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for time.Since(sent) < delay*3/4 {
		code, err := status("/readyz")
		if err != nil {
			t.Fatalf("/readyz %v after the signal: %v\n%s", time.Since(sent), err, logw)
		}
		if code == 200 && time.Since(sent) > 500*time.Millisecond {
			t.Fatalf("/readyz still 200 %v after the signal", time.Since(sent))
		}
		if code == 503 {
			if code, err := status(check); code != 200 {
				t.Fatalf("check during the drain delay (%v after the signal): %d %v", time.Since(sent), code, err)
			}
			answered++
		}
		time.Sleep(50 * time.Millisecond)
	}
	if answered < 5 {
		t.Errorf("only %d checks answered during the drain delay", answered-3)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v:\n%s", err, logw)
	}
	if took := time.Since(sent); took < delay {
		t.Errorf("serve exited %v after the signal, before the %v drain delay", took, delay)
	}
	if _, err := status("/readyz"); err == nil {
		t.Error("the listener still answers after exit")
	}
	// The usage written at shutdown holds every answered check, also
	// those of the last second, which the periodic flush had not reached.
	srv := startServe(t, &serveFlags{store: db, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	var u struct {
		Summary struct {
			BilledUsed int `json:"billed_requests_monthly_used"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(get(t, srv.addr, "client-key", "/v1/usage")), &u); err != nil {
		t.Fatal(err)
	}
	if u.Summary.BilledUsed != answered {
		t.Errorf("usage after restart counts %d billed calls, %d were answered", u.Summary.BilledUsed, answered)
	}
	srv.stop(t)
}

// TestServeRefusesNoKeys: a keys file with no enabled key stops serve
// before it listens, with a message saying so.
func TestServeRefusesNoKeys(t *testing.T) {
	dir, db := importedStore(t)
	keys := filepath.Join(dir, "keys.json")
	for _, body := range []string{"null", "[]", `[{"key":"k","disabled":true}]`} {
		if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		// Through runServe with a deadline, so that a serve that starts
		// fails the test instead of hanging it.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := runServe(ctx, io.Discard, &serveFlags{store: db, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
		cancel()
		var ue usageError
		if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), "no enabled API key") || !strings.Contains(err.Error(), keys) {
			t.Errorf("keys %s: serve gives %v; want a failure (exit 1) naming the file", body, err)
		}
	}
}

// TestServeRemovesLeftoverParts: serve removes at start the partial
// downloads a serve killed during a sync left beside the store, also
// without --upstream.
func TestServeRemovesLeftoverParts(t *testing.T) {
	dir, db := importedStore(t)
	keys := writeKeys(t, dir, `[{"key":"k"}]`)
	part := filepath.Join(dir, "amlscreen-aml.db-getConsolidatedFile-1234.part")
	if err := os.WriteFile(part, []byte("half a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, &serveFlags{store: db, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	if _, err := os.Stat(part); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial download still there: %v\n%s", err, s.log())
	}
	s.stop(t)
}

// TestReadersAskTheRunningServer: while serve holds the store, status and
// check cannot open it and say to use --server; with --server they ask the
// running server through the API and answer as they would from the store.
func TestReadersAskTheRunningServer(t *testing.T) {
	dir, db := importedStore(t)
	local := statusJSON(t, db)
	keys := writeKeys(t, dir, `[{"key":"reader-key","include_other":true}]`)
	s := startServe(t, &serveFlags{store: db, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	url := "http://" + s.addr
	t.Setenv(apiKeyEnv, "reader-key")

	// Each waits out the store's lock timeout: side by side, not one
	// after the other.
	var locked sync.WaitGroup
	for _, args := range [][]string{
		{"status", "--store", db},
		{"check", "--store", db, "--names", "ivan petrov"},
	} {
		locked.Go(func() {
			code, _, errs := runStoreCLI(t, args...)
			if code != exitError || !strings.Contains(errs, "locked") || !strings.Contains(errs, "--server URL") {
				t.Errorf("%v while serve runs: exit %d, %q", args, code, errs)
			}
		})
	}
	locked.Wait()

	code, out, errs := runStoreCLI(t, "status", "--server", url+"/v1", "--format", "json")
	if code != exitOK {
		t.Fatalf("status --server: exit %d: %s", code, errs)
	}
	var remote statusReport
	if err := json.Unmarshal([]byte(out), &remote); err != nil {
		t.Fatal(err)
	}
	if remote.Store != url || remote.Version != "v1" || remote.Records != local.Records || remote.SizeBytes == 0 ||
		fmt.Sprint(remote.BySourceType) != fmt.Sprint(local.BySourceType) {
		t.Errorf("status --server %+v, store %+v", remote, local)
	}
	if code, out, _ := runStoreCLI(t, "status", "--server", url); code != exitOK || !strings.Contains(words(out), "Version v1") {
		t.Errorf("status --server table: exit %d:\n%s", code, out)
	}

	want := get(t, s.addr, "reader-key", "/v1/checkName?names=ivan%20petrov")
	code, out, errs = runStoreCLI(t, "check", "--server", url, "--names", "ivan petrov", "--format", "json")
	if code != exitOK || !sameHits(t, want, out) {
		t.Errorf("check --server json: exit %d %s\n%s\nwant %s", code, errs, out, want)
	}
	code, out, errs = runStoreCLI(t, "check", "--server", url, "--type", "individual", "--names", "petrov ivan", "--fuzzy", "1", "--format", "table")
	if code != exitOK || !strings.Contains(out, "S1") || !strings.Contains(out, "server "+url+" version v1") {
		t.Errorf("check --server table: exit %d %s\n%s", code, errs, out)
	}
	// --gender keeps its short forms: they reach /v1, which takes only
	// male and female, written out.
	want = get(t, s.addr, "reader-key", "/v1/checkIndividual?names=ivan%20petrov&gender=male")
	code, out, errs = runStoreCLI(t, "check", "--server", url, "--type", "individual", "--names", "ivan petrov", "--gender", "M", "--format", "json")
	if code != exitOK || !sameHits(t, want, out) {
		t.Errorf("check --server --gender M: exit %d %s\n%s\nwant %s", code, errs, out, want)
	}
	// Scored mode travels as match and min_score; the table shows the
	// score and why from the server's match_reason.
	want = get(t, s.addr, "reader-key", "/v1/checkName?names=ivan%20sergeyevich%20petrov&fuzzy_search=1&match=scored&min_score=0.2")
	code, out, errs = runStoreCLI(t, "check", "--server", url, "--names", "ivan sergeyevich petrov", "--fuzzy", "1", "--match", "scored", "--min-score", "0.2", "--format", "json")
	if code != exitOK || !sameHits(t, want, out) || !strings.Contains(out, `"match_score"`) {
		t.Errorf("check --server scored json: exit %d %s\n%s\nwant %s", code, errs, out, want)
	}
	code, out, errs = runStoreCLI(t, "check", "--server", url, "--names", "ivan sergeyevich petrov", "--fuzzy", "1", "--match", "scored", "--min-score", "0.2", "--format", "table")
	if code != exitOK || !strings.Contains(out, "SCORE") || !strings.Contains(out, "unpaired query: sergeyevich") {
		t.Errorf("check --server scored table: exit %d %s\n%s", code, errs, out)
	}

	for _, c := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"check", "--server", url, "--names", "ivan", "--includes", "nowhere"}, exitUsage, "--includes: unknown source id"},
		{[]string{"check", "--server", url, "--names", "ivan", "--store", db}, exitUsage, "--server excludes"},
		{[]string{"check", "--server", url, "--names", "ivan", "--limit", "5"}, exitUsage, "--limit"},
		{[]string{"check", "--server", url, "--names", "ivan", "--api-key", "wrong"}, exitError, "401"},
		{[]string{"check", "--api-key", "k", "--names", "ivan"}, exitUsage, "--api-key: only with --server"},
		{[]string{"status", "--server", "ftp://x"}, exitUsage, "--server"},
		{[]string{"status", "--server", url, "--store", db}, exitUsage, "exclude"},
		{[]string{"status", "--server", url, "--api-key", "wrong"}, exitError, "check --api-key"},
	} {
		code, _, errs := runStoreCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, %q; want %d with %q", c.args, code, errs, c.code, c.errs)
		}
	}
	closed := "http://" + s.addr
	s.stop(t)
	if code, _, errs := runStoreCLI(t, "status", "--server", closed); code != exitError || !strings.Contains(errs, "cannot reach the server") {
		t.Errorf("status --server with the server gone: exit %d, %q", code, errs)
	}
}

// importedStore imports the syncer's full_v1 fixture as version v1 into a
// new store and returns its directory and path.
func importedStore(t *testing.T) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	db = filepath.Join(dir, "aml.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	return dir, db
}

// writeKeys writes a keys file into dir and returns its path.
func writeKeys(t *testing.T, dir, body string) string {
	t.Helper()
	keys := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return keys
}
