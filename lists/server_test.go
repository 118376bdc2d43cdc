package lists

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// listServer serves list files over loopback as an issuer does: ETag and
// Last-Modified, 304 to a matching conditional GET, and, per file, a
// failure mode.
type listServer struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte // by path without the leading /
	modes    map[string]string // "500", "truncate", "slow", "404"
	slow     time.Duration
	requests atomic.Int64
	notMod   atomic.Int64
}

func newListServer(t testing.TB) *listServer {
	s := &listServer{files: map[string][]byte{}, modes: map[string]string{}, slow: 2 * time.Second}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *listServer) set(name string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[name] = b
}

func (s *listServer) mode(name, m string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes[name] = m
}

// addDir serves every file of dir under its name.
func (s *listServer) addDir(t testing.TB, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s.set(e.Name(), b)
	}
}

var lastModified = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat)

func (s *listServer) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	name := strings.TrimPrefix(r.URL.Path, "/")
	s.mu.Lock()
	b, ok := s.files[name]
	m := s.modes[name]
	slow := s.slow
	s.mu.Unlock()
	switch {
	case m == "500":
		http.Error(w, "upstream broken", http.StatusInternalServerError)
		return
	case m == "slow":
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return
		}
	case !ok || m == "404":
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Last-Modified", lastModified)
	if r.Header.Get("If-None-Match") == etag {
		s.notMod.Add(1)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if m == "truncate" {
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b[:len(b)/2])
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// urls points every list at the server, files under their issuers' names.
func (s *listServer) urls() map[string]string {
	m := map[string]string{}
	for _, l := range known {
		m[l.Name] = s.URL + "/"
	}
	return m
}

// openStore opens a new store in a temporary directory.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fetcher returns a Fetcher of the server's lists with short waits.
func (s *listServer) fetcher() *Fetcher {
	return &Fetcher{URLs: s.urls(), Attempts: 3, Backoff: time.Millisecond, StallTimeout: 500 * time.Millisecond}
}
