// Package bench measures amlscreen: the speed of the index against the
// brute-force reference on generated or real data, and (elsewhere in this
// package) match quality. Its numbers are the ones the READMEs quote.
package bench

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// SpeedConfig says what to measure.
type SpeedConfig struct {
	Records int   // generated records (ignored when Data is set)
	Queries int   // queries per mode through the index
	Seed    int64 // generator seed
	// Brute is how many queries per mode also go through the brute-force
	// matcher, whose every query reads every record; the speed-up is the
	// ratio of the medians over those same queries.
	Brute int
	// Data, when set, is measured instead of generated records.
	Data []*record.Record
	// Progress, when set, is told what is being done.
	Progress func(string)
}

// ModeReport is the latency of one fuzzy level.
type ModeReport struct {
	Queries          int     `json:"queries"`
	P50Micros        float64 `json:"p50_us"`
	P99Micros        float64 `json:"p99_us"`
	QPS              float64 `json:"qps"`
	MeanHits         float64 `json:"mean_hits"`
	BruteQueries     int     `json:"bruteforce_queries"`
	BruteP50Micros   float64 `json:"bruteforce_p50_us"`
	IndexP50OfSample float64 `json:"index_p50_us_same_queries"`
	Speedup          float64 `json:"speedup_vs_bruteforce"`
}

// SpeedReport is what `amlscreen bench speed --json` prints.
type SpeedReport struct {
	Records      int     `json:"records"`
	Seed         int64   `json:"seed"`
	BuildSeconds float64 `json:"build_seconds"`
	// HeapBytesPerRecord is records plus index for generated data; with
	// Data the records were loaded before the measurement began, so it is
	// 0 and only IndexBytesPerRecord is known.
	HeapBytesPerRecord  float64    `json:"heap_bytes_per_record"`
	IndexBytesPerRecord float64    `json:"index_bytes_per_record"`
	Tokens              int        `json:"tokens"`
	NameStrings         int        `json:"name_strings"`
	Exact               ModeReport `json:"exact"`
	Fuzzy1              ModeReport `json:"fuzzy1"`
	Fuzzy2              ModeReport `json:"fuzzy2"`
	GOMAXPROCS          int        `json:"gomaxprocs"`
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Speed builds an index and measures it. Queries run one at a time, so
// latencies are per query and qps is that of one core.
func Speed(cfg SpeedConfig) (*SpeedReport, error) {
	say := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}
	base := heapNow()
	recs := cfg.Data
	if recs == nil {
		say("generating %d records (seed %d)", cfg.Records, cfg.Seed)
		recs = generate(cfg.Records, cfg.Seed)
	}
	withRecords := heapNow()
	say("building the index over %d records", len(recs))
	start := time.Now()
	ix := engine.NewIndex(recs)
	build := time.Since(start)
	withIndex := heapNow()
	st := ix.Stats()
	rep := &SpeedReport{
		Records:             len(recs),
		Seed:                cfg.Seed,
		BuildSeconds:        build.Seconds(),
		HeapBytesPerRecord:  float64(withIndex-base) / float64(max(1, len(recs))),
		IndexBytesPerRecord: float64(withIndex-withRecords) / float64(max(1, len(recs))),
		Tokens:              st.Tokens,
		NameStrings:         st.NameStrings,
		GOMAXPROCS:          runtime.GOMAXPROCS(0),
	}
	queries := gen.Queries(recs, cfg.Queries, cfg.Seed+1)
	brute := engine.NewBrute(recs)
	for fuzzy, m := range []*ModeReport{&rep.Exact, &rep.Fuzzy1, &rep.Fuzzy2} {
		say("fuzzy %d: %d queries through the index, %d through brute force", fuzzy, len(queries), cfg.Brute)
		if err := measureMode(m, ix, brute, queries, fuzzy, cfg.Brute); err != nil {
			return nil, err
		}
	}
	if cfg.Data != nil {
		rep.HeapBytesPerRecord = 0
	}
	runtime.KeepAlive(recs)
	return rep, nil
}

func generate(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
}

func toQuery(q gen.Query, fuzzy int) engine.Query {
	return engine.Query{Names: q.Names, Fuzzy: fuzzy, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship}
}

func measureMode(m *ModeReport, ix *engine.Index, brute *engine.Brute, queries []gen.Query, fuzzy, nBrute int) error {
	lat := make([]time.Duration, 0, len(queries))
	hits := 0
	start := time.Now()
	for _, gq := range queries {
		t := time.Now()
		res, err := ix.Search(toQuery(gq, fuzzy))
		if err != nil {
			return fmt.Errorf("query %q: %w", gq.Names, err)
		}
		lat = append(lat, time.Since(t))
		hits += res.Total
	}
	total := time.Since(start)
	m.Queries = len(queries)
	m.P50Micros = micros(percentile(lat, 0.50))
	m.P99Micros = micros(percentile(lat, 0.99))
	m.QPS = float64(len(queries)) / total.Seconds()
	m.MeanHits = float64(hits) / float64(max(1, len(queries)))

	// The speed-up compares medians over the same sample of queries.
	n := min(nBrute, len(queries))
	if n == 0 {
		return nil
	}
	step := len(queries) / n
	var bl, il []time.Duration
	for i := 0; i < n; i++ {
		q := toQuery(queries[i*step], fuzzy)
		t := time.Now()
		if _, err := brute.Search(q); err != nil {
			return err
		}
		bl = append(bl, time.Since(t))
		t = time.Now()
		if _, err := ix.Search(q); err != nil {
			return err
		}
		il = append(il, time.Since(t))
	}
	m.BruteQueries = n
	m.BruteP50Micros = micros(percentile(bl, 0.5))
	m.IndexP50OfSample = micros(percentile(il, 0.5))
	if m.IndexP50OfSample > 0 {
		m.Speedup = m.BruteP50Micros / m.IndexP50OfSample
	}
	return nil
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(p * float64(len(s)-1))
	return s[i]
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
