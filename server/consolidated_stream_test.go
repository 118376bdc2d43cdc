package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// genStore imports n generated records into a fresh store and returns it
// with the records.
func genStore(t *testing.T, n int) (*store.Store, []*record.Record) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := gen.New(1)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	i := 0
	if err := st.ReplaceAll("gen-1", func() (*record.Record, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.PutSources(gen.Sources()); err != nil {
		t.Fatal(err)
	}
	return st, recs
}

// genServer returns a server over st (nil for none) and an index of recs.
func genServer(t *testing.T, st *store.Store, recs []*record.Record) *Server {
	t.Helper()
	db := screen.New(recs, gen.Sources(), "gen-1")
	t.Cleanup(db.Close)
	cfg := Config{DB: db, Keys: []*access.Key{{Key: "gen-key"}}}
	if st != nil {
		cfg.Store = st
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// download returns the raw body of path, gzip as sent when gz is set.
func download(t *testing.T, ts *httptest.Server, path string, gz bool) (string, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+path, nil)
	req.Header.Set("x-api-key", "gen-key")
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s: %d %v %.200s", path, resp.StatusCode, err, body)
	}
	return resp.Header.Get("File-Version"), body
}

// TestConsolidatedFileStreamSameBytes: the file streamed from the store
// is byte for byte the file made from the index's records, plain and gzip,
// whole and for a selection of sources. The store holds 1,000 records
// (AMLSCREEN_LONG_TESTS=1: 3,000), about 400 KB of lines: the servers
// still stream concurrently with the client's reading.
func TestConsolidatedFileStreamSameBytes(t *testing.T) {
	n := 1000
	if longTests() {
		n = 3000
	}
	st, recs := genStore(t, n)
	withStore := httptest.NewServer(genServer(t, st, recs))
	defer withStore.Close()
	indexOnly := httptest.NewServer(genServer(t, nil, recs))
	defer indexOnly.Close()
	for _, path := range []string{"/v1/getConsolidatedFile", "/v1/getConsolidatedFile?includes=us_ofac_sdn,eu_fsf"} {
		for _, gz := range []bool{false, true} {
			v1, a := download(t, withStore, path, gz)
			v2, b := download(t, indexOnly, path, gz)
			if v1 != "gen-1" || v2 != v1 {
				t.Errorf("%s: File-Version %q and %q", path, v1, v2)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s gzip %v: streamed %d bytes differ from the index's %d", path, gz, len(a), len(b))
			}
			if !gz && bytes.Count(a, []byte("\n")) < 100 {
				t.Errorf("%s: only %d lines", path, bytes.Count(a, []byte("\n")))
			}
		}
	}
}

// stallWriter is a ResponseWriter that blocks once it was sent
// stallAfter bytes, until released: a client that stopped reading, without
// the kernel's socket buffers (megabytes on loopback) in between, so that
// what the server holds meanwhile can be measured exactly. It keeps only
// the start of the body and counts the rest.
type stallWriter struct {
	h          http.Header
	status     int
	head       []byte
	n, lines   int
	stallAfter int
	stalled    chan struct{}
	release    chan struct{}
}

func (w *stallWriter) Header() http.Header { return w.h }
func (w *stallWriter) WriteHeader(s int)   { w.status = s }
func (w *stallWriter) Write(p []byte) (int, error) {
	if w.n < w.stallAfter && w.n+len(p) >= w.stallAfter {
		close(w.stalled)
		<-w.release
	}
	if len(w.head) < 512 {
		w.head = append(w.head, p[:min(len(p), 512)]...)
	}
	w.n += len(p)
	w.lines += bytes.Count(p, []byte("\n"))
	return len(p), nil
}

// TestConsolidatedFileMemory: while a client reads a file slowly, the heap
// the download holds (what is freed when it ends) does not grow with the
// number of records: five times the records add less than a twentieth of
// what holding them as lines would. Both runs read the same two stores.
func TestConsolidatedFileMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 24,000 records to measure the heap, which the race detector inflates; runs without -short")
	}
	// The limit is a share of each record's line, so the growth that
	// fails the test per record does not depend on the sizes; the long
	// run takes more. Below about 5,000 records the heap a download
	// holds still grows with the store (to a bound), so the smaller size
	// stays at 6,000.
	sizes := []int{6000, 18000}
	if longTests() {
		sizes = []int{6000, 30000}
	}
	stores := make([]*store.Store, len(sizes))
	for k, n := range sizes {
		stores[k], _ = genStore(t, n)
	}
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprint("gzip=", gz), func(t *testing.T) { testFileMemory(t, gz, sizes, stores) })
	}
}

func testFileMemory(t *testing.T, gz bool, sizes []int, stores []*store.Store) {
	held := map[int]int64{}
	lineBytes := int64(0)
	for k, n := range sizes {
		srv := genServer(t, stores[k], nil)
		w := &stallWriter{h: http.Header{}, stallAfter: 64 << 10, stalled: make(chan struct{}), release: make(chan struct{})}
		req := httptest.NewRequest("GET", "/v1/getConsolidatedFile", nil)
		req.Header.Set("x-api-key", "gen-key")
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		done := make(chan struct{})
		go func() { srv.ServeHTTP(w, req); close(done) }()
		select {
		case <-w.stalled:
		case <-done:
			t.Fatalf("%d records: the download ended before %d bytes: %d %s", n, w.stallAfter, w.status, w.head)
		}
		stalled := heapAfterGC()
		close(w.release)
		<-done
		held[n] = stalled - heapAfterGC()
		if gz {
			continue
		}
		// A key without features sees all but a few sources.
		if w.lines < n*9/10 {
			t.Fatalf("%d records: %d lines", n, w.lines)
		}
		lineBytes = int64(w.n / w.lines)
	}
	if gz {
		// Lines of about 400 bytes, compressed 4 to 1 or better.
		lineBytes = 100
	}
	grow := held[sizes[1]] - held[sizes[0]]
	t.Logf("heap held by a stalled download: %d bytes at %d records, %d at %d; a line is about %d bytes", held[sizes[0]], sizes[0], held[sizes[1]], sizes[1], lineBytes)
	if limit := int64(sizes[1]-sizes[0]) * lineBytes / 20; grow > limit {
		t.Errorf("the heap grew by %d bytes for %d more records (limit %d)", grow, sizes[1]-sizes[0], limit)
	}
}

func heapAfterGC() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
