package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/amlscreen/amlscreen/internal/cputime"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
)

// scoredHitsTail are the slowest 2 % (20 of 1,000) of the fuzzy-2 checks
// of `amlscreen bench speed --records 1000000 --match scored --brute 0
// --queries 1000 --slowest 1000` (seed 1, the queries benchSetup draws),
// and scoredHitsMedian the 20 around its median: names, dob, gender and
// citizenship as generated.
var (
	scoredHitsTail = []query.Query{
		{Names: "ООО \"РУБИН\""},
		{Names: "Imperial Limited"},
		{Names: "Limited Liability Company Imperial"},
		{Names: "Al Noor Gold and Jewellery FZ-LLC"},
		{Names: "AL FURQAN TRAVEL AND TOURISM COMPÂNY"},
		{Names: "Al Rafidain Travel and Tourism Company"},
		{Names: "al-Barakat Travel Company Tourism and"},
		{Names: "Granit LLC"},
		{Names: "Abu Abd al-Karim"},
		{Names: "DNR"},
		{Names: "Imperial PLC"},
		{Names: "Royal Limited"},
		{Names: "AL REEM GEÑÉRAL TRADING GOLD AND JEWELLERY FZ-LLC", Citizenship: "ng"},
		{Names: "TOV RUBIN"},
		{Names: "Sharikiat al-Sham lil-Siyaha wal-Safar"},
		{Names: "AL MAKTOUM STAR SHIPPING GOLD AND JEWELLERY FZCO"},
		{Names: "Casa de Cambio Costa Azul Socienad de Responsabilidad Limitada de Capital Variable"},
		{Names: "so-called People's Republic"},
		{Names: "Meridian Ltd"},
		{Names: "LLC Ladoga"},
	}
	scoredHitsMedian = []query.Query{
		{Names: "Amit Kumar Thomas"},
		{Names: "Oaid al-Khatib", Gender: "male"},
		{Names: "Moustufa hKoury"},
		{Names: "Sven Raúl Zawadzki", Gender: "female"},
		{Names: "Alekseyev Sergey"},
		{Names: "Tmothy BENNET"},
		{Names: "EP-JLI"},
		{Names: "SUNNY FALCON 1"},
		{Names: "Ming Lin"},
		{Names: "Carlos João Sébastien Ahmadi"},
		{Names: "Francoie Faure", Citizenship: "FR"},
		{Names: "Booris Soloviev", DOB: "14/08/1978", Gender: "male"},
		{Names: "Oleg Cherkasov Yuryevich"},
		{Names: "Ceinedu NWACHVKWU", Gender: "female"},
		{Names: "ALEKSEY PAVLÓVICH GUSEV"},
		{Names: "Vesuvio Fiannziarria Srl"},
		{Names: "silverline industrial inç."},
		{Names: "Roberto Zieliński"},
		{Names: "BALTIC GROUP ÍNÇ."},
		{Names: "Vkaleriy Ivanofl", Gender: "male"},
	}
)

// benchScoredSet runs every check of qs at fuzzy 2 in scored mode per
// iteration; ns/check is the mean time of one check, and cpu-ns/check
// its CPU time on the benchmark's thread (Linux), which other jobs on a
// shared machine do not inflate.
func benchScoredSet(b *testing.B, qs []query.Query, cold bool) {
	benchSetup(b)
	benchData.ix.PrepareScored()
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, cpuOK := cputime.Thread()
	for b.Loop() {
		for _, q := range qs {
			if cold {
				forgetPartners(benchData.ix)
			}
			q.Fuzzy, q.Match = 2, query.Scored
			if _, err := benchData.ix.Search(q); err != nil {
				b.Fatal(err)
			}
		}
	}
	checks := float64(b.N * len(qs))
	if c1, ok := cputime.Thread(); cpuOK && ok {
		b.ReportMetric(float64((c1-c0).Nanoseconds())/checks, "cpu-ns/check")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/checks, "ns/check")
}

// forgetPartners empties the partner cache of ix's current view, as a
// check of words no check before asked about finds it.
func forgetPartners(ix *Index) {
	v := ix.acquire()
	defer v.release()
	v.pc.mu.Lock()
	v.pc.m, v.pc.splits, v.pc.size = nil, nil, 0
	v.pc.mu.Unlock()
}

// BenchmarkSearchScoredHits times the slowest 2 % of scored fuzzy-2
// checks (tail: hundreds to thousands of hits each) and 20 median ones
// over the benchmark's records; the lists were read off a million
// records (AMLSCREEN_BENCH_RECORDS=1000000). A repeated check finds its
// words' partners cached; median-cold empties that cache before each
// check, as bench speed's checks of words not asked about before find
// it.
func BenchmarkSearchScoredHits(b *testing.B) {
	b.Run("tail", func(b *testing.B) { benchScoredSet(b, scoredHitsTail, false) })
	b.Run("median", func(b *testing.B) { benchScoredSet(b, scoredHitsMedian, false) })
	b.Run("median-cold", func(b *testing.B) { benchScoredSet(b, scoredHitsMedian, true) })
}

// TestScoredAnswersWrite writes the answers of the 1,000 generated
// checks of `bench speed` (seed 1) at fuzzy 0, 1 and 2 in scored mode,
// every hit with its id, score, ranking and reason, to the file
// AMLSCREEN_SCORED_ANSWERS names, over AMLSCREEN_BENCH_RECORDS records:
// two builds' files compare equal when a change to the search changed
// no answer.
func TestScoredAnswersWrite(t *testing.T) {
	path := os.Getenv("AMLSCREEN_SCORED_ANSWERS")
	if path == "" {
		t.Skip("set AMLSCREEN_SCORED_ANSWERS to a file to write the scored answers to (AMLSCREEN_BENCH_RECORDS sets the database size)")
	}
	recs := generated(benchRecords(), 1)
	ix := NewIndex(recs)
	qs := gen.Queries(recs, 1000, 2)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for fuzzy := 0; fuzzy <= 2; fuzzy++ {
		for i, gq := range qs {
			q := query.Query{Names: gq.Names, Fuzzy: fuzzy, DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship, Match: query.Scored}
			res, err := ix.Search(q)
			if err != nil {
				fmt.Fprintf(w, "f%d q%d %q: error %v\n", fuzzy, i, q.Names, err)
				continue
			}
			fmt.Fprintf(w, "f%d q%d %q: %d hits\n", fuzzy, i, q.Names, res.Total)
			for _, h := range res.Hits {
				reason, err := json.Marshal(h.Reason)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(w, "  %s %v %v %d %d %s %s\n", h.ID, h.Score, h.Exact, h.Edits, h.Extra, h.Field, reason)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
