package server

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/amlscreen/amlscreen/monitor"
)

// This file is /metrics: the series are kept and written by
// prometheus/client_golang, in a registry of the server's own (not the
// global default), so servers can run side by side in one process. Go's
// runtime series come from runtime/metrics, without the stop-the-world of
// runtime.ReadMemStats, and the process series from /proc.
//
// The names are listed, with their meaning, in docs/OPERATIONS.md "Metrics"; the
// example dashboard in deploy/grafana uses exactly these.

// latencyBuckets are the upper bounds of the request duration histogram, in
// seconds: fine below 50 ms, where checks should answer, coarse above,
// where downloads and reports live.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// unmatched labels requests to paths no endpoint serves.
const unmatched = "unmatched"

// metrics are the server's series. Observing a request takes no lock of
// the server's: the client library's counters are atomic.
type metrics struct {
	reg     *prometheus.Registry
	handler http.Handler

	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	// byPath holds the series of each endpoint path, fixed at New and read
	// without a lock, so that a request finds its counter and histogram
	// without hashing label values.
	byPath map[string]*endpointSeries

	applies       prometheus.Counter
	applyFailures prometheus.Counter
	syncs         prometheus.Counter
	syncFailures  prometheus.Counter

	// Times in Unix seconds, written only once something happened.
	lastApply   atomic.Int64
	lastSyncOK  atomic.Int64
	lastSyncErr atomic.Int64
}

// endpointSeries are the series of one endpoint path, made on its first
// request: a series shows once its endpoint was asked.
type endpointSeries struct {
	path     string
	once     sync.Once
	duration prometheus.Observer
	codes    sync.Map // status code (int) -> prometheus.Counter
}

func newMetrics(s *Server, outbox func() (monitor.OutboxStats, error)) *metrics {
	m := &metrics{reg: prometheus.NewRegistry(), byPath: map[string]*endpointSeries{}}
	for p := range s.routes {
		m.byPath[p] = &endpointSeries{path: p}
	}
	m.byPath[unmatched] = &endpointSeries{path: unmatched}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "amlscreen_http_requests_total",
		Help: "Requests answered, by endpoint path and HTTP status code.",
	}, []string{"endpoint", "code"})
	m.durations = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "amlscreen_http_request_duration_seconds",
		Help:    "Time to answer a request, by endpoint path; downloads include sending the body.",
		Buckets: latencyBuckets,
	}, []string{"endpoint"})
	m.applies = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "amlscreen_applies_total",
		Help: "Change sets and imports swapped into the running index.",
	})
	m.applyFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "amlscreen_apply_failures_total",
		Help: "Change sets committed to the store but not swapped into the running index (the server answers from the previous version until restarted).",
	})
	m.syncs = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "amlscreen_syncs_total",
		Help: "Syncs from the upstream attempted.",
	})
	m.syncFailures = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "amlscreen_sync_failures_total",
		Help: "Syncs from the upstream that failed.",
	})
	m.reg.MustRegister(m.requests, m.durations, m.applies, m.applyFailures, m.syncs, m.syncFailures,
		&stateCollector{s: s, m: m, outbox: outbox},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return m
}

// observe counts one answered request.
func (m *metrics) observe(ep *Endpoint, status int, d time.Duration) {
	path := unmatched
	if ep != nil {
		path = ep.Path
	}
	if status < 100 || status >= 600 {
		status = 0 // a handler that wrote nothing; counted as code 0
	}
	es := m.byPath[path]
	c, ok := es.codes.Load(status)
	if !ok {
		c, _ = es.codes.LoadOrStore(status, m.requests.WithLabelValues(path, strconv.Itoa(status)))
	}
	c.(prometheus.Counter).Inc()
	es.once.Do(func() { es.duration = m.durations.WithLabelValues(path) })
	es.duration.Observe(d.Seconds())
}

func (m *metrics) applied(at time.Time, err error) {
	if err != nil {
		m.applyFailures.Inc()
		return
	}
	m.applies.Inc()
	m.lastApply.Store(at.Unix())
}

func (m *metrics) synced(at time.Time, err error) {
	m.syncs.Inc()
	if err != nil {
		m.syncFailures.Inc()
		m.lastSyncErr.Store(at.Unix())
		return
	}
	m.lastSyncOK.Store(at.Unix())
}

// stateCollector reads, at each scrape, what the server holds rather than
// counts: the index's size, the version answered from, readiness, the
// store's guard counters and the webhook outbox.
type stateCollector struct {
	s      *Server
	m      *metrics
	outbox func() (monitor.OutboxStats, error)
}

var (
	descIndexRecords = prometheus.NewDesc("amlscreen_index_records",
		"Records in the screening index.", nil, nil)
	descIndexTombstones = prometheus.NewDesc("amlscreen_index_tombstones",
		"Deleted or replaced records whose postings the index still holds.", nil, nil)
	descIndexTokens = prometheus.NewDesc("amlscreen_index_tokens",
		"Distinct tokens in the index dictionary.", nil, nil)
	descIndexBytes = prometheus.NewDesc("amlscreen_index_bytes",
		"Size of the screening index's segments (files beside the store, or memory for data files).", nil, nil)
	descIndexSegments = prometheus.NewDesc("amlscreen_index_segments",
		"Segments of the screening index; merges keep them few.", nil, nil)
	descVersion = prometheus.NewDesc("amlscreen_store_version_info",
		"The File-Version the server answers from, as a label.", []string{"version"}, nil)
	descVersionApplied = prometheus.NewDesc("amlscreen_store_version_applied_timestamp_seconds",
		"When the store reached its current version.", nil, nil)
	descStoreRecords = prometheus.NewDesc("amlscreen_store_records",
		"Records in the store at its current version.", nil, nil)
	descShrinks = prometheus.NewDesc("amlscreen_full_import_shrinks_total",
		"Full imports, change sets and merges that would empty the store or remove more than half of its records: refused, or allowed by --allow-shrink.", []string{"outcome"}, nil)
	descLastApply = prometheus.NewDesc("amlscreen_apply_last_success_timestamp_seconds",
		"When a change set or import was last swapped into the running index.", nil, nil)
	descLastSyncOK = prometheus.NewDesc("amlscreen_sync_last_success_timestamp_seconds",
		"When a sync from the upstream last succeeded.", nil, nil)
	descLastSyncErr = prometheus.NewDesc("amlscreen_sync_last_failure_timestamp_seconds",
		"When a sync from the upstream last failed.", nil, nil)
	descReady = prometheus.NewDesc("amlscreen_ready",
		"1 when /readyz answers 200.", nil, nil)
	descOutbox = prometheus.NewDesc("amlscreen_webhook_outbox_entries",
		"Monitoring notifications in the webhook outbox: queued (in flight and retrying included), retrying (failed at least once) and dead (given up).", []string{"state"}, nil)
	descOutboxAge = prometheus.NewDesc("amlscreen_webhook_outbox_oldest_age_seconds",
		"Age of the oldest queued notification; 0 when none is queued.", nil, nil)
)

// Describe sends the descriptions of every series Collect may send.
func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descIndexRecords, descIndexTombstones, descIndexTokens, descIndexBytes, descIndexSegments, descVersion,
		descVersionApplied, descStoreRecords, descShrinks, descLastApply, descLastSyncOK, descLastSyncErr,
		descReady, descOutbox, descOutboxAge} {
		ch <- d
	}
}

// Collect reads the state and sends it. Series of what the server does not
// have (a store, monitoring, a sync yet) are left out rather than sent as
// 0, and so are those whose read failed (logged).
func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	st := s.db.Index().Stats()
	gauge(descIndexRecords, float64(st.Records))
	gauge(descIndexTombstones, float64(st.Tombstones))
	gauge(descIndexTokens, float64(st.Tokens))
	gauge(descIndexBytes, float64(st.Bytes))
	gauge(descIndexSegments, float64(st.Segments))
	gauge(descVersion, 1, s.db.Version())
	ready := 0.0
	if s.Ready() {
		ready = 1
	}
	gauge(descReady, ready)
	for _, t := range []struct {
		d *prometheus.Desc
		v *atomic.Int64
	}{{descLastApply, &c.m.lastApply}, {descLastSyncOK, &c.m.lastSyncOK}, {descLastSyncErr, &c.m.lastSyncErr}} {
		if v := t.v.Load(); v > 0 {
			gauge(t.d, float64(v))
		}
	}
	if s.st != nil {
		if v, err := s.st.Version(); err != nil {
			s.log.Warn("metrics: read the store version", "error", err.Error())
		} else if !v.AppliedAt.IsZero() {
			gauge(descVersionApplied, float64(v.AppliedAt.Unix()))
			gauge(descStoreRecords, float64(v.Records))
		}
		g := s.st.GuardCounts()
		ch <- prometheus.MustNewConstMetric(descShrinks, prometheus.CounterValue, float64(g.Refused), "refused")
		ch <- prometheus.MustNewConstMetric(descShrinks, prometheus.CounterValue, float64(g.Allowed), "allowed")
	}
	if c.outbox != nil {
		ob, err := c.outbox()
		if err != nil {
			s.log.Warn("metrics: read the webhook outbox", "error", err.Error())
			return
		}
		gauge(descOutbox, float64(ob.Queued), "queued")
		gauge(descOutbox, float64(ob.Retrying), "retrying")
		gauge(descOutbox, float64(ob.Dead), "dead")
		age := 0.0
		if !ob.Oldest.IsZero() {
			age = max(s.now().Sub(ob.Oldest).Seconds(), 0)
		}
		gauge(descOutboxAge, age)
	}
}
