package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// BenchmarkChangeDigest asks the first page (1,000 changes) of the digest
// of a change set that updated 10,000 of 20,000 records and added 1,000:
// the cost of one page of getChangeDigest, which reads the whole period
// from the change log and compares the page's records field by field.
func BenchmarkChangeDigest(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	g := gen.New(5)
	const n = 20000
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	i := 0
	if err := st.ReplaceAll("v1", func() (*record.Record, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}, nil); err != nil {
		b.Fatal(err)
	}
	var delta []record.Change
	for k := 0; k < n; k += 2 {
		r := recs[k].Clone()
		r.AliasNames = append(r.AliasNames, recs[(k+1)%n].Name)
		delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
	}
	for k := n; k < n+1000; k++ {
		delta = append(delta, record.Change{Type: record.ChangeAdd, Record: *g.Record(k)})
	}
	if _, err := st.ApplyDelta("v1", "v2", delta, nil); err != nil {
		b.Fatal(err)
	}
	db, err := screen.Load(st)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	srv, err := New(Config{DB: db, Store: st, Keys: []*access.Key{{Key: "bench-key", IncludeOther: true}}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	get := func(query string) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, "/v1/getChangeDigest?"+query, nil)
		req.Header.Set("x-api-key", "bench-key")
		return req
	}
	page := func(b *testing.B, req *http.Request) {
		for b.Loop() {
			w := &discard{header: http.Header{}}
			srv.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
		}
	}
	// The first page reads the change log; the next pages of the same
	// period reuse what it read.
	b.Run("first", func(b *testing.B) { page(b, get("since=v1&limit=1000")) })
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, get("since=v1&limit=1000"))
	var first struct {
		Next string `json:"next"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &first); err != nil || first.Next == "" {
		b.Fatalf("first page: %v, next %q", err, first.Next)
	}
	b.Run("next", func(b *testing.B) { page(b, get("next="+url.QueryEscape(first.Next)+"&limit=1000")) })
}

// discard is a ResponseWriter that keeps the status only.
type discard struct {
	header http.Header
	status int
}

func (d *discard) Header() http.Header { return d.header }
func (d *discard) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}
func (d *discard) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	return len(p), nil
}
