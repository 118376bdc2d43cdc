package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// Benchmarks run on generated records. AMLSCREEN_BENCH_N sets the size of
// the database (default 100,000); the README's figures use 1,000,000:
//
//	AMLSCREEN_BENCH_N=1000000 go test ./store -run '^$' -bench . -benchtime 1x

func benchN(b *testing.B) int {
	if s := os.Getenv("AMLSCREEN_BENCH_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("AMLSCREEN_BENCH_N: %v", err)
		}
		return n
	}
	return 100_000
}

// genFeed generates records [0, n) of seed one at a time, so that the
// benchmark's own data does not count in the import's memory.
func genFeed(seed int64, n int) func() (*record.Record, error) {
	i := 0
	return func() (*record.Record, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return genRecord(seed, i-1), nil
	}
}

// heapPeak samples the heap in use until stop is called, and returns the
// peak it saw.
func heapPeak() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
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
	}()
	return func() uint64 { close(done); <-finished; return peak.Load() }
}

func BenchmarkReplaceAll(b *testing.B) {
	n := benchN(b)
	b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			path := filepath.Join(b.TempDir(), "bench.db")
			db, err := Open(path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			stop := heapPeak()
			b.StartTimer()
			if err := db.ReplaceAll("v1", genFeed(1, n), nil); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			peak := stop()
			size, _ := db.Size()
			db.Close()
			b.ReportMetric(float64(size)/float64(1<<20), "MiB-store")
			b.ReportMetric(float64(size)/float64(n), "bytes/record")
			b.ReportMetric(float64(peak)/float64(1<<20), "MiB-heap-peak")
			b.StartTimer()
		}
	})
}

func BenchmarkForEachRecord(b *testing.B) {
	n := benchN(b)
	path := filepath.Join(b.TempDir(), "bench.db")
	db, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.ReplaceAll("v1", genFeed(1, n), nil); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
		for b.Loop() {
			seen := 0
			db.ForEachRecord(func(*record.Record) error { seen++; return nil })
			if seen != n {
				b.Fatalf("saw %d records", seen)
			}
		}
	})
}

// BenchmarkApplyDelta applies change sets of 10,000 changes (a third each
// of updates, additions and deletions) to a store of benchN records.
func BenchmarkApplyDelta(b *testing.B) {
	n := benchN(b)
	path := filepath.Join(b.TempDir(), "bench.db")
	db, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.ReplaceAll("v0", genFeed(1, n), nil); err != nil {
		b.Fatal(err)
	}
	const size = 10_000
	next := n
	b.Run("changes=10000", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			changes := make([]record.Change, 0, size)
			for j := range size {
				switch j % 3 {
				case 0:
					changes = append(changes, record.Change{Type: "UPDATE", Record: *genRecord(int64(100+i), (j*7919)%n)})
				case 1:
					changes = append(changes, record.Change{Type: "ADD", Record: *genRecord(1, next)})
					next++
				default:
					changes = append(changes, record.Change{Type: "DELETE", Record: record.Record{ID: genRecord(1, (j*104729+i)%n).ID}})
				}
			}
			b.StartTimer()
			if _, err := db.ApplyDelta(fmt.Sprintf("v%d", i), fmt.Sprintf("v%d", i+1), changes, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
