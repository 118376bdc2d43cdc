package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// scoredTailQueries are the slowest scored checks of `amlscreen bench
// speed --records 1000000 --match scored --queries 1000 --slowest 25`
// (seed 1), of each kind: company names of common words with thousands of
// hits or candidates, a name in Cyrillic compared in its script, a common
// name repeated.
var scoredTailQueries = []string{
	"Imperial Limited",
	"Royal Limited",
	"Meridian Ltd",
	"LLC Ladoga",
	`ООО "РУБИН"`,
	"Nasser Nasser",
	"DNR",
	"Al Rafidain Travel and Tourism Company",
	"Sharikiat al-Sham lil-Siyaha wal-Safar",
	"Abu Abd al-Karim",
}

// BenchmarkSearchScoredTail times the slow tail of scored checks at
// fuzzy 2 over the benchmark's records (AMLSCREEN_BENCH_RECORDS; the
// queries were read off a million records, where each takes 10-30 ms).
func BenchmarkSearchScoredTail(b *testing.B) {
	benchSetup(b)
	benchData.ix.PrepareScored()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		q := query.Query{Names: scoredTailQueries[i%len(scoredTailQueries)], Fuzzy: 2, Match: query.Scored}
		i++
		if _, err := benchData.ix.Search(q); err != nil {
			b.Fatal(err)
		}
	}
}
