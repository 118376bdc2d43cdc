package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
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
				if _, err := benchData.ix.Search(query.Query{Names: gq.Names, Fuzzy: fuzzy, DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship}); err != nil {
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
				br.Search(query.Query{Names: gq.Names, Fuzzy: fuzzy})
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

// worstQueries are the most expensive checks the limits allow: the
// commonest words of the database's individuals at fuzzy 2, 32 of them as
// names (padded with spaces to 512 characters) and as search_all, and
// fewer (words that rarely meet in one name stop a check early; one common
// word alone reaches the most records).
func worstQueries(recs []*record.Record) map[string]query.Query {
	words := gen.CommonWords(recs, query.MaxTextWords)
	names := strings.Join(words, " ")
	names += strings.Repeat(" ", max(0, query.MaxTextRunes-len(names)))
	return map[string]query.Query{
		"names-32-common-fuzzy2":      {Names: names, Fuzzy: 2},
		"names-8-common-fuzzy2":       {Names: strings.Join(words[:8], " "), Fuzzy: 2},
		"search_all-32-common-fuzzy2": {SearchAll: strings.Join(words, " "), Fuzzy: 2},
		"search_all-4-common-fuzzy2":  {SearchAll: strings.Join(words[:4], " "), Fuzzy: 2},
		"names-2-common-fuzzy2":       {Names: strings.Join(words[:2], " "), Fuzzy: 2},
		"names-1-common-fuzzy2":       {Names: words[0], Fuzzy: 2},
		"search_all-1-common-fuzzy2":  {SearchAll: words[0], Fuzzy: 2},
		"search_all-1-common-fuzzy0":  {SearchAll: words[0]},
		"names-32-same-fuzzy2":        {Names: strings.TrimSpace(strings.Repeat(words[0]+" ", query.MaxTextWords)), Fuzzy: 2},
	}
}

// BenchmarkWorstQuery times the worst checks the limits allow, one at a
// time with a free admission slot: what one request can cost.
//
//	AMLSCREEN_BENCH_RECORDS=1000000 go test -run '^$' -bench WorstQuery -benchtime 5x ./engine
func BenchmarkWorstQuery(b *testing.B) {
	benchSetup(b)
	for name, q := range worstQueries(benchData.recs) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var hits int
			for b.Loop() {
				res, err := benchData.ix.Search(q)
				if err != nil {
					b.Fatal(err)
				}
				hits = res.Total
			}
			b.ReportMetric(float64(hits), "hits")
		})
	}
}
