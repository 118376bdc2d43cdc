package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
)

// BenchmarkServe is the load test of the /v1 server: checkIndividual over
// loopback HTTP from concurrent keep-alive clients in the same process, so
// client and server share the machine's cores as they would with wrk on
// the same host. The database is AMLSCREEN_BENCH_RECORDS generated
// records (default 100,000; the README's figures use 1,000,000), queries
// are gen.Queries for individuals (a fifth with dob, gender or citizenship
// filters), strict at fuzzy 0 and 2 and scored at fuzzy 2. Besides ns/op
// it reports req/s, p50 and p99 latency, the mean answer size, error
// answers (any is a failure) and the process RSS.
//
//	AMLSCREEN_BENCH_RECORDS=1000000 go test -run '^$' -bench Serve -benchtime 20s ./server
func BenchmarkServe(b *testing.B) {
	ts := serveBench(b)
	// The last runs scored mode at its default threshold, to set its
	// throughput beside strict fuzzy 2's.
	for _, c := range []struct{ name, params string }{{"fuzzy0", "0"}, {"fuzzy2", "2"}, {"fuzzy2/scored", "2&match=scored"}} {
		b.Run("checkIndividual/"+c.name, func(b *testing.B) { loadRun(b, ts, c.params) })
	}
}

var benchServer struct {
	once    sync.Once
	ts      *httptest.Server
	db      *screen.Database
	queries []string // query strings without fuzzy_search
	records int
}

func benchRecords() int {
	if n, err := strconv.Atoi(os.Getenv("AMLSCREEN_BENCH_RECORDS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

func serveBench(b *testing.B) *httptest.Server {
	benchServer.once.Do(func() {
		n := benchRecords()
		start := time.Now()
		recs := make([]*record.Record, n)
		g := gen.New(1)
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Go(func() {
				for i := w; i < n; i += workers {
					recs[i] = g.Record(i)
				}
			})
		}
		wg.Wait()
		// The index is built on one core: country.Key shares one
		// golang.org/x/text transformer between goroutines, which is not
		// safe, and a parallel build of a million generated records trips
		// over it (reported; not this package's file).
		procs := runtime.GOMAXPROCS(1)
		db := screen.New(recs, nil, "bench")
		runtime.GOMAXPROCS(procs)
		for _, q := range gen.Queries(recs, 4000, 2) {
			if q.EntityType != "individual" {
				continue
			}
			v := url.Values{"names": {q.Names}}
			for k, val := range map[string]string{"dob": q.DOB, "gender": q.Gender, "citizenship": q.Citizenship} {
				if val != "" {
					v.Set(k, val)
				}
			}
			benchServer.queries = append(benchServer.queries, v.Encode())
		}
		srv, err := New(Config{DB: db, Keys: []*access.Key{{Key: "bench-key"}}})
		if err != nil {
			panic(err)
		}
		benchServer.ts = httptest.NewServer(srv)
		benchServer.db = db
		benchServer.records = n
		runtime.GC()
		fmt.Fprintf(os.Stderr, "BenchmarkServe: %d records, %d individual queries, ready in %v, RSS %d MiB\n",
			n, len(benchServer.queries), time.Since(start).Round(time.Second), residentBytes()>>20)
	})
	return benchServer.ts
}

// benchConns is the number of keep-alive connections of the load:
// AMLSCREEN_BENCH_CONNS, default 16.
func benchConns() int {
	if n, err := strconv.Atoi(os.Getenv("AMLSCREEN_BENCH_CONNS")); err == nil && n > 0 {
		return n
	}
	return 16
}

// loadRun sends b.N checks over benchConns keep-alive connections, each
// driven by its own goroutine that writes a request and reads the answer,
// as wrk does. The client is hand-written HTTP/1.1, a few dozen lines, so
// that it takes little of the two cores it shares with the server: Go's
// http.Client costs about as much CPU per request as the server's whole
// HTTP layer.
func loadRun(b *testing.B, ts *httptest.Server, fuzzy string) {
	addr := strings.TrimPrefix(ts.URL, "http://")
	conns := benchConns()
	var next, errs, bytes atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	rssBefore := residentBytes()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer c.Close()
			br := bufio.NewReaderSize(c, 64<<10)
			local := make([]time.Duration, 0, b.N/conns+1)
			var req []byte
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					break
				}
				req = append(req[:0], "GET /v1/checkIndividual?fuzzy_search="...)
				req = append(req, fuzzy...)
				req = append(req, '&')
				req = append(req, benchServer.queries[int(i)%len(benchServer.queries)]...)
				req = append(req, " HTTP/1.1\r\nHost: bench\r\nx-api-key: bench-key\r\n\r\n"...)
				t0 := time.Now()
				if _, err := c.Write(req); err != nil {
					b.Error(err)
					return
				}
				status, n, err := readAnswer(br)
				if err != nil {
					b.Error(err)
					return
				}
				local = append(local, time.Since(t0))
				bytes.Add(n)
				if status != http.StatusOK {
					errs.Add(1)
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(bytes.Load())/float64(len(lat)), "B/answer")
	b.ReportMetric(float64(errs.Load()), "errors")
	if cpu > 0 {
		// CPU per request, client included, and the rate the machine's
		// cores would sustain at that cost: a figure other load on the
		// machine does not distort, unlike req/s.
		perReq := cpu.Seconds() / float64(len(lat))
		b.ReportMetric(perReq*1e6, "cpu-us/req")
		b.ReportMetric(float64(runtime.NumCPU())/perReq, "cpu-bound-req/s")
	}
	b.ReportMetric(float64(residentBytes()>>20), "rss-MiB")
	b.ReportMetric(float64((residentBytes()-rssBefore)>>20), "rss-growth-MiB")
	if errs.Load() > 0 {
		b.Errorf("%d error answers", errs.Load())
	}
}

// readAnswer reads one HTTP/1.1 answer with a Content-Length body and
// returns its status and body length.
func readAnswer(br *bufio.Reader) (status int, n int64, err error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, 0, err
	}
	if len(line) < 12 {
		return 0, 0, fmt.Errorf("status line %q", line)
	}
	status, _ = strconv.Atoi(string(line[9:12]))
	length := int64(-1)
	for {
		line, err = br.ReadSlice('\n')
		if err != nil {
			return 0, 0, err
		}
		if len(line) <= 2 {
			break
		}
		if k, v, ok := strings.Cut(string(line), ":"); ok && strings.EqualFold(k, "Content-Length") {
			length, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	if length < 0 {
		return 0, 0, fmt.Errorf("answer %d without Content-Length", status)
	}
	_, err = br.Discard(int(length))
	return status, length, err
}
