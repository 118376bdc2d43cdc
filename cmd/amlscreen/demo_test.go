package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestDemoBusyPort: serve --demo on an address in use says so, exits 1
// and removes its temporary directory (it panicked on a nil clean-up and
// left the directory behind).
func TestDemoBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, _, stderr := runCLI(t, "serve", "--demo", "--listen", ln.Addr().String())
	if code != exitError {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitError, stderr)
	}
	if !strings.Contains(stderr, "in use") || !strings.Contains(stderr, ln.Addr().String()) {
		t.Errorf("the message does not say the address is in use:\n%s", stderr)
	}
	assertEmptyDir(t, tmp)
}

// TestDemoSIGTERMDuringStart: a SIGTERM while the demo starts (after its
// store is made, while the index is built or just after) stops it without
// a panic and removes its temporary directory.
func TestDemoSIGTERMDuringStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	t.Parallel() // waits on its child, which has its own TMPDIR
	tmp := t.TempDir()
	cmd := cliChild("serve", "--demo", "--listen", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var log bytes.Buffer
	sc := bufio.NewScanner(stderr)
	sent := false
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		// The banner is printed once the store is made, before the
		// index is built and the server answers.
		if !sent && strings.Contains(sc.Text(), "amlscreen demo:") {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	if !sent {
		t.Fatalf("no demo banner:\n%s", log.String())
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		// The server was up before the signal arrived: a normal stop.
	case errors.As(err, &ee) && ee.ExitCode() == exitError:
		if !strings.Contains(log.String(), "stopped by a signal before serving") {
			t.Errorf("exit 1 without saying why:\n%s", log.String())
		}
	default:
		t.Errorf("serve --demo ended with %v after SIGTERM during its start:\n%s", err, log.String())
	}
	if strings.Contains(log.String(), "panic") {
		t.Errorf("panic:\n%s", log.String())
	}
	assertEmptyDir(t, tmp)
}

// assertEmptyDir fails when dir holds anything.
func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left behind in the temporary directory: %s", e.Name())
	}
}

// demoAnswersMedia checks that the demo at addr answers its media
// endpoints from the embedded media sample, as media check does without
// --store (the demo's store had no articles: 0 hits on the API, 44 on the
// CLI). TestServeDemo calls it on its demo, which saves starting another.
func demoAnswersMedia(t *testing.T, addr, key string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "media", "check", "--type", "entity", "--search-all", "Romashka LLC", "--format", "json")
	if code != exitOK {
		t.Fatalf("media check: exit %d: %s", code, stderr)
	}
	cli := totalHits(t, stdout)
	if cli == 0 {
		t.Fatalf("media check finds nothing on the embedded sample: %s", stdout)
	}
	api := totalHits(t, get(t, addr, key, "/v1/media/checkEntity?search_all=Romashka%20LLC"))
	if api != cli {
		t.Errorf("the demo's /v1/media/checkEntity finds %d articles, media check %d", api, cli)
	}
}

// totalHits reads total_hits of a CheckMediaResponse.
func totalHits(t *testing.T, body string) int {
	t.Helper()
	var r struct {
		TotalHits *int `json:"total_hits"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.TotalHits == nil {
		t.Fatalf("not a media response (%v): %s", err, body)
	}
	return *r.TotalHits
}

// TestImportSampleUsage: import takes a FILE or --sample, not both and
// not neither, and --sample keeps the sample's own version.
func TestImportSampleUsage(t *testing.T) {
	db := t.TempDir() + "/aml.db"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "--store", db}, "give the FILE argument to import, or --sample"},
		{[]string{"import", "--store", db, "--sample", "x.jsonl"}, "--sample: imports the embedded sample"},
		{[]string{"import", "--store", db, "--sample", "--version", "v1"}, "--sample: imports the embedded sample"},
		{[]string{"import", "--sample"}, "--store: required"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused import left a store behind")
	}
}
