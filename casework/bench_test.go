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
