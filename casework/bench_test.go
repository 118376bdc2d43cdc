package casework

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Flags of BenchmarkBatchAlerts, as those of batch's BenchmarkRun:
//
//	go test ./casework -run '^$' -bench BatchAlerts -benchtime 3x \
//	    -casework.records 100000 -casework.customers 100000
var (
	benchRecords   = flag.Int("casework.records", 100000, "BenchmarkBatchAlerts: generated records in the database")
	benchCustomers = flag.Int("casework.customers", 20000, "BenchmarkBatchAlerts: customers in the book")
	benchListed    = flag.Float64("casework.listed", 0.02, "BenchmarkBatchAlerts: share of customers named as a record is")
)

var benchIndex = sync.OnceValue(func() []*record.Record {
	g := gen.New(1)
	recs := make([]*record.Record, *benchRecords)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
})

// writeBook writes a book as batch's benchmark does: clean names that
// share words with many records, and a share named exactly as a record.
func writeBook(path string, recs []*record.Record, n int, listed float64) error {
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
			w.Write([]string{id, rec.Name, "any", "", ""})
			continue
		}
		q := clean[r.IntN(len(clean))]
		w.Write([]string{id, q.Names, q.EntityType, q.DOB, q.Citizenship})
	}
	w.Flush()
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBatchAlerts runs one book through batch.Run without and with
// the alert queue (a BatchSink on a real store, a fresh one each time so
// that every hit raises an alert) at fuzzy 1, alternating the two so that
// a busy machine weighs on both alike. It reports the rows per second of
// each, by wall time and by CPU time, and their ratios: the target is
// --alerts at 90 % or more of the rate without.
func BenchmarkBatchAlerts(b *testing.B) {
	recs := benchIndex()
	ix := engine.NewIndex(recs)
	dir := b.TempDir()
	book := filepath.Join(dir, "book.csv")
	if err := writeBook(book, recs, *benchCustomers, *benchListed); err != nil {
		b.Fatal(err)
	}
	var rows, raised [2]int64
	var wall, cpu [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range 2 {
			alerts := (i+k)%2 == 1
			cfg := batch.Config{Screener: batch.Screener{Index: ix, Fuzzy: 1}, Input: book, Out: filepath.Join(dir, "hits.csv")}
			var db *store.Store
			var sink *BatchSink
			if alerts {
				var err error
				if db, err = store.Open(filepath.Join(dir, fmt.Sprintf("aml-%d.db", i)), store.Options{}); err != nil {
					b.Fatal(err)
				}
				sink = New(db, Options{}).NewBatchSink(BatchOptions{Version: "v1", DefaultKind: "any", Record: ix.Get})
				cfg.Sink = sink
			}
			j := 0
			if alerts {
				j = 1
			}
			start, startCPU := time.Now(), cpuTime()
			sum, err := batch.Run(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			if sink != nil {
				res, err := sink.Close()
				if err != nil {
					b.Fatal(err)
				}
				raised[j] += int64(res.Raised)
			}
			wall[j] += time.Since(start)
			cpu[j] += cpuTime() - startCPU
			if db != nil {
				db.Close()
			}
			rows[j] += sum.RowsRead
		}
	}
	rate := func(j int, d time.Duration) float64 { return float64(rows[j]) / d.Seconds() }
	b.ReportMetric(rate(0, wall[0]), "rows/s-plain")
	b.ReportMetric(rate(1, wall[1]), "rows/s-alerts")
	b.ReportMetric(100*rate(1, wall[1])/rate(0, wall[0]), "%wall")
	b.ReportMetric(100*rate(1, cpu[1])/rate(0, cpu[0]), "%cpu")
	b.ReportMetric(float64(raised[1])/float64(b.N), "alerts/run")
}

// BenchmarkQueuePage fills a store with -casework.alerts alerts (a tenth
// closed, scored, three source types) and asks for pages of the queue as
// the workbench will: open alerts of one source type with a score of at
// least 0.85, sorted by score or by age, 50 a page at varying offsets. It
// reports the 95th percentile of a page's time; the target is
// 200 ms at 100,000 open alerts.
func BenchmarkQueuePage(b *testing.B) {
	c, _ := openTest(b)
	addUsers(b, c)
	n := *benchAlerts
	types := []string{"SANCTION", "PEP", "CRIMINAL"}
	hits := make([]NewAlert, 0, DefaultWriterBatch)
	for i := range n {
		h := hitOn(fmt.Sprintf("C-%d", i), testRecord(i, types[i%3]))
		score := 0.8 + float64(i*7919%200)/1000
		h.Hit.Score = &score
		hits = append(hits, h)
		if len(hits) == cap(hits) || i == n-1 {
			if _, err := c.Raise("batch", hits); err != nil {
				b.Fatal(err)
			}
			hits = hits[:0]
		}
	}
	ids := make([]uint64, 0, n/10)
	for i := 1; i <= n; i += 10 {
		ids = append(ids, uint64(i))
	}
	if err := c.Propose(User("ana"), ids, FalsePositive, "other person"); err != nil {
		b.Fatal(err)
	}
	if err := c.Approve(User("rev"), ids, ""); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		r := PageRequest{Filter: Filter{Status: Open, SourceType: types[i%3], MinScore: 0.85}, Sort: SortScore, Desc: true, Offset: 50 * (i % 20), Limit: 50}
		if i%2 == 1 {
			r.Sort, r.Desc = SortCreated, false
		}
		start := time.Now()
		page, total, err := c.Page(r)
		took = append(took, time.Since(start))
		if err != nil || len(page) != 50 || total < n/5 {
			b.Fatalf("page %d: %d alerts of %d, %v", i, len(page), total, err)
		}
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

var benchAlerts = flag.Int("casework.alerts", 100000, "BenchmarkListOpen: alerts in the store")

// BenchmarkRaise raises 20,000 alerts into a new store in transactions of
// each size, and reports the CPU time per alert: what --alerts costs the
// batch run beside the screening.
func BenchmarkRaise(b *testing.B) {
	const n = 20000
	hits := make([]NewAlert, n)
	for i := range hits {
		hits[i] = hitOn(fmt.Sprintf("C-%d", i*7919%n), testRecord(i, "SANCTION"))
	}
	for _, size := range []int{250, 500, 1000, 2000} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				c, db := openTest(b)
				b.StartTimer()
				start := cpuTime()
				w := c.NewWriter("batch", size)
				if err := w.Add(hits...); err != nil {
					b.Fatal(err)
				}
				if _, err := w.Close(); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - start
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*n), "cpu-µs/alert")
		})
	}
}
