package engine

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// BenchmarkSearchScored is BenchmarkSearch in scored mode at the default
// threshold: the same records (AMLSCREEN_BENCH_RECORDS, 100,000 by
// default) and queries. What scored mode adds to the index is built before
// the timer starts, as a server builds it at start.
func BenchmarkSearchScored(b *testing.B) {
	benchSetup(b)
	benchData.ix.PrepareScored()
	for fuzzy := 0; fuzzy <= 2; fuzzy++ {
		b.Run(fmt.Sprintf("fuzzy%d", fuzzy), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				gq := benchData.queries[i%len(benchData.queries)]
				i++
				if _, err := benchData.ix.Search(query.Query{Names: gq.Names, Fuzzy: fuzzy, DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship, Match: query.Scored}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
