package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestProbe: probe exits 0 on a serve that is ready, 1 on one whose
// /readyz answers 503 or on an address nothing listens on, and 2 on bad
// flags; --listen and --url reach the same server.
func TestProbe(t *testing.T) {
	dir, db := importedStore(t)
	keys := writeKeys(t, dir, `[{"key":"client-key"}]`)
	srv := startServe(t, &serveFlags{store: db, keys: keys, listen: "127.0.0.1:0", every: time.Hour})
	defer srv.stop(t)
	_, port, _ := net.SplitHostPort(srv.addr)

	notReady := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
	}))
	defer notReady.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--url", "http://" + srv.addr}, exitOK, "ready"},
		{[]string{"--url", "http://" + srv.addr + "/"}, exitOK, "ready"},
		{[]string{"--listen", ":" + port}, exitOK, "ready"},
		{[]string{"--url", notReady.URL}, exitError, "503"},
		{[]string{"--listen", closedAddr, "--timeout", "2s"}, exitError, "not ready"},
		{[]string{"--url", "ftp://" + srv.addr}, exitUsage, "--url"},
		{[]string{"--url", "http://" + srv.addr, "--listen", ":" + port}, exitUsage, "not with --listen"},
		{[]string{"--listen", "8080"}, exitUsage, "--listen"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"probe"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("probe %v: exit %d, want %d with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.code, tc.want, stdout, stderr)
		}
	}
}

// TestVersionFlag: amlscreen --version prints one line naming the build
// and the Go version.
func TestVersionFlag(t *testing.T) {
	code, stdout, stderr := runCLI(t, "--version")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "amlscreen ") || !strings.Contains(stdout, runtime.Version()) || strings.Count(stdout, "\n") != 1 {
		t.Errorf("--version printed %q", stdout)
	}
}
