package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Flags of BenchmarkRun, so that the full-size measurement runs
// from the same code as the quick default:
//
//	go test ./batch -run '^$' -bench BenchmarkRun -benchtime 1x -timeout 2h \
//	    -batch.records 1000000 -batch.customers 1000000
var (
	benchRecords   = flag.Int("batch.records", 100000, "BenchmarkRun: generated records in the database")
	benchCustomers = flag.Int("batch.customers", 20000, "BenchmarkRun: customers in the book")
	benchListed    = flag.Float64("batch.listed", 0.02, "BenchmarkRun: share of customers named as a record is")
)

type benchSetup struct {
	recs []*record.Record
	ix   *engine.Index
}

// benchOnce generates the database and indexes it: minutes at a million
// records, so done once however many times the benchmark runs.
var benchOnce = sync.OnceValues(func() (*benchSetup, error) {
	recs := generateRecords(*benchRecords, 1)
	return &benchSetup{recs: recs, ix: engine.NewIndex(recs)}, nil
})

// generateRecords makes records 0..n-1 of seed on every core.
func generateRecords(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	recs := make([]*record.Record, n)
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for k := range w {
		wg.Go(func() {
			for i := k; i < n; i += w {
				recs[i] = g.Record(i)
			}
		})
	}
	wg.Wait()
	return recs
}

// writeBenchBook writes a book like a bank's: mostly people and companies
// with ordinary names that no record bears exactly (the generator's clean
// names, which still share words with many records), and a share named
// exactly as a listed record is.
func writeBenchBook(path string, recs []*record.Record, n int, listed float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := csv.NewWriter(bw)
	w.Write([]string{"customer_id", "name", "type", "dob", "citizenship"})
	r := rand.New(rand.NewPCG(3, 4))
	var clean []gen.Query
	for _, q := range gen.Queries(recs, max(1000, n/2), 5) {
		if q.Kind == gen.KindClean {
			clean = append(clean, q)
		}
	}
	for i := range n {
		id := "C" + strconv.Itoa(i)
		if r.Float64() < listed {
			rec := recs[r.IntN(len(recs))]
			w.Write([]string{id, rec.Name, checkOf(rec), "", ""})
			continue
		}
		q := clean[r.IntN(len(clean))]
		w.Write([]string{id, q.Names, q.EntityType, q.DOB, q.Citizenship})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// rssBytes reads the resident set size of this process.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, rss int64
	fmt.Sscan(string(bytes.TrimSpace(b)), &size, &rss)
	return rss * int64(os.Getpagesize())
}

// BenchmarkRun screens a generated book against a generated database,
// exact and at fuzzy 2, with every core, and reports rows per second, the
// process's CPU time per row, and the memory the run adds to that of the
// database: the resident set before the run, and its peak during the run,
// sampled every 20 ms.
func BenchmarkRun(b *testing.B) {
	s, err := benchOnce()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	book := filepath.Join(dir, "book.csv")
	if err := writeBenchBook(book, s.recs, *benchCustomers, *benchListed); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		fuzzy int
		match query.MatchMode
	}{{0, query.Strict}, {2, query.Strict}, {2, query.Scored}} {
		fuzzy := mode.fuzzy
		name := fmt.Sprintf("records=%d/customers=%d/fuzzy=%d", *benchRecords, *benchCustomers, fuzzy)
		if mode.match == query.Scored {
			name += "/scored"
		}
		b.Run(name, func(b *testing.B) {
			runtime.GC()
			before := rssBytes()
			var peak atomic.Int64
			done := make(chan struct{})
			go func() {
				t := time.NewTicker(20 * time.Millisecond)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case <-t.C:
						if r := rssBytes(); r > peak.Load() {
							peak.Store(r)
						}
					}
				}
			}()
			var rows, hits int64
			b.ResetTimer()
			start := time.Now()
			cpu0, cpuOK := processCPU()
			for i := 0; i < b.N; i++ {
				out := filepath.Join(dir, fmt.Sprintf("hits-f%d-%s.csv", fuzzy, mode.match))
				sum, err := Run(context.Background(), Config{Screener: Screener{Index: s.ix, Fuzzy: fuzzy, Match: mode.match}, Input: book, Out: out})
				if err != nil {
					b.Fatal(err)
				}
				rows += sum.RowsRead
				hits += sum.Hits
			}
			elapsed := time.Since(start)
			cpu1, cpuOK1 := processCPU()
			b.StopTimer()
			close(done)
			b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
			b.ReportMetric(float64(hits)/float64(rows), "hits/row")
			if cpuOK && cpuOK1 {
				// CPU time of the whole process (the collector too) per
				// row: on a machine other jobs load, rows/s measures the
				// share of the cores this run got, cpu-us/row what a row
				// costs; GOMAXPROCS·1e6 / cpu-us/row is the rows/s the
				// cores would give alone.
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(rows), "cpu-us/row")
			}
			b.ReportMetric(float64(before)/(1<<20), "MiB-rss-before")
			b.ReportMetric(float64(max(peak.Load(), before)-before)/(1<<20), "MiB-rss-added")
		})
	}
}
