package engine

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/bench/gen"
	"github.com/amlscreen/amlscreen/record"
)

// benchRecords is the database size of the benchmarks: 100,000 by default,
// AMLSCREEN_BENCH_RECORDS to change it (the README's figures use 1,000,000
// through `amlscreen bench speed`).
func benchRecords() int {
	if n, err := strconv.Atoi(os.Getenv("AMLSCREEN_BENCH_RECORDS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

var benchData struct {
	once    sync.Once
	recs    []*record.Record
	ix      *Index
	queries []gen.Query
}

func benchSetup(b *testing.B) {
	benchData.once.Do(func() {
		benchData.recs = generated(benchRecords(), 1)
		benchData.ix = NewIndex(benchData.recs)
		benchData.queries = gen.Queries(benchData.recs, 1000, 2)
	})
}

func BenchmarkSearch(b *testing.B) {
	benchSetup(b)
	for fuzzy := 0; fuzzy <= 2; fuzzy++ {
		b.Run(fmt.Sprintf("fuzzy%d", fuzzy), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				gq := benchData.queries[i%len(benchData.queries)]
				i++
				if _, err := benchData.ix.Search(Query{Names: gq.Names, Fuzzy: fuzzy, DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBrute is the reference the speed-ups are quoted against: the
// same queries through the brute-force matcher, over 10,000 records (it is
// linear in the database).
func BenchmarkBrute(b *testing.B) {
	benchSetup(b)
	br := NewBrute(benchData.recs[:min(10000, len(benchData.recs))])
	for fuzzy := 0; fuzzy <= 2; fuzzy += 2 {
		b.Run(fmt.Sprintf("fuzzy%d-10k", fuzzy), func(b *testing.B) {
			i := 0
			for b.Loop() {
				gq := benchData.queries[i%len(benchData.queries)]
				i++
				br.Search(Query{Names: gq.Names, Fuzzy: fuzzy})
			}
		})
	}
}

func BenchmarkBuild(b *testing.B) {
	recs := generated(min(benchRecords(), 100000), 3)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(recs)
	}
}

// BenchmarkApply10k applies a 10,000-change set (a third each ADD, UPDATE,
// DELETE) to an index.
func BenchmarkApply10k(b *testing.B) {
	benchSetup(b)
	g, n := gen.New(1), len(benchData.recs)
	extra := make([]*record.Record, 10000)
	for i := range extra {
		extra[i] = g.Record(n + i)
	}
	var changes []record.Change
	for i := 0; i < 10000; i++ {
		switch i % 3 {
		case 0:
			changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *extra[i]})
		case 1:
			u := *extra[i]
			u.ID = benchData.recs[i].ID
			changes = append(changes, record.Change{Type: record.ChangeUpdate, Record: u})
		default:
			changes = append(changes, record.Change{Type: record.ChangeDelete, Record: record.Record{ID: benchData.recs[i].ID}})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		ix := NewIndex(benchData.recs[:min(len(benchData.recs), 50000)])
		b.StartTimer()
		ix.Apply(changes)
	}
}
