package server

import (
	"bytes"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/store"
)

// scrape asks /metrics over loopback and parses the answer with the client
// library's text parser.
func (f *fixture) scrape() map[string]*dto.MetricFamily {
	f.t.Helper()
	a := f.get("", "/metrics")
	if a.StatusCode != 200 {
		f.t.Fatalf("/metrics: %d %s", a.StatusCode, a.body)
	}
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		f.t.Errorf("/metrics Content-Type %q", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(a.body))
	if err != nil {
		f.t.Fatalf("/metrics does not parse: %v\n%s", err, a.body)
	}
	return fams
}

// value returns the value of the sample of family name whose labels are
// the pairs given (others may be present), and whether there is one: a
// counter or gauge its value, a histogram its count.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	fam := fams[name]
	if fam == nil {
		return 0, false
	}
next:
	for _, m := range fam.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			if !slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool {
				return l.GetName() == labels[i] && l.GetValue() == labels[i+1]
			}) {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func wantValue(t *testing.T, fams map[string]*dto.MetricFamily, want float64, name string, labels ...string) {
	t.Helper()
	got, ok := value(fams, name, labels...)
	if !ok {
		t.Errorf("no %s%v in /metrics", name, labels)
	} else if got != want {
		t.Errorf("%s%v = %g, want %g", name, labels, got, want)
	}
}

// TestMetrics: requests, latency per endpoint, the index, syncs and
// applies, the outbox, and the Go and process collectors.
func TestMetrics(t *testing.T) {
	f := newFixture(t)
	// The outbox of the fixture's store, with one queued notification.
	mon := monitor.New(f.st, monitor.Options{Now: f.clock.Now})
	if _, err := mon.TestWebhook(access.KeyID(keyBasic), "p-1", access.Policy{}); err != nil {
		t.Fatal(err)
	}
	f.stop()
	f.start(func(c *Config) { c.Outbox = monitor.NewOutbox(f.st).Stats })

	f.get(keyBasic, "/v1/checkIndividual?names=putin")
	f.get(keyBasic, "/v1/checkIndividual?names=putin&fuzzy_search=9")
	f.get(keyBasic, "/nothing")
	f.srv.NoteSync(f.clock.Now(), nil)
	f.clock.Add(time.Minute)
	f.srv.NoteSync(f.clock.Now(), errors.New("upstream down"))
	f.applyDelta("delta1.jsonl", "v-metrics")
	f.clock.Add(time.Hour)

	f.db.WaitMerges() // the index's size after a merge the apply started
	fams := f.scrape()
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "/v1/checkIndividual", "code", "200")
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "/v1/checkIndividual", "code", "400")
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "unmatched", "code", "404")
	wantValue(t, fams, 2, "amlscreen_http_request_duration_seconds", "endpoint", "/v1/checkIndividual")
	if h := fams["amlscreen_http_request_duration_seconds"]; h == nil || h.GetType() != dto.MetricType_HISTOGRAM ||
		len(h.GetMetric()[0].GetHistogram().GetBucket()) != len(latencyBuckets)+1 { // and +Inf
		t.Errorf("request durations: %v", h)
	}
	if _, ok := value(fams, "amlscreen_http_request_duration_seconds", "endpoint", "/v1/checkEntity"); ok {
		t.Error("a histogram for an endpoint never asked")
	}
	wantValue(t, fams, 2, "amlscreen_syncs_total")
	wantValue(t, fams, 1, "amlscreen_sync_failures_total")
	wantValue(t, fams, float64(f.clock.Now().Add(-time.Hour-time.Minute).Unix()), "amlscreen_sync_last_success_timestamp_seconds")
	wantValue(t, fams, float64(f.clock.Now().Add(-time.Hour).Unix()), "amlscreen_sync_last_failure_timestamp_seconds")
	wantValue(t, fams, 1, "amlscreen_applies_total")
	wantValue(t, fams, 0, "amlscreen_apply_failures_total")
	wantValue(t, fams, float64(f.clock.Now().Add(-time.Hour).Unix()), "amlscreen_apply_last_success_timestamp_seconds")
	wantValue(t, fams, 1, "amlscreen_store_version_info", "version", "v-metrics")
	wantValue(t, fams, float64(f.db.Index().Stats().Records), "amlscreen_index_records")
	wantValue(t, fams, float64(f.db.Index().Stats().Bytes), "amlscreen_index_bytes")
	wantValue(t, fams, float64(f.db.Index().Stats().Segments), "amlscreen_index_segments")
	wantValue(t, fams, 1, "amlscreen_ready")
	// A test binary records no module version or revision: "unknown"
	// rather than no series.
	wantValue(t, fams, 1, "amlscreen_build_info", "goversion", runtime.Version())
	if bi := fams["amlscreen_build_info"]; bi == nil || len(bi.GetMetric()) != 1 || len(bi.GetMetric()[0].GetLabel()) != 3 {
		t.Errorf("amlscreen_build_info: %v", bi)
	}
	wantValue(t, fams, 1, "amlscreen_webhook_outbox_entries", "state", "queued")
	wantValue(t, fams, 0, "amlscreen_webhook_outbox_entries", "state", "dead")
	// Queued before the clock moved a minute and an hour.
	wantValue(t, fams, float64((time.Hour+time.Minute)/time.Second), "amlscreen_webhook_outbox_oldest_age_seconds")

	// The standard collectors: Go's runtime (from runtime/metrics) and,
	// where /proc is, the process.
	for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "go_gc_duration_seconds", "go_info"} {
		if fams[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	if runtime.GOOS == "linux" {
		for _, name := range []string{"process_resident_memory_bytes", "process_start_time_seconds", "process_cpu_seconds_total"} {
			if v, ok := value(fams, name); !ok || v <= 0 {
				t.Errorf("%s = %g, %v", name, v, ok)
			}
		}
	}
}

// TestMetricsPerServer: every server has its own registry, so two run side
// by side in one process and count their own requests.
func TestMetricsPerServer(t *testing.T) {
	a, b := newFixture(t), newFixture(t)
	a.get(keyBasic, "/v1/checkName?names=putin")
	a.get(keyBasic, "/v1/checkName?names=putin")
	b.get(keyBasic, "/v1/checkName?names=putin")
	wantValue(t, a.scrape(), 2, "amlscreen_http_requests_total", "endpoint", "/v1/checkName", "code", "200")
	wantValue(t, b.scrape(), 1, "amlscreen_http_requests_total", "endpoint", "/v1/checkName", "code", "200")
}

// TestMetricsApplyFailure: a change set the index cannot take is counted,
// and the last success stays absent.
func TestMetricsApplyFailure(t *testing.T) {
	f := newFixture(t)
	cur, err := f.st.Version()
	if err != nil {
		t.Fatal(err)
	}
	// A full import whose reload fails: the store is closed under it.
	if err := f.st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Apply(f.st, &store.Applied{Full: true, Version: cur.ID}); err == nil {
		t.Fatal("apply over a closed store succeeded")
	}
	fams := f.scrape()
	wantValue(t, fams, 1, "amlscreen_apply_failures_total")
	wantValue(t, fams, 0, "amlscreen_applies_total")
	if _, ok := value(fams, "amlscreen_apply_last_success_timestamp_seconds"); ok {
		t.Error("a last apply time without a successful apply")
	}
}

// BenchmarkObserve is what /metrics adds to every request: a counter and a
// histogram of the client library, found by their labels.
func BenchmarkObserve(b *testing.B) {
	f := newFixture(b)
	ep := f.srv.routes["/v1/checkIndividual"]
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			f.srv.metrics.observe(ep, 200, 150*time.Microsecond)
		}
	})
}
