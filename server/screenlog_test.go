package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/store"
)

// TestLogScreening: every check answered is passed to LogScreening with
// the key's name, the query, the version and the ids, except those under
// WithoutScreeningLog; refused checks are not.
func TestLogScreening(t *testing.T) {
	var mu sync.Mutex
	var got []Screening
	f := newFixture(t, func(c *Config) {
		c.LogScreening = func(s Screening) { mu.Lock(); got = append(got, s); mu.Unlock() }
	})
	h := f.srv.Handler()
	get := func(ctx context.Context, path string) int {
		req := httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx)
		req.Header.Set("x-api-key", keyBasic)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if code := get(context.Background(), "/v1/checkIndividual?"+url.Values{"names": {"vladimir putin"}, "dob": {"00/00/1952"}}.Encode()); code != http.StatusOK {
		t.Fatalf("check: %d", code)
	}
	get(context.Background(), "/v1/checkIndividual?names=vladimir+putin&gender=x") // refused: 400
	get(WithoutScreeningLog(context.Background()), "/v1/checkName?names=vladimir+putin")
	get(context.Background(), "/v1/checkEntity?names=nobody+at+all")
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("logged %d checks, want 2: %+v", len(got), got)
	}
	s := got[0]
	if s.Key == "" || !strings.HasPrefix(s.Query, `checkIndividual names="vladimir putin" dob="00/00/1952"`) || s.Version == "" || !slices.Contains(s.IDs, "AML001") {
		t.Errorf("logged %+v", s)
	}
	if got[1].Query != `checkEntity names="nobody at all"` || len(got[1].IDs) != 0 {
		t.Errorf("logged %+v", got[1])
	}
}

// BenchmarkServeLogged is BenchmarkServe's strict check with every check
// logged to the audit log of a real store through casework's batched
// ScreeningLog, as serve does; compare its req/s and cpu-us/req with
// BenchmarkServe/checkIndividual/fuzzy0 run the same way.
//
//	go test -run '^$' -bench 'Serve(Logged)?$/.*fuzzy0|ServeLogged' -benchtime 20000x ./server
func BenchmarkServeLogged(b *testing.B) {
	serveBench(b)
	st, err := store.Open(filepath.Join(b.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	log := casework.New(st, casework.Options{}).NewScreeningLog(0, func(err error) { b.Error(err) })
	defer log.Close()
	srv, err := New(Config{DB: benchServer.db, Keys: []*access.Key{{Key: "bench-key", Name: "bench"}}, LogScreening: func(s Screening) {
		log.Add(casework.Screening{Actor: "key:" + s.Key, Query: s.Query, Version: s.Version, IDs: s.IDs})
	}})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	b.Run("checkIndividual/fuzzy0", func(b *testing.B) {
		loadRun(b, ts, "0")
		log.Flush()
	})
}
