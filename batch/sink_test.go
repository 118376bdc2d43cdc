package batch

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recordingSink keeps what a run hands it; flushed is how many hits were
// added before the last Flush.
type recordingSink struct {
	keys    []string
	flushed int
	flushes int
	failAt  int // Add fails once this many hits were taken; 0 never
}

func (s *recordingSink) Add(found []Found) error {
	for _, f := range found {
		for _, h := range f.Hits {
			if h.CustomerID != f.Row.ID || h.Line != f.Row.Line {
				return fmt.Errorf("hit %+v handed with row %+v", h, f.Row)
			}
			s.keys = append(s.keys, fmt.Sprintf("%d/%s", h.Line, h.RecordID))
		}
	}
	if s.failAt > 0 && len(s.keys) >= s.failAt {
		return errors.New("disk full")
	}
	return nil
}

func (s *recordingSink) Flush() error {
	s.flushed, s.flushes = len(s.keys), s.flushes+1
	return nil
}

// TestSinkGetsEveryKeptHit: the sink receives exactly the hits the hits
// file holds, in its order, without the suppressed ones, and everything
// is flushed before the run ends.
func TestSinkGetsEveryKeptHit(t *testing.T) {
	_, ix := mustSample(t)
	dir := t.TempDir()
	sink := &recordingSink{}
	out := filepath.Join(dir, "hits.csv")
	cfg := Config{Screener: Screener{Index: ix, Fuzzy: 1, Decide: firstSuppressed}, Input: "testdata/customers.csv", Out: out, Sink: sink, CheckpointEvery: 2}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	_, kept := hitKeys(t, out)
	if len(kept) == 0 || !slices.Equal(sink.keys, kept) {
		t.Fatalf("sink got %v\nthe hits file holds %v", sink.keys, kept)
	}
	if sink.flushed != len(sink.keys) || sink.flushes < 2 {
		t.Fatalf("%d flushes, the last after %d of %d hits", sink.flushes, sink.flushed, len(sink.keys))
	}

	// A sink that fails stops the run with its error.
	cfg.Out, cfg.Sink = filepath.Join(dir, "failing.csv"), &recordingSink{failAt: 1}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("run with a failing sink: %v", err)
	}
}
