package media_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"

	"github.com/amlscreen/amlscreen/internal/mediagen"
	"github.com/amlscreen/amlscreen/media"
)

// Benchmarks over a generated corpus. The target is 1,000,000
// articles (import ≤ 5 min, index ≤ 4 GiB on disk, media/checkIndividual
// p50 ≤ 20 ms); MEDIA_BENCH_ARTICLES sets the size, 100,000 by default:
//
//	go test ./media -run '^$' -bench . -benchtime 1x
//	MEDIA_BENCH_ARTICLES=1000000 go test ./media -run '^$' -bench . -benchtime 1x -timeout 60m

func benchSize() int {
	if n, err := strconv.Atoi(os.Getenv("MEDIA_BENCH_ARTICLES")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

var (
	genOnce  sync.Once
	genFile  []byte
	genNames []string
)

// generated returns the import file of the benchmark corpus, made once.
func generated(b *testing.B) ([]byte, []string) {
	genOnce.Do(func() {
		g, err := mediagen.New(7)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := g.Write(&buf, benchSize()); err != nil {
			b.Fatal(err)
		}
		genFile, genNames = buf.Bytes(), g.Names(200)
	})
	return genFile, genNames
}

func importInto(b *testing.B, path string, file []byte) *media.Corpus {
	db, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	c, err := media.Load(db, media.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Import(bytes.NewReader(file)); err != nil {
		b.Fatal(err)
	}
	return c
}

func BenchmarkImport(b *testing.B) {
	file, _ := generated(b)
	dir := b.TempDir()
	var size int64
	i := 0
	for b.Loop() {
		path := filepath.Join(dir, fmt.Sprintf("import%d.db", i))
		i++
		importInto(b, path, file)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		size = st.Size()
	}
	b.ReportMetric(float64(benchSize())*float64(b.N)/b.Elapsed().Seconds(), "articles/s")
	b.ReportMetric(float64(size)/(1<<20), "MiB-on-disk")
	b.ReportMetric(float64(len(file))/(1<<20), "MiB-input")
}

var (
	checkOnce   sync.Once
	checkCorpus *media.Corpus
	loadTime    time.Duration
	importTime  time.Duration
	diskSize    int64
	benchDir    string // removed by TestMain: benchmarks share the corpus
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// loaded imports the benchmark corpus into a store and loads it back, as a
// server does at start.
func loaded(b *testing.B) *media.Corpus {
	checkOnce.Do(func() {
		file, _ := generated(b)
		dir, err := os.MkdirTemp("", "mediabench")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		path := filepath.Join(dir, "corpus.db")
		db, err := store.Open(path, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		c, err := media.Load(db, media.Options{})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Import(bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
		importTime = time.Since(start)
		if st, err := os.Stat(path); err == nil {
			diskSize = st.Size()
		}
		start = time.Now()
		if checkCorpus, err = media.Load(db, media.Options{}); err != nil {
			b.Fatal(err)
		}
		loadTime = time.Since(start)
	})
	return checkCorpus
}

func benchCheck(b *testing.B, q func(name string) error) {
	c := loaded(b)
	_, names := generated(b)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := q(names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	slices.Sort(lat)
	ms := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(loadTime.Seconds(), "load-s")
	b.ReportMetric(importTime.Seconds(), "import-s")
	b.ReportMetric(float64(diskSize)/(1<<20), "MiB-on-disk")
	b.ReportMetric(float64(c.Len()), "articles")
}

func BenchmarkCheckIndividual(b *testing.B) {
	c := loaded(b)
	benchCheck(b, func(name string) error {
		_, err := c.Check(context.Background(), media.CheckQuery{Kind: query.Individual, Text: name})
		return err
	})
}

func BenchmarkCheckIndividualFetchArticles(b *testing.B) {
	c := loaded(b)
	benchCheck(b, func(name string) error {
		_, err := c.Check(context.Background(), media.CheckQuery{Kind: query.Individual, Text: name, FetchArticles: true})
		return err
	})
}

func BenchmarkCheckIndividualFuzzy2(b *testing.B) {
	c := loaded(b)
	benchCheck(b, func(name string) error {
		_, err := c.Check(context.Background(), media.CheckQuery{Kind: query.Individual, Text: name, Fuzzy: 2})
		return err
	})
}

func BenchmarkSearchFirstPage(b *testing.B) {
	c := loaded(b)
	benchCheck(b, func(name string) error {
		_, err := c.Search(context.Background(), media.SearchQuery{Text: name})
		return err
	})
}
