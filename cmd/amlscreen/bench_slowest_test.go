package main

import (
	"strings"
	"testing"
)

// TestBenchSpeedSlowest: --slowest lists the slowest queries of each
// fuzzy level under the table, and a count outside 0..--queries is a
// usage error (exit 2) naming the flag.
func TestBenchSpeedSlowest(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "speed", "--records", "300", "--queries", "12", "--brute", "0", "--slowest", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"slowest exact:", "slowest fuzzy1:", "slowest fuzzy2:", "hits"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"-1", "13"} {
		code, _, errs := runCLI(t, "bench", "speed", "--records", "300", "--queries", "12", "--slowest", bad)
		if code != exitUsage || !strings.Contains(errs, "--slowest") {
			t.Errorf("--slowest %s: exit %d, %q; want %d naming --slowest", bad, code, errs, exitUsage)
		}
	}
}
