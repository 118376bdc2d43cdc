package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// dashboard is what the test reads of a Grafana dashboard: its panels (and
// the panels of collapsed rows) and template variables, whose queries are
// PromQL too.
type dashboard struct {
	Title      string  `json:"title"`
	UID        string  `json:"uid"`
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	ID      int    `json:"id"`
	Type    string `json:"type"`
	Title   string `json:"title"`
	Targets []struct {
		RefID string `json:"refId"`
		Expr  string `json:"expr"`
	} `json:"targets"`
	Panels []panel `json:"panels"`
}

// seriesName finds the names of series in PromQL: every name the
// dashboard may use starts with one of these prefixes, and label names and
// functions never do.
var seriesName = regexp.MustCompile(`\b(?:amlscreen|go|process)_[a-zA-Z0-9_]+`)

// TestGrafanaDashboard: every query of the example dashboard names only
// series that a real amlscreen serve exposes on /metrics (a replica that
// has synced and answered a check, so that the sync and request series
// exist), and the dashboard holds together (ids, titles, queries).
func TestGrafanaDashboard(t *testing.T) {
	t.Parallel() // serves over its own store and ports, like TestProbesAnsweredByServe
	raw, err := os.ReadFile("grafana/amlscreen.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("grafana/amlscreen.json: %v", err)
	}
	if d.Title == "" || d.UID == "" {
		t.Errorf("dashboard without title or uid")
	}
	queries := map[string]string{} // where -> PromQL
	ids := map[int]bool{}
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			if ids[p.ID] {
				t.Errorf("panel id %d twice", p.ID)
			}
			ids[p.ID] = true
			if p.Title == "" {
				t.Errorf("panel %d has no title", p.ID)
			}
			if p.Type != "row" && len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, q := range p.Targets {
				queries["panel "+p.Title+" "+q.RefID] = q.Expr
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if q, ok := v.Query.(string); ok && v.Type == "query" {
			queries["variable "+v.Name] = q
		}
	}
	if len(queries) < 10 {
		t.Fatalf("only %d queries in the dashboard", len(queries))
	}

	exposed := scrapeReplica(t)
	used := map[string]bool{}
	for where, q := range queries {
		names := seriesName.FindAllString(q, -1)
		if len(names) == 0 {
			t.Errorf("%s: %q names no series", where, q)
		}
		for _, n := range names {
			used[n] = true
			if !exposed[n] {
				t.Errorf("%s: %s is not a series /metrics exposes", where, n)
			}
		}
	}
	// The dashboard shows what an operator alerts on.
	for _, n := range []string{"amlscreen_ready", "amlscreen_http_request_duration_seconds_bucket", "amlscreen_sync_failures_total",
		"amlscreen_apply_failures_total", "amlscreen_webhook_outbox_oldest_age_seconds", "process_resident_memory_bytes"} {
		if !used[n] {
			t.Errorf("the dashboard does not show %s", n)
		}
	}
}

// scrapeReplica runs a primary amlscreen serve over the embedded sample and
// a replica syncing from it, asks the replica a check and returns the
// names of the series on its /metrics, parsed with the client library's
// parser; a histogram gives its _bucket, _sum and _count series, a summary
// its _sum and _count.
func scrapeReplica(t *testing.T) map[string]bool {
	t.Helper()
	bin := amlscreenBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "primary", "aml.db")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, sub := range []string{"primary", "replica"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.CommandContext(ctx, bin, "import", "--store", db, "../sampledata/default.jsonl.gz").CombinedOutput(); err != nil {
		t.Fatalf("import the sample: %v\n%s", err, out)
	}
	keys := filepath.Join(dir, "keys.json")
	const clientKey, replicaKey = "k_dashboard_client_0123", "k_dashboard_replica_0123"
	if err := os.WriteFile(keys, []byte(`[{"key":"`+clientKey+`"},{"key":"`+replicaKey+`","daily_download_limit":0}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	primary := serveAt(t, "--store", db, "--keys", keys)
	replica := serveAt(t, "--store", filepath.Join(dir, "replica", "aml.db"), "--keys", keys,
		"--upstream", primary, "--api-key", replicaKey)

	client := &http.Client{Timeout: 10 * time.Second}
	get := func(path string) (int, []byte) {
		req, _ := http.NewRequest(http.MethodGet, replica+path, nil)
		req.Header.Set("x-api-key", clientKey)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := get("/readyz"); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the replica did not sync within a minute")
		}
	}
	if code, body := get("/v1/checkName?names=ivan"); code != 200 {
		t.Fatalf("check on the replica: %d %s", code, body)
	}
	// The replica turns ready as soon as its index holds the synced
	// version, which its index's own change hook applies at the commit;
	// the sync loop records the apply in /metrics just after. Scrape until
	// it has.
	var code int
	var body []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, body = get("/metrics"); code == 200 && bytes.Contains(body, []byte("amlscreen_apply_last_success_timestamp_seconds")) {
			break
		}
		if code != 200 || time.Now().After(deadline) {
			break
		}
	}
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	names := map[string]bool{}
	for name, f := range fams {
		switch f.GetType() {
		case dto.MetricType_HISTOGRAM:
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				names[name+s] = true
			}
		case dto.MetricType_SUMMARY:
			names[name] = true
			names[name+"_sum"], names[name+"_count"] = true, true
		default:
			names[name] = true
		}
	}
	for _, must := range []string{"amlscreen_sync_last_success_timestamp_seconds", "amlscreen_apply_last_success_timestamp_seconds"} {
		if !names[must] {
			t.Errorf("the replica's /metrics lacks %s after a sync", must)
		}
	}
	if !slices.ContainsFunc(fams["amlscreen_http_requests_total"].GetMetric(), func(m *dto.Metric) bool {
		return slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool { return l.GetValue() == "/v1/checkName" })
	}) {
		t.Error("the check is not counted")
	}
	return names
}
