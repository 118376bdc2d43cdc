package screen

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// BenchmarkLoadAndDelta measures what a server does at start and after a
// sync: load the store into an index, then apply a 10,000-change delta to
// store and index; and what compacting the index costs.
// AMLSCREEN_BENCH_RECORDS sets the database size (100,000 by default; the
// README quotes 1,000,000).
func BenchmarkLoadAndDelta(b *testing.B) {
	n := 100000
	if v, err := strconv.Atoi(os.Getenv("AMLSCREEN_BENCH_RECORDS")); err == nil && v > 0 {
		n = v
	}
	g := gen.New(1)
	st, err := store.Open(filepath.Join(b.TempDir(), "s.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	i := 0
	if err := st.ReplaceAll("v0", func() (*record.Record, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return g.Record(i - 1), nil
	}, nil); err != nil {
		b.Fatal(err)
	}
	// The import above is set-up: a server loads at start, with nothing on
	// its heap, and a build raises the collector's target only then. Two
	// collections, since bbolt's page buffers sit in a sync.Pool, which
	// keeps them through one.
	runtime.GC()
	runtime.GC()
	for k := 0; b.Loop(); k++ {
		start := time.Now()
		// Not registered on the store (as Load does): one index per
		// iteration, applied to by hand below.
		d, err := open(st, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "load_s")

		var changes []record.Change
		for j := 0; j < 10000; j++ {
			switch j % 3 {
			case 0:
				changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *g.Record(n + k*10000 + j)})
			case 1:
				u := *g.Record(n + k*10000 + j)
				u.ID = g.Record(j).ID
				changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: u})
			default:
				changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: g.Record(j).ID}})
			}
		}
		prev := d.Version()
		start = time.Now()
		a, err := st.ApplyDelta(prev, prev+"+", changes, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Apply(st, a); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "delta10k_s")

		// What a compaction adds to the Apply that triggers it.
		start = time.Now()
		d.Index().Compact()
		b.ReportMetric(time.Since(start).Seconds(), "compact_s")
		d.Close()
	}
}
