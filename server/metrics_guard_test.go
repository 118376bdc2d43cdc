package server

import (
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/amlscreen/amlscreen/syncer"
)

// TestMetricsCountRefusedFullImports: a full import the store's guard
// refuses (here an empty file) shows in /metrics, so that an operator can
// alert on it.
func TestMetricsCountRefusedFullImports(t *testing.T) {
	f := newFixture(t)
	wantValue(t, f.scrape(), 0, "amlscreen_full_import_shrinks_total", "outcome", "refused")
	if _, err := syncer.ImportFile(f.st, strings.NewReader("\n"), "v-empty", nil); err == nil {
		t.Fatal("empty file imported")
	}
	fams := f.scrape()
	if fams["amlscreen_full_import_shrinks_total"].GetType() != dto.MetricType_COUNTER {
		t.Error("amlscreen_full_import_shrinks_total is not a counter")
	}
	wantValue(t, fams, 1, "amlscreen_full_import_shrinks_total", "outcome", "refused")
	wantValue(t, fams, 0, "amlscreen_full_import_shrinks_total", "outcome", "allowed")
}
