package server

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// latencyBuckets are the upper bounds of the request duration histogram, in
// seconds: fine below 50 ms, where checks should answer, coarse above,
// where downloads and reports live.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// unmatched labels requests to paths no endpoint serves.
const unmatched = "unmatched"

// metrics are the server's counters, kept with atomics so that observing a
// request takes no lock.
type metrics struct {
	byPath map[string]*endpointMetrics // fixed at New; read without a lock
	start  time.Time

	applies     atomic.Uint64
	lastApply   atomic.Int64 // unix seconds
	syncs       atomic.Uint64
	syncErrors  atomic.Uint64
	lastSyncOK  atomic.Int64 // unix seconds
	lastSyncErr atomic.Int64
}

type endpointMetrics struct {
	codes   [600]atomic.Uint64 // by status code
	buckets []atomic.Uint64    // not cumulative; one per latencyBuckets, plus +Inf
	count   atomic.Uint64
	sumNano atomic.Uint64
}

func newMetrics(routes map[string]*Endpoint) *metrics {
	m := &metrics{byPath: map[string]*endpointMetrics{}, start: time.Now()}
	for p := range routes {
		m.byPath[p] = &endpointMetrics{buckets: make([]atomic.Uint64, len(latencyBuckets)+1)}
	}
	m.byPath[unmatched] = &endpointMetrics{buckets: make([]atomic.Uint64, len(latencyBuckets)+1)}
	return m
}

// observe counts one answered request.
func (m *metrics) observe(ep *Endpoint, status int, d time.Duration) {
	path := unmatched
	if ep != nil {
		path = ep.Path
	}
	em := m.byPath[path]
	if status < 100 || status >= 600 {
		status = 0 // a handler that wrote nothing; counted as code 0
	}
	em.codes[status].Add(1)
	sec := d.Seconds()
	i, _ := slices.BinarySearch(latencyBuckets, sec)
	em.buckets[i].Add(1)
	em.count.Add(1)
	em.sumNano.Add(uint64(d.Nanoseconds()))
}

func (m *metrics) applied(at time.Time) {
	m.applies.Add(1)
	m.lastApply.Store(at.Unix())
}

func (m *metrics) synced(at time.Time, err error) {
	m.syncs.Add(1)
	if err != nil {
		m.syncErrors.Add(1)
		m.lastSyncErr.Store(at.Unix())
		return
	}
	m.lastSyncOK.Store(at.Unix())
}

// writeMetrics writes the Prometheus text exposition format (version
// 0.0.4) by hand: the format is a few lines of text, and a client library
// would be the server's largest dependency.
func (s *Server) writeMetrics(w io.Writer) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	m := s.metrics
	paths := slices.Sorted(maps.Keys(m.byPath))

	help(bw, "amlscreen_http_requests_total", "counter", "Requests answered, by endpoint path and HTTP status code.")
	for _, p := range paths {
		em := m.byPath[p]
		for code := range em.codes {
			if n := em.codes[code].Load(); n > 0 {
				fmt.Fprintf(bw, "amlscreen_http_requests_total{endpoint=%s,code=\"%d\"} %d\n", label(p), code, n)
			}
		}
	}
	help(bw, "amlscreen_http_request_duration_seconds", "histogram", "Time to answer a request, by endpoint path; downloads include sending the body.")
	for _, p := range paths {
		em := m.byPath[p]
		count := em.count.Load()
		if count == 0 {
			continue
		}
		var cum uint64
		for i, le := range latencyBuckets {
			cum += em.buckets[i].Load()
			fmt.Fprintf(bw, "amlscreen_http_request_duration_seconds_bucket{endpoint=%s,le=\"%s\"} %d\n", label(p), strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		cum += em.buckets[len(latencyBuckets)].Load()
		fmt.Fprintf(bw, "amlscreen_http_request_duration_seconds_bucket{endpoint=%s,le=\"+Inf\"} %d\n", label(p), cum)
		fmt.Fprintf(bw, "amlscreen_http_request_duration_seconds_sum{endpoint=%s} %g\n", label(p), float64(em.sumNano.Load())/1e9)
		fmt.Fprintf(bw, "amlscreen_http_request_duration_seconds_count{endpoint=%s} %d\n", label(p), cum)
	}

	st := s.db.Index().Stats()
	help(bw, "amlscreen_index_records", "gauge", "Records in the screening index.")
	fmt.Fprintf(bw, "amlscreen_index_records %d\n", st.Records)
	help(bw, "amlscreen_index_tombstones", "gauge", "Deleted or replaced records whose postings the index still holds.")
	fmt.Fprintf(bw, "amlscreen_index_tombstones %d\n", st.Tombstones)
	help(bw, "amlscreen_index_tokens", "gauge", "Distinct tokens in the index dictionary.")
	fmt.Fprintf(bw, "amlscreen_index_tokens %d\n", st.Tokens)
	help(bw, "amlscreen_store_version_info", "gauge", "The File-Version the server answers from, as a label.")
	fmt.Fprintf(bw, "amlscreen_store_version_info{version=%s} 1\n", label(s.db.Version()))
	if s.st != nil {
		if v, err := s.st.Version(); err == nil && !v.AppliedAt.IsZero() {
			help(bw, "amlscreen_store_version_applied_timestamp_seconds", "gauge", "When the store reached its current version.")
			fmt.Fprintf(bw, "amlscreen_store_version_applied_timestamp_seconds %d\n", v.AppliedAt.Unix())
			help(bw, "amlscreen_store_records", "gauge", "Records in the store at its current version.")
			fmt.Fprintf(bw, "amlscreen_store_records %d\n", v.Records)
		}
		g := s.st.GuardCounts()
		help(bw, "amlscreen_full_import_shrinks_total", "counter", "Full imports that would empty the store or remove more than half of its records: refused, or allowed by --allow-shrink.")
		fmt.Fprintf(bw, "amlscreen_full_import_shrinks_total{outcome=\"refused\"} %d\n", g.Refused)
		fmt.Fprintf(bw, "amlscreen_full_import_shrinks_total{outcome=\"allowed\"} %d\n", g.Allowed)
	}
	help(bw, "amlscreen_applies_total", "counter", "Change sets and imports swapped into the running index.")
	fmt.Fprintf(bw, "amlscreen_applies_total %d\n", m.applies.Load())
	help(bw, "amlscreen_syncs_total", "counter", "Syncs from the upstream attempted.")
	fmt.Fprintf(bw, "amlscreen_syncs_total %d\n", m.syncs.Load())
	help(bw, "amlscreen_sync_failures_total", "counter", "Syncs from the upstream that failed.")
	fmt.Fprintf(bw, "amlscreen_sync_failures_total %d\n", m.syncErrors.Load())
	if t := m.lastSyncOK.Load(); t > 0 {
		help(bw, "amlscreen_sync_last_success_timestamp_seconds", "gauge", "When a sync from the upstream last succeeded.")
		fmt.Fprintf(bw, "amlscreen_sync_last_success_timestamp_seconds %d\n", t)
	}
	ready := 0
	if s.Ready() {
		ready = 1
	}
	help(bw, "amlscreen_ready", "gauge", "1 when /readyz answers 200.")
	fmt.Fprintf(bw, "amlscreen_ready %d\n", ready)

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	help(bw, "go_goroutines", "gauge", "Goroutines that currently exist.")
	fmt.Fprintf(bw, "go_goroutines %d\n", runtime.NumGoroutine())
	help(bw, "go_memstats_heap_alloc_bytes", "gauge", "Bytes of allocated heap objects.")
	fmt.Fprintf(bw, "go_memstats_heap_alloc_bytes %d\n", ms.HeapAlloc)
	if rss := residentBytes(); rss > 0 {
		help(bw, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
		fmt.Fprintf(bw, "process_resident_memory_bytes %d\n", rss)
	}
	help(bw, "process_start_time_seconds", "gauge", "When the server started.")
	fmt.Fprintf(bw, "process_start_time_seconds %d\n", m.start.Unix())
}

func help(w io.Writer, name, typ, text string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, typ)
}

// label quotes a label value as the exposition format wants it.
func label(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(v) + `"`
}

// residentBytes reads the resident set size from /proc (Linux); 0
// elsewhere.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
