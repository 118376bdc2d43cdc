package engine

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestBuilderAcrossBatches builds an index from more records than fit in
// one batch, with ids repeated across batch boundaries (a later record
// replaces an earlier one, as in a file that lists a record twice), and
// checks it answers like the brute-force matcher over the records that
// remain.
func TestBuilderAcrossBatches(t *testing.T) {
	t.Parallel()
	// The records must span three batches; the batches are small and the
	// queries, each checked against the brute-force matcher over all of
	// them, few by default (AMLSCREEN_LONG_TESTS=1 runs the build's own
	// batch size and 150 queries).
	bs, nQueries := 500, 20
	if longTests() {
		bs, nQueries = buildBatchSize, 150
	}
	n := 2*bs + bs/8
	recs := generated(n, 17)
	// Three records of the first two batches reappear with the names of
	// later records: the first in the second batch, the others in the
	// third.
	early := []int{0, bs * 5 / 8, bs + bs/10}
	var dups []*record.Record
	for i, src := range []int{bs + 10, 2*bs + 20, 2*bs + 30} {
		r := *recs[src]
		r.ID = recs[early[i]].ID
		dups = append(dups, &r)
	}
	input := append(append(recs[:bs+bs/80:bs+bs/80], dups[0]), recs[bs+bs/80:]...)
	input = append(input, dups[1:]...)

	bl := NewBuilder(0)
	bl.batch = bs
	for _, r := range input {
		bl.Add(r)
	}
	ix := bl.Finish()

	final := make([]*record.Record, 0, n)
	replaced := map[string]*record.Record{}
	for _, d := range dups {
		replaced[d.ID] = d
	}
	for _, r := range recs {
		if d, ok := replaced[r.ID]; ok {
			r = d
		}
		final = append(final, r)
	}
	if ix.Len() != n {
		t.Fatalf("index has %d records, want %d", ix.Len(), n)
	}
	for _, d := range dups {
		if got := ix.Get(d.ID); got != d {
			t.Errorf("record %s: index holds %p, want the later copy %p", d.ID, got, d)
		}
	}
	agreesWithBrute(t, ix, final, nQueries, 3)
}

// TestBuildRestoresGCPercent: a build raises the collector's target and
// puts back the operator's value when the last overlapping build ends; a
// process with a large heap keeps its target.
func TestBuildRestoresGCPercent(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set in the environment: builds leave the collector alone")
	}
	saved := debug.SetGCPercent(123)
	defer debug.SetGCPercent(saved)
	current := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	end1 := raiseGCPercent()
	end2 := raiseGCPercent()
	if p := current(); p != buildGCPercent {
		t.Errorf("during builds: %d, want %d", p, buildGCPercent)
	}
	end1()
	if p := current(); p != buildGCPercent {
		t.Errorf("one build still running: %d, want %d", p, buildGCPercent)
	}
	end2()
	if p := current(); p != 123 {
		t.Errorf("after builds: %d, want 123", p)
	}
	NewIndex(generated(10, 1))
	if p := current(); p != 123 {
		t.Errorf("after NewIndex: %d, want 123", p)
	}

	// A process whose live heap is already large keeps its target.
	defer func(v uint64) { raiseBelowHeap = v }(raiseBelowHeap)
	raiseBelowHeap = 0
	end := raiseGCPercent()
	if p := current(); p != 123 {
		t.Errorf("with a large heap: %d, want 123", p)
	}
	end()
	if p := current(); p != 123 {
		t.Errorf("after a build with a large heap: %d, want 123", p)
	}
}
