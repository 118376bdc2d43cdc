package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// This file is `amlscreen bench cases`: match quality on a labelled set of
// a compliance team's own, one case a row. Each case is a check (a name,
// the check's type, optional dob, gender and citizenship) and the record
// it must find, or none. Run in strict and scored mode at each fuzzy
// level, the cases give recall (positive cases whose record is among the
// hits), the false-hit share (negative cases with any hit), precision
// (of the cases with a hit, the share whose hits hold the record wanted)
// and F1; scored mode adds a sweep over its threshold, so that a team can
// read off the --min-score that suits its appetite for false hits.

// Limits of a cases file, checked before any work.
const (
	// MaxCasesBytes is the largest cases file read.
	MaxCasesBytes = 16 << 20
	// MaxCases is the most cases a file may hold.
	MaxCases = 100_000
)

// Case is one labelled check.
type Case struct {
	Line int    // line of the cases file, for messages
	ID   string // the case's own id, if the file gives one
	Name string
	Kind query.Kind
	DOB  string
	// Gender and Citizenship are as the check takes them.
	Gender, Citizenship string
	// Expect is the id of the record the check must find; "" means none
	// (no hit at all).
	Expect string
	Note   string
}

// CaseError is a case file row that cannot be used: it names the line and
// the field.
type CaseError struct {
	Line  int
	Field string
	Msg   string
}

func (e *CaseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d, field %s: %s", e.Line, e.Field, e.Msg)
}

// caseColumns are the columns a cases file may have; name and expect are
// required.
var caseColumns = []string{"id", "name", "type", "dob", "gender", "citizenship", "expect", "note"}

// ReadCases reads a cases file: CSV with a header row naming its columns
// (id, name, type, dob, gender, citizenship, expect, note, in any order;
// name and expect required). expect is the id of the record to find, or
// "none". Every value is checked as a check would check it, so a bad row
// is reported with its line and field before anything runs; an input
// larger than MaxCasesBytes or with more than MaxCases rows is refused.
func ReadCases(r io.Reader) ([]Case, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxCasesBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	if len(data) > MaxCasesBytes {
		return nil, fmt.Errorf("read cases: more than %d bytes", MaxCasesBytes)
	}
	cr := csv.NewReader(strings.NewReader(string(data)))
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, &CaseError{Line: 1, Msg: "empty file: want a header row naming the columns"}
	}
	if err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !slices.Contains(caseColumns, h) {
			return nil, &CaseError{Line: 1, Field: h, Msg: fmt.Sprintf("unknown column; the columns are %s", strings.Join(caseColumns, ", "))}
		}
		if _, dup := col[h]; dup {
			return nil, &CaseError{Line: 1, Field: h, Msg: "column given twice"}
		}
		col[h] = i
	}
	for _, need := range []string{"name", "expect"} {
		if _, ok := col[need]; !ok {
			return nil, &CaseError{Line: 1, Field: need, Msg: "required column missing"}
		}
	}
	var out []Case
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read cases: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if len(out) == MaxCases {
			return nil, &CaseError{Line: line, Msg: fmt.Sprintf("more than %d cases", MaxCases)}
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		c := Case{Line: line, ID: get("id"), Name: get("name"), DOB: get("dob"), Gender: get("gender"),
			Citizenship: get("citizenship"), Expect: get("expect"), Note: get("note")}
		if c.Name == "" {
			return nil, &CaseError{Line: line, Field: "name", Msg: "empty"}
		}
		switch strings.ToLower(c.Expect) {
		case "":
			return nil, &CaseError{Line: line, Field: "expect", Msg: `empty: want a record id or "none"`}
		case "none":
			c.Expect = ""
		}
		k, err := query.ParseKind(get("type"))
		if err != nil {
			return nil, &CaseError{Line: line, Field: "type", Msg: paramMsg(err)}
		}
		c.Kind = k
		if err := query.Validate(c.query(query.Strict, 0, 0)); err != nil {
			field := "name"
			var pe *query.ParamError
			if errors.As(err, &pe) && pe.Param != "names" {
				field = pe.Param
			}
			return nil, &CaseError{Line: line, Field: field, Msg: paramMsg(err)}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, &CaseError{Line: 2, Msg: "no cases after the header"}
	}
	return out, nil
}

func paramMsg(err error) string {
	var pe *query.ParamError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

func (c *Case) query(m query.MatchMode, fuzzy int, minScore float64) query.Query {
	return query.Query{Kind: c.Kind, Names: c.Name, DOB: c.DOB, Gender: c.Gender, Citizenship: c.Citizenship,
		Fuzzy: fuzzy, Match: m, MinScore: minScore}
}

// CasesConfig says what bench cases measures.
type CasesConfig struct {
	Records []*record.Record
	// Background records are searched with Records, never expected: the
	// list padded to the size of database its alert rate is read at
	// (Background, PadTo).
	Background []*record.Record
	Cases      []Case
	// Modes are the match modes to run; nil means strict and scored.
	Modes []query.MatchMode
	// Fuzzy lists the fuzzy levels; nil means 0, 1 and 2.
	Fuzzy []int
	// MinScore is scored mode's threshold; 0 means query.DefaultMinScore.
	MinScore float64
	// Workers is the number of checks run at once; 0 means GOMAXPROCS.
	Workers int
}

// CasesLevel is what one mode measured at one fuzzy level.
type CasesLevel struct {
	Match    string  `json:"match"`
	Fuzzy    int     `json:"fuzzy"`
	MinScore float64 `json:"min_score,omitempty"`
	CasesMetrics
	// Sweep is scored mode at every threshold of SweepThresholds.
	Sweep []CasesSweepPoint `json:"sweep,omitempty"`
}

// CasesMetrics are the figures of one setting.
type CasesMetrics struct {
	Positives int `json:"positives"` // cases with a record to find
	Found     int `json:"found"`     // of them, found among the hits
	Negatives int `json:"negatives"` // cases that must find nothing
	FalseHits int `json:"false_hits"`
	// WithHits counts the cases with any hit; Correct those of them whose
	// hits hold the record wanted.
	WithHits      int     `json:"with_hits"`
	Correct       int     `json:"correct"`
	Recall        float64 `json:"recall"`
	FalseHitShare float64 `json:"false_hit_share"`
	// AlertsPer1000 is the false-hit share as a screening team staffs
	// for it: customers who must find nothing alerted per 1,000.
	AlertsPer1000 float64 `json:"alerts_per_1000"`
	Precision     float64 `json:"precision"`
	F1            float64 `json:"f1"`
}

// CasesSweepPoint is scored mode's figures at one threshold.
type CasesSweepPoint struct {
	MinScore float64 `json:"min_score"`
	CasesMetrics
}

// CaseDiff is a case that one mode gets right and the other wrong, at one
// fuzzy level.
type CaseDiff struct {
	Line   int    `json:"line"`
	ID     string `json:"id,omitempty"`
	Name   string `json:"name"`
	Expect string `json:"expect"`
	Fuzzy  int    `json:"fuzzy"`
	Strict string `json:"strict"`
	Scored string `json:"scored"`
}

// CasesReport is what `amlscreen bench cases --json` prints.
type CasesReport struct {
	// Records counts the database searched, Background those of them
	// generated.
	Records     int          `json:"records"`
	Background  int          `json:"background,omitempty"`
	Cases       int          `json:"cases"`
	Levels      []CasesLevel `json:"levels"`
	Differences []CaseDiff   `json:"differences,omitempty"`
}

// caseOutcome is one case's answer in one setting.
type caseOutcome struct {
	rank     int     // 1-based rank of the expected record; 0 when absent
	total    int     // hits
	top      string  // id of the first hit
	score    float64 // scored mode: the expected record's score
	topScore float64 // scored mode: the first hit's score
}

// Cases runs every case in every mode and fuzzy level against one index,
// into one report that sets the modes' outcomes side by side.
func Cases(cfg CasesConfig) (*CasesReport, error) {
	if len(cfg.Records) == 0 {
		return nil, fmt.Errorf("no records to search")
	}
	all := withBackground(cfg.Records, cfg.Background)
	if err := checkIDs(all); err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(cfg.Records))
	for _, r := range cfg.Records {
		ids[r.ID] = true
	}
	for _, c := range cfg.Cases {
		if c.Expect != "" && !ids[c.Expect] {
			return nil, &CaseError{Line: c.Line, Field: "expect", Msg: fmt.Sprintf("record %s is not in the data", query.QuoteValue(c.Expect))}
		}
	}
	levels, settings := caseSettings(cfg)
	out, err := runCases(cfg, engine.NewIndex(all), settings)
	if err != nil {
		return nil, err
	}
	rep := &CasesReport{Records: len(all), Background: len(cfg.Background), Cases: len(cfg.Cases)}
	rep.Levels = caseLevels(cfg.Cases, out, settings)
	rep.Differences = caseDifferences(cfg.Cases, out, settings, levels)
	return rep, nil
}

// setting is one way Cases runs every case: a mode at a fuzzy level,
// with its threshold, or a scored sweep at its floor.
type setting struct {
	mode  query.MatchMode
	fuzzy int
	min   float64
	sweep bool
}

// caseSettings returns cfg's fuzzy levels and the settings they make:
// each mode at each level, then the scored sweeps.
func caseSettings(cfg CasesConfig) (levels []int, settings []setting) {
	modes := cfg.Modes
	if modes == nil {
		modes = []query.MatchMode{query.Strict, query.Scored}
	}
	levels = cfg.Fuzzy
	if levels == nil {
		levels = []int{0, 1, 2}
	}
	minScore := cfg.MinScore
	if minScore == 0 {
		minScore = query.DefaultMinScore
	}
	for _, m := range modes {
		for _, f := range levels {
			s := setting{mode: m, fuzzy: f}
			if m == query.Scored {
				s.min = minScore
			}
			settings = append(settings, s)
		}
	}
	if slices.Contains(modes, query.Scored) {
		for _, f := range levels {
			settings = append(settings, setting{mode: query.Scored, fuzzy: f, min: SweepFloor, sweep: true})
		}
	}
	return levels, settings
}

// runCases runs every case of cfg in every setting against ix, on
// cfg.Workers goroutines: out[case][setting].
func runCases(cfg CasesConfig, ix *engine.Index, settings []setting) ([][]caseOutcome, error) {
	out := make([][]caseOutcome, len(cfg.Cases))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(cfg.Cases); i += workers {
				c := &cfg.Cases[i]
				out[i] = make([]caseOutcome, len(settings))
				for si, s := range settings {
					res, err := ix.Search(c.query(s.mode, s.fuzzy, s.min))
					if refused(err) {
						// Alerted at every threshold, and a miss.
						out[i][si] = caseOutcome{total: 1, top: "(refused)", topScore: 1}
						continue
					}
					if err != nil {
						errs[w] = &CaseError{Line: c.Line, Msg: err.Error()}
						return
					}
					o := &out[i][si]
					o.total = res.Total
					if len(res.Hits) > 0 {
						o.top, o.topScore = res.Hits[0].Record.ID, res.Hits[0].Score
					}
					for k, h := range res.Hits {
						if h.Record.ID == c.Expect {
							o.rank, o.score = k+1, h.Score
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// caseLevels returns the metrics of each setting that is not a sweep,
// with the sweep of its level when it is scored.
func caseLevels(cases []Case, out [][]caseOutcome, settings []setting) []CasesLevel {
	var levels []CasesLevel
	for si, s := range settings {
		if s.sweep {
			continue
		}
		lv := CasesLevel{Match: s.mode.String(), Fuzzy: s.fuzzy, MinScore: s.min}
		lv.CasesMetrics = casesMetrics(cases, out, si, -1)
		for ti, t := range settings {
			if t.sweep && t.fuzzy == s.fuzzy && s.mode == query.Scored {
				for _, th := range SweepThresholds {
					lv.Sweep = append(lv.Sweep, CasesSweepPoint{MinScore: th, CasesMetrics: casesMetrics(cases, out, ti, th)})
				}
			}
		}
		levels = append(levels, lv)
	}
	return levels
}

// caseDifferences returns the cases one mode gets right and the other
// wrong, at each fuzzy level.
func caseDifferences(cases []Case, out [][]caseOutcome, settings []setting, levels []int) []CaseDiff {
	var diffs []CaseDiff
	for _, f := range levels {
		si, ti := -1, -1
		for k, s := range settings {
			if !s.sweep && s.fuzzy == f {
				if s.mode == query.Strict {
					si = k
				} else {
					ti = k
				}
			}
		}
		if si < 0 || ti < 0 {
			continue
		}
		for i := range cases {
			c := &cases[i]
			a, b := out[i][si], out[i][ti]
			if right(c, a, -1) != right(c, b, -1) {
				diffs = append(diffs, CaseDiff{Line: c.Line, ID: c.ID, Name: c.Name, Expect: expectLabel(c),
					Fuzzy: f, Strict: describe(c, a, false), Scored: describe(c, b, true)})
			}
		}
	}
	return diffs
}

// right reports whether a case's outcome is what it expects: its record
// among the hits, or no hit. With t ≥ 0, only hits scoring t or more
// count (a sweep's outcome read off a run at its floor).
func right(c *Case, o caseOutcome, t float64) bool {
	if c.Expect != "" {
		return o.rank > 0 && (t < 0 || o.score >= t)
	}
	return o.total == 0 || t >= 0 && o.topScore < t
}

func expectLabel(c *Case) string {
	if c.Expect == "" {
		return "none"
	}
	return c.Expect
}

// describe says what a setting answered for a case, in a few words.
func describe(c *Case, o caseOutcome, scored bool) string {
	score := func(s float64) string {
		if scored {
			return fmt.Sprintf(" (%.3f)", s)
		}
		return ""
	}
	switch {
	case o.total == 0:
		return "no hit"
	case c.Expect != "" && o.rank > 0:
		return fmt.Sprintf("found at rank %d%s", o.rank, score(o.score))
	}
	return fmt.Sprintf("%d hits, first %s%s", o.total, o.top, score(o.topScore))
}

// casesMetrics computes the figures of setting si; with t ≥ 0, as if the
// threshold were t (the setting ran at a lower one).
func casesMetrics(cases []Case, out [][]caseOutcome, si int, t float64) CasesMetrics {
	var m CasesMetrics
	for i := range cases {
		c, o := &cases[i], out[i][si]
		hit := o.total > 0 && (t < 0 || o.topScore >= t)
		found := o.rank > 0 && (t < 0 || o.score >= t)
		if hit {
			m.WithHits++
		}
		if c.Expect != "" {
			m.Positives++
			if found {
				m.Found++
				m.Correct++
			}
		} else {
			m.Negatives++
			if hit {
				m.FalseHits++
			}
		}
	}
	m.Recall = ratio(m.Found, m.Positives)
	m.FalseHitShare = ratio(m.FalseHits, m.Negatives)
	m.AlertsPer1000 = 1000 * m.FalseHitShare
	m.Precision = ratio(m.Correct, m.WithHits)
	if m.Precision+m.Recall > 0 {
		m.F1 = 2 * m.Precision * m.Recall / (m.Precision + m.Recall)
	}
	return m
}

// WriteTable prints the report: the figures per mode and fuzzy level,
// scored mode's sweep, then the cases the modes answer differently.
func (rep *CasesReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "records %d, cases %d", rep.Records, rep.Cases)
	if rep.Background > 0 {
		fmt.Fprintf(w, " (%d of the records generated)", rep.Background)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "match\tfuzzy\tmin score\tpositives\tfound\trecall\tnegatives\tfalse hits\tfalse-hit share\tprecision\tF1\talerts per 1,000\t")
	for _, l := range rep.Levels {
		ms := "-"
		if l.Match == query.Scored.String() {
			ms = fmt.Sprintf("%.2f", l.MinScore)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", l.Match, l.Fuzzy, ms, metricsRow(l.CasesMetrics))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range rep.Levels {
		if len(l.Sweep) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nscored at fuzzy %d, threshold sweep (pick --min-score here):\n", l.Fuzzy)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "min score\tpositives\tfound\trecall\tnegatives\tfalse hits\tfalse-hit share\tprecision\tF1\talerts per 1,000\t")
		for _, p := range l.Sweep {
			fmt.Fprintf(tw, "%.2f\t%s\n", p.MinScore, metricsRow(p.CasesMetrics))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Differences) > 0 {
		fmt.Fprintf(w, "\ncases the modes answer differently (%d):\n", len(rep.Differences))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "line\tfuzzy\tname\texpect\tstrict\tscored")
		for _, d := range rep.Differences {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", d.Line, d.Fuzzy, d.Name, d.Expect, d.Strict, d.Scored)
		}
		return tw.Flush()
	}
	return nil
}

func metricsRow(m CasesMetrics) string {
	return fmt.Sprintf("%d\t%d\t%.3f\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.1f\t", m.Positives, m.Found, m.Recall, m.Negatives, m.FalseHits,
		m.FalseHitShare, m.Precision, m.F1, m.AlertsPer1000)
}

// WritePlot draws recall against the false-hit share: scored mode as one
// curve per fuzzy level through its thresholds (labelled every 0.1 from
// 0.5 on), strict mode as one point per fuzzy level.
func (rep *CasesReport) WritePlot(w io.Writer) error {
	var curves []Curve
	strict := Curve{Name: "strict F0-F2", Dots: true}
	for _, l := range rep.Levels {
		if l.Match == query.Strict.String() {
			strict.Points = append(strict.Points, CurvePoint{X: l.FalseHitShare, Y: l.Recall, Label: fmt.Sprintf("F%d", l.Fuzzy)})
			continue
		}
		cv := Curve{Name: fmt.Sprintf("scored F%d", l.Fuzzy)}
		for i := len(l.Sweep) - 1; i >= 0; i-- {
			p := l.Sweep[i]
			lab := ""
			if p.MinScore >= 0.5-1e-9 && int(p.MinScore*100+0.5)%10 == 0 {
				lab = fmt.Sprintf("%.1f", p.MinScore)
			}
			cv.Points = append(cv.Points, CurvePoint{X: p.FalseHitShare, Y: p.Recall, Label: lab})
		}
		if len(cv.Points) == 0 {
			cv.Points = []CurvePoint{{X: l.FalseHitShare, Y: l.Recall}}
			cv.Dots = true
		}
		curves = append(curves, cv)
	}
	if len(strict.Points) > 0 {
		curves = append(curves, strict)
	}
	return writeCurves(w, fmt.Sprintf("Recall vs false hits, %d cases, %d records", rep.Cases, rep.Records),
		"False-hit share (cases that must find nothing, with a hit)", curves)
}
