package book

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

var (
	benchCustomers = flag.Int("book.customers", 20000, "customers in the book benchmarks")
	benchRecords   = flag.Int("book.records", 100000, "records of the database in the book benchmarks")
)

// benchWorld is a generated database of -book.records records, an index of
// it (the serving index), and -book.customers customers derived from it
// (exact, reordered, partial, misspelt and clean names, some with
// filters).
type benchWorld struct {
	recs      []*record.Record
	db        *engine.Index
	customers []Customer
}

var (
	benchOnce sync.Once
	benchW    *benchWorld
)

func loadBench(b *testing.B) *benchWorld {
	benchOnce.Do(func() {
		start := time.Now()
		g := gen.New(7)
		w := &benchWorld{recs: make([]*record.Record, *benchRecords)}
		for i := range w.recs {
			w.recs[i] = g.Record(i)
		}
		w.db = screen.New(w.recs, gen.Sources(), "v1").Index()
		w.db.PrepareScored()
		for k, q := range gen.Queries(w.recs, *benchCustomers, 7) {
			w.customers = append(w.customers, Customer{ID: fmt.Sprintf("C%07d", k), Name: q.Names, Type: q.EntityType, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship})
		}
		benchW = w
		b.Logf("%d records indexed, %d customers generated in %v", len(w.recs), len(w.customers), time.Since(start).Round(time.Second))
	})
	return benchW
}

// heapPeak samples the live heap every 20 ms until stop is called and
// returns the most seen above base, in MiB.
func heapPeak(base uint64) (stop func() float64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak.Load()-min(base, peak.Load())) / (1 << 20)
	}
}

// heapNow collects garbage and returns the heap's spans in use, a span
// holding any live object counted whole, and the live bytes in them.
func heapNow() (inuse, live uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse, ms.HeapAlloc
}

// BenchmarkMatchChanged matches a change set of 10,000 and of 100 changed
// records (the first of the database, so that the serving index holds them
// as it will after the change set) against -book.customers customers over
// a database of -book.records records, strict fuzzy 1 and scored fuzzy 1,
// as the change hook of a long-running serve does: the customers' reverse
// index kept from an earlier change set (BenchmarkReverseBuild measures
// building it). MiB-peak is the most heap in use while matching beyond the
// database's index and the book's customers, garbage the collector has not
// yet reclaimed included (with GOGC=100 it may grow to the live heap, the
// database's index's size); MiB-kept is what the matcher keeps between
// change sets (the reverse index), after a collection: the spans in use,
// fragmentation included; MiB-kept-live counts only the live bytes.
func BenchmarkMatchChanged(b *testing.B) {
	w := loadBench(b)
	for _, cfg := range []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} {
		for _, changed := range []int{10_000, 100} {
			b.Run(fmt.Sprintf("%s/changed=%d", cfg.Match, changed), func(b *testing.B) {
				base, baseLive := heapNow()
				stop := heapPeak(base)
				m, err := newMatcher(w.customers, cfg)
				if err != nil {
					b.Fatal(err)
				}
				recs := w.recs[:min(changed, len(w.recs))]
				if _, err := m.match(recs[:1], nil, "v1", w.db); err != nil { // builds the reverse index
					b.Fatal(err)
				}
				runtime.GC() // the build's garbage, so that cpu-s/op is the match's
				b.ResetTimer()
				var n int
				cpu := cpuNow()
				for b.Loop() {
					res, err := m.match(recs, nil, "v1", w.db)
					if err != nil {
						b.Fatal(err)
					}
					n = len(res.Matches)
				}
				b.StopTimer()
				b.ReportMetric((cpuNow()-cpu).Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(n), "matches")
				b.ReportMetric(stop(), "MiB-peak")
				inuse, live := heapNow()
				b.ReportMetric(float64(inuse-min(base, inuse))/(1<<20), "MiB-kept")
				b.ReportMetric(float64(live-min(baseLive, live))/(1<<20), "MiB-kept-live")
				runtime.KeepAlive(m)
			})
		}
	}
}

// BenchmarkReverseBuild builds the customers' reverse index of each mode:
// once per book import in a long-running serve, at the first change set
// after it.
func BenchmarkReverseBuild(b *testing.B) {
	w := loadBench(b)
	b.Run("strict", func(b *testing.B) {
		cpu := cpuNow()
		for b.Loop() {
			newReverse(w.customers, 1)
		}
		b.ReportMetric((cpuNow()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("scored", func(b *testing.B) {
		sc, err := Config{Match: "scored", Fuzzy: 1}.Screener(nil)
		if err != nil {
			b.Fatal(err)
		}
		cpu := cpuNow()
		for b.Loop() {
			newScoredReverse(w.customers, sc)
		}
		b.ReportMetric((cpuNow()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	})
}

// BenchmarkImport imports -book.customers customers into an empty book.
func BenchmarkImport(b *testing.B) {
	g := gen.New(7)
	var recs []*record.Record
	for i := range 100_000 {
		recs = append(recs, g.Record(i))
	}
	var customers []Customer
	for k, q := range gen.Queries(recs, *benchCustomers, 7) {
		customers = append(customers, Customer{ID: fmt.Sprintf("C%07d", k), Name: q.Names, Type: q.EntityType, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship})
	}
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		db, err := store.Open(filepath.Join(b.TempDir(), "aml.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := cpuNow()
		if _, err := Import(db, customers, DefaultConfig, "bench", time.Now()); err != nil {
			b.Fatal(err)
		}
		cpu += cpuNow() - start
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
