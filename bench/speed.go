// Package bench measures amlscreen: the speed of the index against the
// brute-force reference on generated or real data, and (elsewhere in this
// package) match quality. Its numbers are the ones the READMEs quote.
package bench

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/cputime"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
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
	// Index, when set, is measured instead of an index built here: the
	// persisted index of a store (bench speed --store), whose hits read
	// their records from the store. Data then holds the store's records,
	// for drawing queries and the brute-force comparison; Opened is how
	// long the index took to open.
	Index  *engine.Index
	Opened time.Duration
	// Match is the match mode the queries run in (query.Strict, the
	// default, or query.Scored), MinScore scored mode's threshold (0 for
	// its default).
	Match    query.MatchMode
	MinScore float64
	// Slowest, when above 0, lists that many of the slowest queries of
	// each fuzzy level (by CPU time where it is read, else wall-clock) in
	// the report: the tail to profile.
	Slowest int
	// Progress, when set, is told what is being done.
	Progress func(string)
}

// SlowQuery is one of the slowest queries of a fuzzy level.
type SlowQuery struct {
	Names       string  `json:"names"`
	Kind        string  `json:"kind"`
	DOB         string  `json:"dob,omitempty"`
	Gender      string  `json:"gender,omitempty"`
	Citizenship string  `json:"citizenship,omitempty"`
	Micros      float64 `json:"us"`
	CPUMicros   float64 `json:"cpu_us,omitempty"`
	Hits        int     `json:"hits"`
}

// ModeReport is the latency of one fuzzy level.
type ModeReport struct {
	Queries   int     `json:"queries"`
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	// CPUP50Micros and CPUP99Micros are the same percentiles of the CPU
	// time each query took (Linux only; 0 elsewhere): what a query costs
	// whatever else loads the machine.
	CPUP50Micros     float64 `json:"cpu_p50_us,omitempty"`
	CPUP99Micros     float64 `json:"cpu_p99_us,omitempty"`
	QPS              float64 `json:"qps"`
	MeanHits         float64 `json:"mean_hits"`
	BruteQueries     int     `json:"bruteforce_queries"`
	BruteP50Micros   float64 `json:"bruteforce_p50_us"`
	IndexP50OfSample float64 `json:"index_p50_us_same_queries"`
	Speedup          float64 `json:"speedup_vs_bruteforce"`
	// Slowest are the slowest queries, slowest first (SpeedConfig.Slowest).
	Slowest []SlowQuery `json:"slowest,omitempty"`
}

// SpeedReport is what `amlscreen bench speed --json` prints.
type SpeedReport struct {
	Records      int     `json:"records"`
	Seed         int64   `json:"seed"`
	Match        string  `json:"match"`
	BuildSeconds float64 `json:"build_seconds"`
	// HeapBytesPerRecord is records plus index for generated data; with
	// Data the records were loaded before the measurement began, so it is
	// 0 and only IndexBytesPerRecord is known.
	HeapBytesPerRecord  float64 `json:"heap_bytes_per_record"`
	IndexBytesPerRecord float64 `json:"index_bytes_per_record"`
	Tokens              int     `json:"tokens"`
	NameStrings         int     `json:"name_strings"`
	// ScoredPrepareSeconds is the time scored mode's word statistics and
	// key maps took to build (scored mode only).
	ScoredPrepareSeconds float64 `json:"scored_prepare_seconds,omitempty"`
	// ScoredBytesPerRecord is the heap that build added, per record.
	ScoredBytesPerRecord float64    `json:"scored_bytes_per_record,omitempty"`
	Exact                ModeReport `json:"exact"`
	Fuzzy1               ModeReport `json:"fuzzy1"`
	Fuzzy2               ModeReport `json:"fuzzy2"`
	GOMAXPROCS           int        `json:"gomaxprocs"`
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
	ix, build := cfg.Index, cfg.Opened
	if ix == nil {
		say("building the index over %d records", len(recs))
		start := time.Now()
		ix = engine.NewIndex(recs)
		build = time.Since(start)
	}
	withIndex := heapNow()
	st := ix.Stats()
	rep := &SpeedReport{
		Records:             len(recs),
		Seed:                cfg.Seed,
		Match:               cfg.Match.String(),
		BuildSeconds:        build.Seconds(),
		HeapBytesPerRecord:  float64(withIndex-base) / float64(max(1, len(recs))),
		IndexBytesPerRecord: float64(int64(withIndex)-int64(withRecords)) / float64(max(1, len(recs))),
		Tokens:              st.Tokens,
		NameStrings:         st.NameStrings,
		GOMAXPROCS:          runtime.GOMAXPROCS(0),
	}
	if cfg.Index != nil {
		// The segments lie in the mapped files, not in the heap.
		rep.IndexBytesPerRecord = float64(st.Bytes) / float64(max(1, len(recs)))
	}
	if cfg.Match == query.Scored {
		// What scored mode adds to the index is built on its first query;
		// a server builds it at start (Index.PrepareScored).
		start := time.Now()
		ix.PrepareScored()
		rep.ScoredPrepareSeconds = time.Since(start).Seconds()
		rep.ScoredBytesPerRecord = float64(int64(heapNow())-int64(withIndex)) / float64(max(1, len(recs)))
	}
	queries := gen.Queries(recs, cfg.Queries, cfg.Seed+1)
	modes := []*ModeReport{&rep.Exact, &rep.Fuzzy1, &rep.Fuzzy2}
	queryAt := func(fuzzy int) func(gen.Query) query.Query {
		return func(q gen.Query) query.Query {
			eq := toQuery(q, fuzzy)
			eq.Match, eq.MinScore = cfg.Match, cfg.MinScore
			return eq
		}
	}
	sample := querySample(queries, cfg.Brute)
	// The brute-force reference first: it needs every record in the
	// heap. An index over a store holds none, and neither do check and
	// serve; measured with them live, its latencies would pay for
	// collecting gigabytes those never hold.
	if len(sample) > 0 {
		say("brute force: %d queries per fuzzy level", len(sample))
		if err := measureBrute(modes, recs, sample, queryAt); err != nil {
			return nil, err
		}
	}
	if cfg.Index != nil {
		recs, cfg.Data = nil, nil
		runtime.GC()
	}
	for fuzzy, m := range modes {
		say("fuzzy %d: %d queries through the index", fuzzy, len(queries))
		if err := measureMode(m, ix, queries, queryAt(fuzzy), cfg.Slowest); err != nil {
			return nil, err
		}
		if len(sample) == 0 {
			continue
		}
		p50, err := medianLatency(ix.Search, sample, queryAt(fuzzy))
		if err != nil {
			return nil, err
		}
		m.IndexP50OfSample = micros(p50)
		if m.IndexP50OfSample > 0 {
			m.Speedup = m.BruteP50Micros / m.IndexP50OfSample
		}
	}
	if cfg.Data != nil {
		rep.HeapBytesPerRecord = 0
	}
	runtime.KeepAlive(recs)
	return rep, nil
}

// querySample returns n queries spread over queries (fewer when there
// are fewer): the speed-up compares medians over the same sample.
func querySample(queries []gen.Query, n int) []gen.Query {
	var sample []gen.Query
	if n = min(n, len(queries)); n > 0 {
		step := len(queries) / n
		for i := range n {
			sample = append(sample, queries[i*step])
		}
	}
	return sample
}

// measureBrute records in each mode (by fuzzy level) the median latency
// of the sample by brute force over recs.
func measureBrute(modes []*ModeReport, recs []*record.Record, sample []gen.Query, queryAt func(fuzzy int) func(gen.Query) query.Query) error {
	brute := engine.NewBrute(recs)
	for fuzzy, m := range modes {
		p50, err := medianLatency(brute.Search, sample, queryAt(fuzzy))
		if err != nil {
			return err
		}
		m.BruteQueries, m.BruteP50Micros = len(sample), micros(p50)
	}
	return nil
}

func generate(n int, seed int64) []*record.Record {
	g := gen.New(seed)
	recs := make([]*record.Record, n)
	for i := range recs {
		recs[i] = g.Record(i)
	}
	return recs
}

func toQuery(q gen.Query, fuzzy int) query.Query {
	return query.Query{Names: q.Names, Fuzzy: fuzzy, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship}
}

func measureMode(m *ModeReport, ix *engine.Index, queries []gen.Query, toQuery func(gen.Query) query.Query, slowest int) error {
	lat := make([]time.Duration, 0, len(queries))
	cpu := make([]time.Duration, 0, len(queries))
	total := make([]int, 0, len(queries))
	hits := 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	for _, gq := range queries {
		t := time.Now()
		c0, cpuOK := cputime.Thread()
		res, err := ix.Search(toQuery(gq))
		if err != nil {
			return fmt.Errorf("query %q: %w", gq.Names, err)
		}
		if c1, ok := cputime.Thread(); cpuOK && ok {
			cpu = append(cpu, c1-c0)
		}
		lat = append(lat, time.Since(t))
		total = append(total, res.Total)
		hits += res.Total
	}
	elapsed := time.Since(start)
	m.Queries = len(queries)
	m.P50Micros = micros(percentile(lat, 0.50))
	m.P99Micros = micros(percentile(lat, 0.99))
	m.CPUP50Micros = micros(percentile(cpu, 0.50))
	m.CPUP99Micros = micros(percentile(cpu, 0.99))
	m.QPS = float64(len(queries)) / elapsed.Seconds()
	m.MeanHits = float64(hits) / float64(max(1, len(queries)))
	m.Slowest = slowQueries(queries, lat, cpu, total, toQuery, slowest)
	return nil
}

// slowQueries returns the n slowest of queries, slowest first: by CPU
// time when every query has it, else by wall-clock.
func slowQueries(queries []gen.Query, lat, cpu []time.Duration, total []int, toQuery func(gen.Query) query.Query, n int) []SlowQuery {
	if n <= 0 {
		return nil
	}
	key := lat
	if len(cpu) == len(lat) {
		key = cpu
	}
	idx := make([]int, len(queries))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
	var out []SlowQuery
	for _, i := range idx[:min(n, len(idx))] {
		q := toQuery(queries[i])
		sq := SlowQuery{Names: q.Names, Kind: queries[i].Kind, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship,
			Micros: micros(lat[i]), Hits: total[i]}
		if len(cpu) == len(lat) {
			sq.CPUMicros = micros(cpu[i])
		}
		out = append(out, sq)
	}
	return out
}

// medianLatency runs the sample through search and returns the median
// latency.
func medianLatency(search func(query.Query) (*engine.Result, error), sample []gen.Query, toQuery func(gen.Query) query.Query) (time.Duration, error) {
	lat := make([]time.Duration, 0, len(sample))
	for _, gq := range sample {
		q := toQuery(gq)
		t := time.Now()
		if _, err := search(q); err != nil {
			return 0, fmt.Errorf("query %q: %w", gq.Names, err)
		}
		lat = append(lat, time.Since(t))
	}
	return percentile(lat, 0.5), nil
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
