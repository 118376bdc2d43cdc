package bench

import (
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// The query classes of the quality benchmark. The first eight measure
// recall (the record a query was made from must be among the hits); the
// last two measure false hits (names nobody on the list bears).
const (
	ClassLeaveOneOut = "leave_one_out" // an alias removed from the index, then searched for
	ClassTypo1       = "typo_1"        // one typing error in the primary name
	ClassTypo2       = "typo_2"        // two typing errors
	ClassReorder     = "reorder"       // the words of the name shuffled
	ClassDiacritics  = "diacritics"    // diacritics added (or stripped where present)
	ClassCyrillic    = "cyrillic"      // Latin names of Cyrillic-country records written in Cyrillic
	ClassLegalForm   = "legal_form"    // an entity's legal form spelled another way
	ClassMiddleName  = "middle_name"   // an individual's middle (or patronymic) name left out
	ClassFalsePerson = "false_person"  // common personal names not in the data
	ClassFalseEntity = "false_entity"  // plausible company names not in the data
	ClassFalseClean  = "false_clean"   // clean names given by the caller (QualityConfig.CleanNames)
)

// recallClasses and falseClasses fix the order of the table rows.
var (
	recallClasses = []string{ClassLeaveOneOut, ClassTypo1, ClassTypo2, ClassReorder,
		ClassDiacritics, ClassCyrillic, ClassLegalForm, ClassMiddleName}
	falseClasses = []string{ClassFalsePerson, ClassFalseEntity, ClassFalseClean}
)

// Defaults for the number of false-hit queries of each class: enough for
// a rate of 1 % to be told from 2 %, few enough to run in seconds.
const (
	DefaultFalsePersons  = 2400
	DefaultFalseEntities = 1200
)

// The matching modes the benchmark can measure.
const (
	// ModeStrict is the /v1 check (engine.Index.Search): every query word
	// must pair with a different word of one name string.
	ModeStrict = "strict"
	// ModeScored is engine's scored mode (Query.Match = query.Scored):
	// name strings scored by the evidence their words bring, kept from a
	// minimum score on.
	ModeScored = "scored"
	// ModeBoth measures strict then scored, on the same queries.
	ModeBoth = "both"
)

// QualityConfig says what to measure.
type QualityConfig struct {
	Records []*record.Record
	// Background records are indexed with Records but never probed: the
	// list measured, padded to the size of database it is to be read at
	// (Background, PadTo).
	Background []*record.Record
	// Mode is ModeStrict (the default when empty), ModeScored or ModeBoth.
	Mode string
	// MinScore is the scored mode's threshold; 0 means
	// query.DefaultMinScore.
	MinScore float64
	// Fuzzy lists the fuzzy levels to measure; nil means 0, 1 and 2.
	Fuzzy []int
	// Seed makes every random choice (which alias, which typo, which
	// generated name); the same seed and data give the same report.
	Seed int64
	// MaxQueries caps the queries of each class; 0 means every eligible
	// record, and the default number of false-hit queries.
	MaxQueries int
	// Workers is the number of searches run at once; 0 means GOMAXPROCS.
	Workers int
	// Sweep adds a threshold sweep to every scored level: the same queries
	// run once more at SweepFloor, and recall and false-hit rates are read
	// off the scores at every threshold of SweepThresholds.
	Sweep bool
	// CleanNames are names of people or companies known to be on no list
	// (a bank's cleared customers, say): each is a false_clean query, and
	// a hit is a false hit. Names that are word for word a name string of
	// the data are dropped, as for the generated classes.
	CleanNames []string
	// Progress, when set, is told what is being done.
	Progress func(string)
}

// SweepFloor is the threshold of the sweep runs: the least min score a
// sweep reports on.
const SweepFloor = 0.05

// SweepThresholds are the min scores a sweep reports: every 0.05, every
// 0.02 where defaults are chosen, and 0.97 and 0.99, where recall at a
// false-hit share of 0.1 % is read.
var SweepThresholds = []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65,
	0.7, 0.75, 0.8, 0.82, 0.84, 0.86, 0.88, 0.9, 0.95, 0.97, 0.99}

// SweepPoint is what scored mode measures at one threshold: recall of
// each recall class and false-hit rate of each false-hit class, and the
// false-hit rate of them pooled.
type SweepPoint struct {
	MinScore     float64            `json:"min_score"`
	Recall       map[string]float64 `json:"recall"`
	FalseHitRate map[string]float64 `json:"false_hit_rate"`
	FalseAll     float64            `json:"false_all"`
	// CleanAlerts is the clean customers alerted per 1,000 (see
	// QualityReport.CleanAlerts); 0 without clean names.
	CleanAlerts float64 `json:"clean_alerts_per_1000,omitempty"`
}

// GroupReport is one slice of a class: recall per entity type for the
// recall classes, false-hit rate per naming culture for false persons, per
// direction for diacritics and Cyrillic.
type GroupReport struct {
	Queries int     `json:"queries"`
	Rate    float64 `json:"rate"` // recall, or false-hit rate
}

// ClassReport is one row of the table: a query class at one fuzzy level.
// Recall classes fill Recall and MRR, false-hit classes FalseHitRate.
type ClassReport struct {
	Class   string `json:"class"`
	Queries int    `json:"queries"`
	// Found counts queries whose record was among the returned hits.
	Found  int      `json:"found,omitempty"`
	Recall *float64 `json:"recall,omitempty"`
	// MRR is the mean reciprocal rank of the record (0 where missing).
	MRR *float64 `json:"mrr,omitempty"`
	// WithHits counts false-hit queries that got any hit.
	WithHits     int      `json:"with_hits,omitempty"`
	FalseHitRate *float64 `json:"false_hit_rate,omitempty"`
	// MeanHits is the mean total_hits per query.
	MeanHits float64                 `json:"mean_hits"`
	Groups   map[string]*GroupReport `json:"groups,omitempty"`
}

// MissReport sorts the leave-one-out queries that missed their record by
// how close the removed alias is to the record's other names at that
// fuzzy level: how many misses a looser matcher could ever recover.
type MissReport struct {
	// NoSharedWord: no word of the alias pairs with any word of the
	// record's other names. No name matcher finds these.
	NoSharedWord int `json:"no_shared_word"`
	// SomeWords: some words pair, some do not; the all-words rule of the
	// /v1 semantics rejects them, a scored partial match need not.
	SomeWords int `json:"some_words"`
	// Split: every word pairs, but not all within one name string (or two
	// words need the same partner).
	Split int `json:"split"`
	// BeyondLimit: the record matches but ranked below the hit limit.
	BeyondLimit int `json:"beyond_limit"`
}

// LevelReport is everything measured at one fuzzy level in one mode.
type LevelReport struct {
	// Mode is ModeStrict or ModeScored.
	Mode string `json:"mode"`
	// MinScore is the scored mode's threshold (0 in strict mode).
	MinScore float64       `json:"min_score,omitempty"`
	Fuzzy    int           `json:"fuzzy"`
	Classes  []ClassReport `json:"classes"`
	// FalseHitRate and MeanFalseHits pool both false-hit classes; the plot
	// puts recall against this rate.
	FalseHitRate  float64     `json:"false_hit_rate"`
	MeanFalseHits float64     `json:"mean_false_hits"`
	Misses        *MissReport `json:"leave_one_out_misses,omitempty"`
	// Sweep is the threshold sweep of a scored level (QualityConfig.Sweep).
	Sweep []SweepPoint `json:"sweep,omitempty"`
}

// QualityReport is what `amlscreen bench quality --json` prints.
type QualityReport struct {
	// Records counts the database measured against, Background those of
	// them generated and never probed.
	Records    int `json:"records"`
	Background int `json:"background,omitempty"`
	// CleanNames counts the clean names given that are searchable, and
	// CleanListed those of them dropped as word for word a listed name:
	// such a customer is alerted in every mode at every threshold.
	CleanNames  int   `json:"clean_names,omitempty"`
	CleanListed int   `json:"clean_listed,omitempty"`
	Seed        int64 `json:"seed"`
	MaxQueries  int   `json:"max_queries"`
	// Duplicates counts leave-one-out probes whose alias is, word for
	// word, another name string of the record: found at every level.
	Duplicates int           `json:"leave_one_out_duplicates"`
	Levels     []LevelReport `json:"levels"`
}

// Class returns the row of class at this level, or nil.
func (l *LevelReport) Class(class string) *ClassReport {
	for i := range l.Classes {
		if l.Classes[i].Class == class {
			return &l.Classes[i]
		}
	}
	return nil
}

// probe is one query of the benchmark.
type probe struct {
	class string
	group string
	query string
	rec   *record.Record // the record that must be found; nil for false hits
	omit  int            // leave-one-out: the alias left out; -1 otherwise
}

// outcome is a probe's result at one fuzzy level.
type outcome struct {
	rank  int // 1-based rank of rec among the hits; 0 when absent
	total int
	// score is the score of rec's hit, or for a false-hit query that of
	// its best hit (scored mode; 0 when absent).
	score float64
}

// Quality runs the quality benchmark over cfg.Records. Building the
// index, making each class's queries and running them share the random
// source in an order the seed fixes.
func Quality(cfg QualityConfig) (*QualityReport, error) {
	say := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}
	levels, modes, runs, err := qualityRuns(cfg)
	if err != nil {
		return nil, err
	}
	if len(cfg.Records) == 0 {
		return nil, fmt.Errorf("no records to measure")
	}
	all := withBackground(cfg.Records, cfg.Background)
	if err := checkIDs(all); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	say("building the index over %d records", len(all))
	ix := engine.NewIndex(all)
	probes, cleanN, cleanListed, err := qualityProbes(cfg, ix, say)
	if err != nil {
		return nil, err
	}

	say("running %d queries at fuzzy %v, mode %v, on %d workers", len(probes), levels, modes, workers)
	results, err := runProbes(all, ix, probes, runs, workers)
	if err != nil {
		return nil, err
	}

	rep := &QualityReport{Records: len(all), Background: len(cfg.Background), Seed: cfg.Seed, MaxQueries: cfg.MaxQueries,
		CleanNames: cleanN, CleanListed: cleanListed}
	summariseRuns(rep, runs, probes, results)
	return rep, nil
}

// qualityRuns checks cfg's fuzzy levels, mode and minimum score and
// returns the runs they make: each mode at each level, then the scored
// sweeps.
func qualityRuns(cfg QualityConfig) (levels []int, modes []string, runs []run, err error) {
	levels = cfg.Fuzzy
	if levels == nil {
		levels = []int{0, 1, 2}
	}
	for _, f := range levels {
		if f < 0 || f > 2 {
			return nil, nil, nil, fmt.Errorf("fuzzy level %d is not 0, 1 or 2", f)
		}
	}
	switch cfg.Mode {
	case "", ModeStrict:
		modes = []string{ModeStrict}
	case ModeScored:
		modes = []string{ModeScored}
	case ModeBoth:
		modes = []string{ModeStrict, ModeScored}
	default:
		return nil, nil, nil, fmt.Errorf("mode %q is not %s, %s or %s", cfg.Mode, ModeStrict, ModeScored, ModeBoth)
	}
	minScore := cfg.MinScore
	if minScore == 0 {
		minScore = query.DefaultMinScore
	}
	if minScore < 0 || minScore > 1 {
		return nil, nil, nil, fmt.Errorf("min score %v is not in (0, 1]", cfg.MinScore)
	}
	for _, m := range modes {
		for _, f := range levels {
			r := run{mode: m, fuzzy: f}
			if m == ModeScored {
				r.minScore = minScore
			}
			runs = append(runs, r)
		}
	}
	if cfg.Sweep && slices.Contains(modes, ModeScored) {
		for _, f := range levels {
			runs = append(runs, run{mode: ModeScored, fuzzy: f, minScore: SweepFloor, sweep: true})
		}
	}
	return levels, modes, runs, nil
}

// qualityProbes makes the queries of every class: leave-one-out, each
// perturbation, and the false-hit queries ix must not find.
func qualityProbes(cfg QualityConfig, ix *engine.Index, say func(string, ...any)) (probes []probe, cleanN, cleanListed int, err error) {
	probes = append(probes, leaveOneOutProbes(cfg)...)
	variants := legalVariants()
	for _, p := range []struct {
		class string
		fn    perturbation
		group func(*record.Record) string
	}{
		{ClassTypo1, typo(1), entityGroup},
		{ClassTypo2, typo(2), entityGroup},
		{ClassReorder, reorder, entityGroup},
		{ClassDiacritics, diacritics, func(r *record.Record) string {
			if hasMarks(r.Name) {
				return "stripped"
			}
			return "added"
		}},
		{ClassCyrillic, cyrillic, func(r *record.Record) string {
			if hasCyrillic(r.Name) {
				return "to_latin"
			}
			return "to_cyrillic"
		}},
		{ClassLegalForm, legalForm(variants), entityGroup},
		{ClassMiddleName, middleName, entityGroup},
	} {
		probes = append(probes, perturbProbes(cfg, p.class, p.fn, p.group)...)
	}
	say("generating false-hit queries")
	fp, cleanN, cleanListed, err := falseProbes(cfg, ix)
	if err != nil {
		return nil, 0, 0, err
	}
	probes = append(probes, fp...)
	return probes, cleanN, cleanListed, nil
}

// summariseRuns adds to rep the duplicates among the probes and one level
// report per run, with its sweep when the run is scored.
func summariseRuns(rep *QualityReport, runs []run, probes []probe, results [][]outcome) {
	for _, p := range probes {
		if p.class == ClassLeaveOneOut && isDuplicate(p) {
			rep.Duplicates++
		}
	}
	for li, r := range runs {
		if r.sweep {
			continue
		}
		lr := summarise(r.fuzzy, li, probes, results)
		lr.Mode, lr.MinScore = r.mode, r.minScore
		for si, sr := range runs {
			if sr.sweep && sr.fuzzy == r.fuzzy && r.mode == ModeScored {
				lr.Sweep = sweep(si, probes, results)
				for k := range lr.Sweep {
					if rate, ok := lr.Sweep[k].FalseHitRate[ClassFalseClean]; ok {
						lr.Sweep[k].CleanAlerts = rep.CleanAlerts(rate)
					}
				}
			}
		}
		rep.Levels = append(rep.Levels, lr)
	}
}

// checkIDs refuses duplicate record ids: the index keeps the last record
// of an id, so a probe made from an earlier one could never be found.
func checkIDs(recs []*record.Record) error {
	seen := make(map[string]bool, len(recs))
	for _, r := range recs {
		if r.ID == "" {
			return fmt.Errorf("record without id")
		}
		if seen[r.ID] {
			return fmt.Errorf("record id %s appears twice", r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}

func entityGroup(r *record.Record) string {
	if r.EntityType == "" {
		return record.EntityUnknown
	}
	return r.EntityType
}

// rngFor returns the random source of one (class, key) pair: every choice
// made for a record depends on the seed and the record alone, never on
// the order of work.
func rngFor(seed int64, class, key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(class))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// sample keeps at most max of the candidates, chosen by seed, in their
// original order.
func sample[T any](items []T, max int, seed int64, class string) []T {
	if max <= 0 || len(items) <= max {
		return items
	}
	idx := rngFor(seed, class, "sample").Perm(len(items))[:max]
	slices.Sort(idx)
	out := make([]T, len(idx))
	for i, k := range idx {
		out[i] = items[k]
	}
	return out
}

// searchable reports whether s is a query the engine searches: it has a
// word that is not a legal form.
func searchable(s string) bool {
	for _, w := range normalize.LegalForms().Canonicalize(normalize.Tokenize(s).Words) {
		if !normalize.IsLegalForm(w) {
			return true
		}
	}
	return false
}

// leaveOneOutProbes picks, for every record with a searchable alias, one
// alias to leave out.
func leaveOneOutProbes(cfg QualityConfig) []probe {
	var out []probe
	for _, r := range cfg.Records {
		var ok []int
		for i, a := range r.AliasNames {
			if searchable(a) {
				ok = append(ok, i)
			}
		}
		if len(ok) == 0 {
			continue
		}
		i := ok[rngFor(cfg.Seed, ClassLeaveOneOut, r.ID).IntN(len(ok))]
		out = append(out, probe{class: ClassLeaveOneOut, group: entityGroup(r), query: r.AliasNames[i], rec: r, omit: i})
	}
	return sample(out, cfg.MaxQueries, cfg.Seed, ClassLeaveOneOut)
}

func perturbProbes(cfg QualityConfig, class string, fn perturbation, group func(*record.Record) string) []probe {
	var out []probe
	for _, r := range cfg.Records {
		q, ok := fn(rngFor(cfg.Seed, class, r.ID), r)
		if !ok || !searchable(q) {
			continue
		}
		out = append(out, probe{class: class, group: group(r), query: q, rec: r, omit: -1})
	}
	return sample(out, cfg.MaxQueries, cfg.Seed, class)
}

// falseProbes generates names nobody in the data bears: a candidate is
// dropped when some record has a name string of exactly its words, and a
// generated personal name also when it is a listed person's name with one
// word left out (lessOneWord). It also returns how many of the clean
// names given are searchable, and how many of those it dropped so.
func falseProbes(cfg QualityConfig, ix *engine.Index) (_ []probe, cleanN, cleanListed int, _ error) {
	nPersons, nEntities := DefaultFalsePersons, DefaultFalseEntities
	if cfg.MaxQueries > 0 {
		nPersons, nEntities = min(nPersons, cfg.MaxQueries), min(nEntities, cfg.MaxQueries)
	}
	exact := func(q string) (bool, error) {
		res, err := ix.Search(query.Query{Names: q, Limit: 1})
		if err != nil {
			return false, fmt.Errorf("false-hit query %q: %w", q, err)
		}
		return len(res.Hits) > 0 && res.Hits[0].Exact, nil
	}
	// listed also drops a generated name drawn before.
	seen := make(map[string]bool)
	listed := func(q string) (bool, error) {
		k := wordKey(q)
		if seen[k] {
			return true, nil
		}
		seen[k] = true
		return exact(q)
	}
	var out []probe
	r := rngFor(cfg.Seed, ClassFalsePerson, "")
	coin := func() bool { return r.IntN(2) == 0 }
	for i, tries := 0, 0; i < nPersons && tries < 50*nPersons; tries++ {
		c := &cultures[i%len(cultures)]
		q := c.pattern(func() string { return c.given[r.IntN(len(c.given))] },
			func() string { return c.surnames[r.IntN(len(c.surnames))] }, coin)
		bad, err := listed(q)
		if err == nil && !bad {
			bad, err = lessOneWord(ix, q)
		}
		if err != nil {
			return nil, 0, 0, err
		}
		if !bad {
			out = append(out, probe{class: ClassFalsePerson, group: c.key, query: q, omit: -1})
			i++
		}
	}
	r = rngFor(cfg.Seed, ClassFalseEntity, "")
	for i, tries := 0, 0; i < nEntities && tries < 50*nEntities; tries++ {
		q := companyHeads[r.IntN(len(companyHeads))]
		if r.IntN(10) < 3 {
			q += " " + companyHeads[r.IntN(len(companyHeads))]
		}
		q += " " + companyTrades[r.IntN(len(companyTrades))]
		group := "without_legal_form"
		if r.IntN(10) < 6 {
			q += " " + falseEntityForms[r.IntN(len(falseEntityForms))]
			group = "with_legal_form"
		}
		bad, err := listed(q)
		if err != nil {
			return nil, 0, 0, err
		}
		if !bad {
			out = append(out, probe{class: ClassFalseEntity, group: group, query: q, omit: -1})
			i++
		}
	}
	// A clean name is searched once, whatever was generated: only a
	// listed name counts as listed (CleanListed).
	var clean []probe
	cleanSeen := make(map[string]bool)
	for _, q := range cfg.CleanNames {
		if !searchable(q) || cleanSeen[wordKey(q)] {
			continue
		}
		cleanSeen[wordKey(q)] = true
		bad, err := exact(q)
		if err != nil {
			return nil, 0, 0, err
		}
		cleanN++
		if bad {
			cleanListed++
		} else {
			clean = append(clean, probe{class: ClassFalseClean, group: "given", query: q, omit: -1})
		}
	}
	return append(out, sample(clean, cfg.MaxQueries, cfg.Seed, ClassFalseClean)...), cleanN, cleanListed, nil
}

// lessOneWord reports whether q, of two words or more, is a listed
// person's name string with one word left out (Hamza Barakat against
// BARAKAT, Hamza Ahmad). Such a name is what the middle_name class
// searches for and counts found, so a generated one cannot also be a
// false hit. A clean name given is a customer someone cleared and keeps
// its label.
func lessOneWord(ix *engine.Index, q string) (bool, error) {
	if len(strings.Fields(q)) < 2 {
		return false, nil
	}
	res, err := ix.Search(query.Query{Kind: query.Individual, Names: q, Limit: 1})
	if err != nil {
		return false, fmt.Errorf("false-hit query %q: %w", q, err)
	}
	return len(res.Hits) > 0 && res.Hits[0].Extra == 1, nil
}

// wordKey identifies a query by its words in any order.
func wordKey(q string) string {
	w := slices.Clone(normalize.Tokenize(q).Words)
	slices.Sort(w)
	return strings.Join(w, " ")
}

// run is one way of answering the probes: a mode at a fuzzy level.
type run struct {
	mode     string
	fuzzy    int
	minScore float64 // scored mode only
	sweep    bool    // a sweep run: only its scores are read
}

// runProbes answers every probe in every run. Each worker owns an index:
// a leave-one-out probe updates its record without the alias, searches,
// and puts the record back, which must not be seen by other searches.
func runProbes(recs []*record.Record, first *engine.Index, probes []probe, runs []run, workers int) ([][]outcome, error) {
	results := make([][]outcome, len(probes))
	workers = max(1, min(workers, len(probes)))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		ix := first
		if w > 0 {
			ix = engine.NewIndex(recs)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(probes); i += workers {
				res, err := runProbe(ix, &probes[i], runs)
				if err != nil {
					errs[w] = err
					return
				}
				results[i] = res
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

func runProbe(ix *engine.Index, p *probe, runs []run) ([]outcome, error) {
	if p.omit >= 0 {
		without := *p.rec
		without.AliasNames = slices.Delete(slices.Clone(p.rec.AliasNames), p.omit, p.omit+1)
		ix.Apply([]record.Change{{Type: record.ChangeUpdate, Record: without}})
		defer ix.Apply([]record.Change{{Type: record.ChangeUpdate, Record: *p.rec}})
	}
	out := make([]outcome, len(runs))
	for li, r := range runs {
		var res *engine.Result
		var err error
		if r.mode == ModeScored {
			res, err = ix.Search(query.Query{Kind: query.Any, Names: p.query, Fuzzy: r.fuzzy, Match: query.Scored, MinScore: r.minScore})
		} else {
			res, err = ix.Search(query.Query{Kind: query.Any, Names: p.query, Fuzzy: r.fuzzy})
		}
		if refused(err) {
			if p.rec == nil {
				out[li].total, out[li].score = 1, 1 // alerted at every threshold
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s query %q: %w", p.class, p.query, err)
		}
		out[li].total = res.Total
		if p.rec != nil {
			for k, h := range res.Hits {
				if h.Record.ID == p.rec.ID {
					out[li].rank = k + 1
					out[li].score = h.Score
					break
				}
			}
		} else if len(res.Hits) > 0 {
			out[li].score = res.Hits[0].Score
		}
	}
	return out, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ptr(f float64) *float64 { return &f }

// summarise builds the report of level li (fuzzy f).
func summarise(f, li int, probes []probe, results [][]outcome) LevelReport {
	lr := LevelReport{Fuzzy: f}
	type acc struct {
		n, found, withHits, hits int
		rr                       float64
		groups                   map[string][2]int // queries, found or with hits
	}
	accs := make(map[string]*acc)
	var misses MissReport
	for i := range probes {
		p, o := &probes[i], results[i][li]
		a := accs[p.class]
		if a == nil {
			a = &acc{groups: make(map[string][2]int)}
			accs[p.class] = a
		}
		a.n++
		a.hits += o.total
		g := a.groups[p.group]
		g[0]++
		if p.rec != nil {
			if o.rank > 0 {
				a.found++
				a.rr += 1 / float64(o.rank)
				g[1]++
			} else if p.class == ClassLeaveOneOut {
				classifyMiss(&misses, p, f)
			}
		} else if o.total > 0 {
			a.withHits++
			g[1]++
		}
		a.groups[p.group] = g
	}
	var falseN, falseWith, falseHits int
	for _, class := range append(slices.Clone(recallClasses), falseClasses...) {
		a := accs[class]
		if a == nil && class == ClassFalseClean {
			continue // measured only when clean names are given
		}
		if a == nil {
			a = &acc{}
		}
		cr := ClassReport{Class: class, Queries: a.n, MeanHits: ratio(a.hits, a.n)}
		isFalse := slices.Contains(falseClasses, class)
		if isFalse {
			cr.WithHits = a.withHits
			cr.FalseHitRate = ptr(ratio(a.withHits, a.n))
			falseN += a.n
			falseWith += a.withHits
			falseHits += a.hits
		} else {
			cr.Found = a.found
			cr.Recall = ptr(ratio(a.found, a.n))
			cr.MRR = ptr(0)
			if a.n > 0 {
				*cr.MRR = a.rr / float64(a.n)
			}
		}
		if len(a.groups) > 1 || isFalse && len(a.groups) > 0 {
			cr.Groups = make(map[string]*GroupReport, len(a.groups))
			for k, g := range a.groups {
				cr.Groups[k] = &GroupReport{Queries: g[0], Rate: ratio(g[1], g[0])}
			}
		}
		lr.Classes = append(lr.Classes, cr)
	}
	lr.FalseHitRate = ratio(falseWith, falseN)
	lr.MeanFalseHits = ratio(falseHits, falseN)
	if accs[ClassLeaveOneOut] != nil {
		lr.Misses = &misses
	}
	return lr
}

// sweep reads recall and false-hit rates at every threshold off the
// scores of sweep run li. A recall probe counts at threshold t when its
// record scored t or more; its rank cannot change with t, since the hits
// above it scored more.
func sweep(li int, probes []probe, results [][]outcome) []SweepPoint {
	var out []SweepPoint
	for _, t := range SweepThresholds {
		pt := SweepPoint{MinScore: t, Recall: map[string]float64{}, FalseHitRate: map[string]float64{}}
		n := map[string]int{}
		hit := map[string]int{}
		falseN, falseHit := 0, 0
		for i := range probes {
			p, o := &probes[i], results[i][li]
			n[p.class]++
			if o.rank > 0 && o.score >= t || p.rec == nil && o.total > 0 && o.score >= t {
				hit[p.class]++
			}
			if p.rec == nil {
				falseN++
				if o.total > 0 && o.score >= t {
					falseHit++
				}
			}
		}
		for class, k := range n {
			if slices.Contains(falseClasses, class) {
				pt.FalseHitRate[class] = ratio(hit[class], k)
			} else {
				pt.Recall[class] = ratio(hit[class], k)
			}
		}
		pt.FalseAll = ratio(falseHit, falseN)
		out = append(out, pt)
	}
	return out
}

// nameTokens returns the token lists of the record's name strings, as the
// index holds them, and the base words of each.
func nameTokens(rec *record.Record) (all, base [][]string) {
	legal := rec.EntityType != record.EntityIndividual
	for _, ns := range engine.NameStrings(rec) {
		n := normalize.RecordName(ns.Text, legal)
		if len(n.Tokens) == 0 {
			continue
		}
		all = append(all, n.Tokens)
		base = append(base, n.Tokens[:n.Base])
	}
	return all, base
}

// without returns rec as the leave-one-out probe indexes it.
func (p *probe) without() *record.Record {
	w := *p.rec
	w.AliasNames = slices.Delete(slices.Clone(p.rec.AliasNames), p.omit, p.omit+1)
	return &w
}

func (p *probe) queryVariants() [][]string {
	return normalize.QueryVariants(p.query, p.rec.EntityType != record.EntityIndividual)
}

// isDuplicate reports whether the left-out alias has exactly the words of
// one of the record's other name strings.
func isDuplicate(p probe) bool {
	_, base := nameTokens(p.without())
	for _, v := range p.queryVariants() {
		for _, b := range base {
			if sameWordSet(v, b) {
				return true
			}
		}
	}
	return false
}

func sameWordSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// pairs applies the token rule of docs/MATCHING.md "Name matching" at fuzzy level f.
func pairs(f int, q, t string) bool {
	if q == t {
		return true
	}
	if f == 0 || normalize.IsLegalForm(q) || normalize.IsLegalForm(t) {
		return false
	}
	n := min(utf8.RuneCountInString(q), utf8.RuneCountInString(t))
	k := min(f, lengthCap(n))
	if k == 0 || abs(len([]rune(q))-len([]rune(t))) > k {
		return false
	}
	return dict.EditDistance(q, t) <= k
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fullPairing reports whether every query token pairs with a different
// token of name (bipartite matching by augmenting paths).
func fullPairing(f int, q, name []string) bool {
	owner := make([]int, len(name))
	for i := range owner {
		owner[i] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j, t := range name {
			if seen[j] || !pairs(f, q[i], t) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for i := range q {
		if !try(i, make([]bool, len(name))) {
			return false
		}
	}
	return true
}

// classifyMiss files a leave-one-out miss at fuzzy f under the closest
// relation between the alias and the record's remaining names.
func classifyMiss(m *MissReport, p *probe, f int) {
	names, _ := nameTokens(p.without())
	best := -1 // most query words with a partner, over the variants
	whole := true
	for _, v := range p.queryVariants() {
		for _, n := range names {
			if fullPairing(f, v, n) {
				m.BeyondLimit++
				return
			}
		}
		paired := 0
		for _, q := range v {
			for _, n := range names {
				if slices.ContainsFunc(n, func(t string) bool { return pairs(f, q, t) }) {
					paired++
					break
				}
			}
		}
		if paired > best {
			best, whole = paired, paired == len(v)
		}
	}
	switch {
	case best <= 0:
		m.NoSharedWord++
	case whole:
		m.Split++
	default:
		m.SomeWords++
	}
}

// WriteTable prints the report as a table, one row per fuzzy level and
// class, then the leave-one-out misses explained.
func (rep *QualityReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "records %d, seed %d", rep.Records, rep.Seed)
	if rep.MaxQueries > 0 {
		fmt.Fprintf(w, ", at most %d queries per class", rep.MaxQueries)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tfuzzy\tclass\tqueries\trecall\tMRR\tfalse-hit rate\tmean hits\t")
	num := func(f *float64) string {
		if f == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *f)
	}
	for _, l := range rep.Levels {
		mode := l.modeLabel()
		for _, c := range l.Classes {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t%s\t%.2f\t\n", mode, l.Fuzzy, c.Class, c.Queries,
				num(c.Recall), num(c.MRR), num(c.FalseHitRate), c.MeanHits)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t-\t-\t%.3f\t%.2f\t\n", mode, l.Fuzzy, "false_all", falseQueries(l),
			l.FalseHitRate, l.MeanFalseHits)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range rep.Levels {
		if len(l.Sweep) > 0 {
			fmt.Fprintf(w, "\n%s at fuzzy %d, threshold sweep:\n", l.Mode, l.Fuzzy)
			if err := writeSweep(w, l.Sweep); err != nil {
				return err
			}
		}
	}
	for _, l := range rep.Levels {
		if c := l.Class(ClassFalseClean); c != nil && c.FalseHitRate != nil {
			// Alerts per 1,000 is what a screening team staffs for; it
			// grows with the list, so the list's size goes with it.
			fmt.Fprintf(w, "\nfalse_clean, %s at fuzzy %d: %.1f alerts per 1,000 clean names against %d records",
				l.modeLabel(), l.Fuzzy, 1000**c.FalseHitRate, rep.Records)
			if rep.CleanListed > 0 {
				fmt.Fprintf(w, "; %.1f per 1,000 customers, counting the %d of %d that are a listed name word for word",
					rep.CleanAlerts(*c.FalseHitRate), rep.CleanListed, rep.CleanNames)
			}
			fmt.Fprintln(w)
		}
	}
	for _, l := range rep.Levels {
		if len(l.Sweep) > 0 && rep.CleanNames > 0 {
			fmt.Fprintf(w, "\n%s at fuzzy %d against %d records: threshold, clean customers alerted per 1,000, leave-one-out recall:\n",
				l.Mode, l.Fuzzy, rep.Records)
			if err := writeAlertCurve(w, l.Sweep); err != nil {
				return err
			}
		}
	}
	if rep.Duplicates > 0 {
		fmt.Fprintf(w, "\nleave_one_out: %d of the left-out aliases have exactly the words of another name of their record\n", rep.Duplicates)
	}
	for _, l := range rep.Levels {
		if m := l.Misses; m != nil {
			c := l.Class(ClassLeaveOneOut)
			if l.Mode == ModeScored {
				// The classes are those of the strict rule: a scored miss
				// whose every word pairs within one name scored too low.
				fmt.Fprintf(w, "leave_one_out misses, %s, at fuzzy %d: %d; no word shared with the record's other names %d, some words %d, every word but not in one name %d, every word in one name but below the score or hit limit %d\n",
					l.modeLabel(), l.Fuzzy, c.Queries-c.Found, m.NoSharedWord, m.SomeWords, m.Split, m.BeyondLimit)
				continue
			}
			fmt.Fprintf(w, "leave_one_out misses at fuzzy %d: %d; no word shared with the record's other names %d, some words %d, every word but not in one name %d, beyond the hit limit %d\n",
				l.Fuzzy, c.Queries-c.Found, m.NoSharedWord, m.SomeWords, m.Split, m.BeyondLimit)
		}
	}
	return nil
}

// writeSweep prints a sweep: one row per threshold, recall of each recall
// class measured, then false-hit rates.
func writeSweep(w io.Writer, pts []SweepPoint) error {
	var rc, fc []string
	for _, c := range recallClasses {
		if _, ok := pts[0].Recall[c]; ok {
			rc = append(rc, c)
		}
	}
	for _, c := range falseClasses {
		if _, ok := pts[0].FalseHitRate[c]; ok {
			fc = append(fc, c)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "min score\t")
	for _, c := range append(append(slices.Clone(rc), fc...), "false_all") {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintln(tw)
	for _, p := range pts {
		fmt.Fprintf(tw, "%.2f\t", p.MinScore)
		for _, c := range rc {
			fmt.Fprintf(tw, "%.3f\t", p.Recall[c])
		}
		for _, c := range fc {
			fmt.Fprintf(tw, "%.4f\t", p.FalseHitRate[c])
		}
		fmt.Fprintf(tw, "%.4f\t\n", p.FalseAll)
	}
	return tw.Flush()
}

// CleanAlerts turns the false-hit rate of the clean names searched into
// clean customers alerted per 1,000: the names that are a listed name word
// for word (dropped from the class) are alerted too.
func (rep *QualityReport) CleanAlerts(rate float64) float64 {
	listed := ratio(rep.CleanListed, rep.CleanNames)
	return 1000 * (listed + (1-listed)*rate)
}

// writeAlertCurve prints the curve a default threshold is read from: per
// threshold, clean customers alerted per 1,000 and leave-one-out recall.
func writeAlertCurve(w io.Writer, pts []SweepPoint) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "min score\talerts per 1,000\tleave_one_out\t")
	for _, p := range pts {
		loo := "-"
		if r, ok := p.Recall[ClassLeaveOneOut]; ok {
			loo = fmt.Sprintf("%.3f", r)
		}
		fmt.Fprintf(tw, "%.2f\t%.1f\t%s\t\n", p.MinScore, p.CleanAlerts, loo)
	}
	return tw.Flush()
}

// modeLabel names the level's mode in the table: "scored" carries its
// threshold, since the figures mean nothing without it.
func (l *LevelReport) modeLabel() string {
	if l.Mode == ModeScored {
		return fmt.Sprintf("scored>=%g", l.MinScore)
	}
	return ModeStrict
}

func falseQueries(l LevelReport) int {
	n := 0
	for _, c := range l.Classes {
		if c.FalseHitRate != nil {
			n += c.Queries
		}
	}
	return n
}
