package server

import (
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/syncer"
)

// TestMetricsCountRefusedFullImports: a full import the store's guard
// refuses (here an empty file) shows in /metrics, so that an operator can
// alert on it.
func TestMetricsCountRefusedFullImports(t *testing.T) {
	f := newFixture(t)
	m := string(f.get("", "/metrics").body)
	if !strings.Contains(m, `amlscreen_full_import_shrinks_total{outcome="refused"} 0`) {
		t.Fatalf("metrics lack the refusal counter at 0:\n%s", m)
	}
	if _, err := syncer.ImportFile(f.st, strings.NewReader("\n"), "v-empty", nil); err == nil {
		t.Fatal("empty file imported")
	}
	m = string(f.get("", "/metrics").body)
	for _, want := range []string{
		"# TYPE amlscreen_full_import_shrinks_total counter",
		`amlscreen_full_import_shrinks_total{outcome="refused"} 1`,
		`amlscreen_full_import_shrinks_total{outcome="allowed"} 0`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
