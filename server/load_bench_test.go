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
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
)

// BenchmarkHeavyLoad is the denial-of-service load test: heavyClients
// keep-alive clients send the worst checks the limits allow (512
// characters of 32 common words as names at fuzzy 2, search_all of 32
// common words, and one common word alone, which reaches the most
// records) for AMLSCREEN_LOAD_SECONDS (default 20) against the database
// of BenchmarkServe, while one client sends normal checks one after
// another. It reports the normal checks' p50 and p99 (the target is p99
// under 50 ms), how many heavy checks were answered and how many refused
// (503: no admission slot came free in time; a heavy check is never
// answered in part), the heap after a collection before and after the
// load, and, measured first on an idle server, the slowest of the worst
// checks alone.
//
// AMLSCREEN_BENCH_ADMISSION=off runs it with no query counted heavy, to
// compare with the engine's admission of heavy queries.
//
//	go test -run '^$' -bench HeavyLoad -benchtime 1x ./server
//	AMLSCREEN_BENCH_RECORDS=1000000 go test -run '^$' -bench HeavyLoad -benchtime 1x -timeout 1h ./server
func BenchmarkHeavyLoad(b *testing.B) {
	ts := serveBench(b)
	if os.Getenv("AMLSCREEN_BENCH_ADMISSION") == "off" {
		ix := benchServer.db.Index()
		defer ix.SetAdmitter(ix.Admitter())
		ix.SetAdmitter(engine.NewAdmitter(engine.Admission{MinCost: -1, MaxWords: 1 << 30}))
	}
	addr := strings.TrimPrefix(ts.URL, "http://")
	heavy := heavyQueries(benchServer.records)

	// The worst checks alone, each the median of five.
	worst := 0.0
	for _, q := range heavy {
		var lat []time.Duration
		for range 5 {
			d, status, err := oneRequest(addr, q)
			if err != nil || status != http.StatusOK {
				b.Fatalf("%.60s: status %d, %v", q, status, err)
			}
			lat = append(lat, d)
		}
		slices.Sort(lat)
		ms := float64(lat[len(lat)/2].Microseconds()) / 1000
		fmt.Fprintf(os.Stderr, "BenchmarkHeavyLoad: alone %.60s… %.1f ms\n", q, ms)
		worst = max(worst, ms)
	}

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heapBefore, rssBefore := ms.HeapAlloc, residentBytes()

	deadline := time.Now().Add(loadDuration())
	var answered, refused, failed atomic.Int64
	var wg sync.WaitGroup
	for c := range heavyClients {
		wg.Go(func() {
			conn, br, err := dialBench(addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer conn.Close()
			for i := c; time.Now().Before(deadline); i++ {
				status, err := roundTrip(conn, br, heavy[i%len(heavy)])
				switch {
				case err != nil:
					b.Error(err)
					return
				case status == http.StatusOK:
					answered.Add(1)
				case status == http.StatusServiceUnavailable:
					refused.Add(1)
				default:
					failed.Add(1)
				}
			}
		})
	}
	var normal []time.Duration
	var normalFailed int
	wg.Go(func() {
		normal, normalFailed = normalChecks(b, addr, deadline, func(i int) string {
			return "/v1/checkIndividual?fuzzy_search=" + strconv.Itoa(i%2*2) + "&" + benchServer.queries[i%len(benchServer.queries)]
		})
	})
	wg.Wait()

	runtime.GC()
	runtime.ReadMemStats(&ms)
	reportNormal(b, normal)
	b.ReportMetric(float64(answered.Load()), "heavy-answered")
	b.ReportMetric(float64(refused.Load()), "heavy-refused")
	b.ReportMetric(worst, "worst-alone-ms")
	b.ReportMetric(float64(heapBefore>>20), "heap-before-MiB")
	b.ReportMetric(float64(ms.HeapAlloc>>20), "heap-after-MiB")
	b.ReportMetric(float64((residentBytes()-rssBefore)>>20), "rss-growth-MiB")
	if normalFailed > 0 || failed.Load() > 0 {
		b.Errorf("%d normal and %d heavy checks failed", normalFailed, failed.Load())
	}
}

// heavyClients is the number of clients sending worst-case checks.
const heavyClients = 8

// loadDuration is AMLSCREEN_LOAD_SECONDS, default 20 s.
func loadDuration() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("AMLSCREEN_LOAD_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 20 * time.Second
}

// heavyQueries are request paths of the worst checks the limits allow
// over the first records of the benchmark's database (the generator makes
// record i the same whatever the database's size).
func heavyQueries(records int) []string {
	g := gen.New(1)
	sample := make([]*record.Record, min(records, 50000))
	for i := range sample {
		sample[i] = g.Record(i)
	}
	words := gen.CommonWords(sample, query.MaxTextWords)
	names := strings.Join(words, " ")
	names += strings.Repeat(" ", max(0, query.MaxTextRunes-len(names)))
	q := func(path string, kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return path + "?" + v.Encode()
	}
	return []string{
		q("/v1/checkName", "names", names, "fuzzy_search", "2"),
		q("/v1/checkName", "search_all", strings.Join(words, " "), "fuzzy_search", "2"),
		q("/v1/checkName", "search_all", words[0], "fuzzy_search", "2"),
		q("/v1/checkIndividual", "names", words[0], "fuzzy_search", "2"),
	}
}

func dialBench(addr string) (net.Conn, *bufio.Reader, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	return c, bufio.NewReaderSize(c, 64<<10), nil
}

// roundTrip sends GET path on a keep-alive connection and reads the
// answer.
func roundTrip(c net.Conn, br *bufio.Reader, path string) (int, error) {
	req := "GET " + path + " HTTP/1.1\r\nHost: bench\r\nx-api-key: bench-key\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		return 0, err
	}
	status, _, err := readAnswer(br)
	return status, err
}

// oneRequest times one check on a new connection.
func oneRequest(addr, path string) (time.Duration, int, error) {
	c, br, err := dialBench(addr)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	t0 := time.Now()
	status, err := roundTrip(c, br, path)
	return time.Since(t0), status, err
}

// BenchmarkWorstLoad is issue 28's load test: worstClients keep-alive
// clients send, in turn, the most expensive request each endpoint allows
// (worstQueries: strict and scored checks of repeated and common words,
// a report of a common word at fuzzy 2, media search and check of a
// common word repeated 16 times at fuzzy 2) for AMLSCREEN_LOAD_SECONDS
// (default 20), while one client sends normal fuzzy-2 checks one after
// another. It reports the normal checks' p50 and p99 (the target is p99
// under 50 ms at 1,000,000 records) and how the worst requests were
// answered: 200, 503 (no admission slot came free in time) or 400 (over
// a work bound). Downloads are left out: a key's daily download limit
// bounds them, not admission.
//
//	AMLSCREEN_BENCH_RECORDS=100000 go test -run '^$' -bench WorstLoad -benchtime 1x -timeout 1h ./server
func BenchmarkWorstLoad(b *testing.B) {
	ts, n, normalQueries := worstServer(b)
	addr := strings.TrimPrefix(ts.URL, "http://")
	worst := worstQueries()
	for _, q := range worst {
		d, status, err := oneRequest(addr, q)
		if err != nil {
			b.Fatalf("%.60s: %v", q, err)
		}
		fmt.Fprintf(os.Stderr, "BenchmarkWorstLoad: %d records, alone %.70s… %d in %.1f ms\n", n, q, status, float64(d.Microseconds())/1000)
	}
	deadline := time.Now().Add(loadDuration())
	var ok, busy, refused, failed atomic.Int64
	var wg sync.WaitGroup
	for c := range worstClients {
		wg.Go(func() {
			conn, br, err := dialBench(addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer conn.Close()
			for i := c; time.Now().Before(deadline); i++ {
				status, err := roundTrip(conn, br, worst[i%len(worst)])
				switch {
				case err != nil:
					b.Error(err)
					return
				case status == http.StatusOK:
					ok.Add(1)
				case status == http.StatusServiceUnavailable:
					busy.Add(1)
				case status == http.StatusBadRequest:
					refused.Add(1)
				default:
					failed.Add(1)
				}
			}
		})
	}
	var normal []time.Duration
	var normalFailed int
	wg.Go(func() {
		normal, normalFailed = normalChecks(b, addr, deadline, func(i int) string {
			return "/v1/checkIndividual?fuzzy_search=2&" + normalQueries[i%len(normalQueries)]
		})
	})
	wg.Wait()
	reportNormal(b, normal)
	b.ReportMetric(float64(ok.Load()), "worst-200")
	b.ReportMetric(float64(busy.Load()), "worst-503")
	b.ReportMetric(float64(refused.Load()), "worst-400")
	if normalFailed > 0 || failed.Load() > 0 {
		b.Errorf("%d normal and %d worst requests failed", normalFailed, failed.Load())
	}
}

// worstClients is the number of clients sending the worst requests: two,
// as in issue 28.
const worstClients = 2

// worstQueries are the most expensive requests the limits allow, one or
// more per endpoint, as issue 28 found them.
func worstQueries() []string {
	rep := func(w string, n int) string { return strings.TrimSpace(strings.Repeat(w+" ", n)) }
	q := func(path string, kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return path + "?" + v.Encode()
	}
	out := heavyQueries(benchRecords())
	return append(out,
		q("/v1/checkName", "names", rep("al-al", 16), "match", "scored"),
		q("/v1/checkName", "names", rep("al", 32), "match", "scored"),
		q("/v1/checkEntity", "names", rep("al-company", 16), "match", "scored"),
		q("/v1/checkName", "search_all", rep("the", 32), "fuzzy_search", "2"),
		q("/v1/generateIndividualReport", "names", "al", "fuzzy_search", "2"),
		q("/v1/media/search", "search_all", rep("the", media.MaxQueryWords), "fuzzy_search", "2"),
		q("/v1/media/checkIndividual", "search_all", rep("the", media.MaxQueryWords), "fuzzy_search", "2", "fetch_articles", "true"),
	)
}

// worstServer serves benchRecords generated records, as serveBench does,
// with the media endpoints over the embedded sample corpus (about 4,000
// articles), and returns normal individual queries.
func worstServer(b *testing.B) (*httptest.Server, int, []string) {
	n := benchRecords()
	g := gen.New(1)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	db := screen.New(recs, nil, "bench")
	b.Cleanup(db.Close)
	var queries []string
	for _, q := range gen.Queries(recs, 4000, 2) {
		if q.EntityType == "individual" {
			queries = append(queries, url.Values{"names": {q.Names}}.Encode())
		}
	}
	corpus, err := media.Sample(media.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv, err := New(Config{DB: db, Keys: []*access.Key{{Key: "bench-key"}}, Endpoints: MediaEndpoints(corpus)})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	b.Cleanup(ts.Close)
	return ts, n, queries
}

// normalChecks sends the checks query makes, one after another on one
// connection, until deadline: the client whose latency the load
// benchmarks measure. It returns the latencies and how many checks were
// not answered 200.
func normalChecks(b *testing.B, addr string, deadline time.Time, query func(i int) string) (lat []time.Duration, failed int) {
	conn, br, err := dialBench(addr)
	if err != nil {
		b.Error(err)
		return nil, 0
	}
	defer conn.Close()
	for i := 0; time.Now().Before(deadline); i++ {
		t0 := time.Now()
		status, err := roundTrip(conn, br, query(i))
		if err != nil {
			b.Error(err)
			return lat, failed
		}
		lat = append(lat, time.Since(t0))
		if status != http.StatusOK {
			failed++
		}
	}
	return lat, failed
}

// reportNormal reports the normal checks' p50, p99 and rate.
func reportNormal(b *testing.B, normal []time.Duration) {
	if len(normal) == 0 {
		b.Fatal("no normal check was answered")
	}
	slices.Sort(normal)
	pct := func(p float64) float64 {
		return float64(normal[min(len(normal)-1, int(p*float64(len(normal))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "normal-p50-ms")
	b.ReportMetric(pct(0.99), "normal-p99-ms")
	b.ReportMetric(float64(len(normal))/loadDuration().Seconds(), "normal-req/s")
}
