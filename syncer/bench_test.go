package syncer

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/klauspost/compress/gzip"
)

// BenchmarkImportFile imports a generated gzip consolidated file, the
// whole path of `amlscreen import`: gunzip, JSON parsing, encoding, one
// store transaction. AMLSCREEN_BENCH_N sets the records (default 100,000);
// the README's figure uses 1,000,000:
//
//	AMLSCREEN_BENCH_N=1000000 go test ./syncer -run '^$' -bench ImportFile -benchtime 1x

func BenchmarkImportFile(b *testing.B) {
	n := 100_000
	if s := os.Getenv("AMLSCREEN_BENCH_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	dir := b.TempDir()
	file := filepath.Join(dir, "full.jsonl.gz")
	size := writeGenerated(b, file, n)
	b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			db, err := store.Open(filepath.Join(dir, fmt.Sprintf("s%d.db", i)), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			f, err := os.Open(file)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.StartTimer()
			if _, err := ImportFile(db, f, "v1", nil); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			f.Close()
			ss, _ := db.Size()
			db.Close()
			b.ReportMetric(float64(size)/float64(1<<20), "MiB-gzip-file")
			b.ReportMetric(float64(ss)/float64(1<<20), "MiB-store")
			b.StartTimer()
		}
	})
}

// writeGenerated writes n generated records as a gzip consolidated file
// and returns its size.
func writeGenerated(b *testing.B, path string, n int) int64 {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	w := bufio.NewWriter(zw)
	var buf []byte
	for i := range n {
		buf = append(genRecord(i).Append(buf[:0], record.WriteOptions{Case: record.Camel}), '\n')
		w.Write(buf)
	}
	w.Flush()
	zw.Close()
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}

var words = []string{"al", "ba", "chen", "da", "el", "fa", "gor", "ha", "ivan", "ko", "lev", "mo", "nur", "ol", "pet", "ra", "sa", "tan", "ul", "vo", "yan", "zor"}

func genWord(r *rand.Rand) string {
	s := words[r.IntN(len(words))] + words[r.IntN(len(words))]
	return string(s[0]-32) + s[1:]
}

// genRecord makes record i: names, a date of birth, an address and a
// remark of realistic lengths.
func genRecord(i int) *record.Record {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	rec := &record.Record{
		ID:         fmt.Sprintf("G%08d", i),
		SourceID:   fmt.Sprintf("src-%d", r.IntN(50)),
		SourceType: []string{"SANCTION", "PEP", "CRIMINAL", "OTHER"}[r.IntN(4)],
		EntityType: []string{"INDIVIDUAL", "INDIVIDUAL", "ENTITY", "VESSEL"}[r.IntN(4)],
		ListDate:   1_500_000_000_000 + r.Int64N(1e11),
		Address:    []string{fmt.Sprintf("%d %s Street, %s", r.IntN(300), genWord(r), genWord(r))},
	}
	if rec.EntityType == "INDIVIDUAL" {
		g, l := genWord(r), genWord(r)
		rec.Name, rec.GivenNames, rec.LastNames = g+" "+l, []string{g}, []string{l}
		rec.Gender = "MALE"
		rec.DateOfBirth = []string{fmt.Sprintf("%02d/%02d/%d", 1+r.IntN(28), 1+r.IntN(12), 1940+r.IntN(60))}
		rec.Citizenship = []string{"RU"}
	} else {
		rec.Name = genWord(r) + " " + genWord(r) + " LLC"
	}
	for range r.IntN(4) {
		rec.AliasNames = append(rec.AliasNames, genWord(r)+" "+genWord(r))
	}
	if r.IntN(2) == 0 {
		rec.OtherInformation = []string{"designated pursuant to executive order for acting on behalf of " + genWord(r)}
	}
	return rec
}
