package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// This file is the evidence beyond the name in scored mode
// (docs/MATCHING.md "Scored mode", "Evidence beyond the name"): when the
// query gives a date of birth, a gender or a citizenship and a record has
// it too, the agreement or the difference adds to the name's logit.
//
// The date of birth still filters as in strict mode (the contract's rule:
// a user who gives a dob expects records born on other dates to go), so a
// date that differs never reaches the score; among the records that pass,
// a date that agrees on the day, the month or only the year raises the
// score by how much it says. Gender and citizenship do not filter in
// scored mode: lists carry the wrong gender now and then and people hold
// several citizenships, so a difference lowers the score instead of
// hiding a record whose name agrees. Strict mode filters all three, byte
// for byte as before.
//
// The values are log-likelihood ratios in nats, like the name's terms,
// set well below what the chance agreement of random people would give
// (two random people share a birthday about once in 20,000): a name must
// still carry a hit, and the evidence only moves it across the
// threshold when the name is close to it.
const (
	// evDOBDay is a date of birth the same on day, month and year.
	evDOBDay = 2.5
	// evDOBMonth is a date the same on month and year, the day unknown
	// on one side.
	evDOBMonth = 1.2
	// evDOBYear is a date the same on the year, the rest unknown on one
	// side.
	evDOBYear = 0.5
	// evGenderSame and evGenderDiffers are a gender the same and a
	// gender that differs.
	evGenderSame    = 0.3
	evGenderDiffers = -3.0
	// evCitSame is a record holding the query's citizenship;
	// evCitDiffers one that holds citizenships, but not that one.
	evCitSame    = 1.0
	evCitDiffers = -0.7
)

// evidenceKind is what a piece of evidence compares.
type evidenceKind uint8

const (
	evDOB evidenceKind = iota + 1
	evGender
	evCit
)

// dobLevel is how much of a date two dates share: the year, the month too,
// or the day too.
const (
	dobYear = iota + 1
	dobMonth
	dobDay
)

// evidenceItem is one piece of evidence: for a dob, level is the dobLevel
// and rec the record's date; for gender and citizenship, differs says
// whether the record's value differs.
type evidenceItem struct {
	kind    evidenceKind
	level   uint8
	differs bool
	rec     query.Date
	value   float64
}

// evidence is what the query's dob, gender and citizenship say of one
// record; total is added to the logit of each of its name strings.
type evidence struct {
	items [3]evidenceItem
	n     int
	total float64
}

func (e *evidence) add(it evidenceItem) {
	e.items[e.n] = it
	e.n++
	e.total += it.value
}

// recordFacts are the facts of a record the evidence reads: its dates of
// birth, its gender (MALE, FEMALE or empty for unknown), whether it has a
// citizenship and whether one is the query's.
type recordFacts struct {
	dobs            []query.Date
	gender          string
	hasCit, citHeld bool
}

// factsOf reads the facts of r for c, as the index stores them
// (segbuild.go): dates parsed leniently, citizenships through
// country.Code.
func factsOf(c *compiled, r *record.Record) recordFacts {
	f := recordFacts{hasCit: len(r.Citizenship) > 0}
	if c.hasDOB {
		for _, s := range r.DateOfBirth {
			f.dobs = append(f.dobs, query.ParseRecordDate(s))
		}
	}
	if r.Gender == record.GenderMale || r.Gender == record.GenderFemale {
		f.gender = r.Gender
	}
	if c.cit != "" {
		for _, g := range r.Citizenship {
			if code, ok := country.Code(g); ok && code == c.cit {
				f.citHeld = true
				break
			}
		}
	}
	return f
}

// facts reads the facts of record ord of the segment for c.
func (sv *segView) facts(c *compiled, ord uint32) recordFacts {
	fl := sv.recFlags[ord]
	f := recordFacts{hasCit: fl&flagHasCit != 0}
	if c.hasDOB {
		f.dobs = sv.dobs[sv.dobOff[ord]:sv.dobOff[ord+1]]
	}
	switch fl & flagGenderMask {
	case flagGenderMale:
		f.gender = record.GenderMale
	case flagGenderFem:
		f.gender = record.GenderFemale
	}
	if c.cit != "" && f.hasCit {
		want := citCode(c.cit)
		for _, cc := range sv.cits[sv.citOff[ord]:sv.citOff[ord+1]] {
			if cc == want {
				f.citHeld = true
				break
			}
		}
	}
	return f
}

// weighEvidence is the evidence of a record of facts f for c. Nothing
// comes of a field the query or the record lacks; a strict query has
// none (its filters decide).
func weighEvidence(c *compiled, f recordFacts) evidence {
	var e evidence
	if c.Match != query.Scored {
		return e
	}
	if c.hasDOB {
		best := evidenceItem{kind: evDOB}
		for _, d := range f.dobs {
			if !d.Agrees(c.dob) {
				continue
			}
			if l := sharedLevel(c.dob, d); l > best.level {
				best.level, best.rec = l, d
			}
		}
		if best.level > 0 {
			best.value = [...]float64{dobYear: evDOBYear, dobMonth: evDOBMonth, dobDay: evDOBDay}[best.level]
			e.add(best)
		}
	}
	if c.gender != "" && f.gender != "" {
		it := evidenceItem{kind: evGender, value: evGenderSame}
		if f.gender != c.gender {
			it.differs, it.value = true, evGenderDiffers
		}
		e.add(it)
	}
	if c.cit != "" && f.hasCit {
		it := evidenceItem{kind: evCit, value: evCitSame}
		if !f.citHeld {
			it.differs, it.value = true, evCitDiffers
		}
		e.add(it)
	}
	return e
}

// sharedLevel is how much two agreeing dates both know: the year, then the
// month, then the day (0 when a year is unknown).
func sharedLevel(q, d query.Date) uint8 {
	switch {
	case q.Year() == 0 || d.Year() == 0:
		return 0
	case q.Month() == 0 || d.Month() == 0:
		return dobYear
	case q.Day() == 0 || d.Day() == 0:
		return dobMonth
	}
	return dobDay
}

// maxEvidence is the most the evidence can add to a record's logit for c:
// the bounds of the candidate search lower their target by it, so that a
// name string the evidence lifts to the threshold is never dropped.
// maxEvidenceAny is the most evidence any query can add: a same full
// date of birth, gender and citizenship.
const maxEvidenceAny = evDOBDay + max(evGenderSame, 0) + max(evCitSame, 0)

func maxEvidence(c *compiled) float64 {
	if c.Match != query.Scored {
		return 0
	}
	m := 0.0
	if c.hasDOB {
		switch {
		case c.dob.Month() == 0:
			m += evDOBYear
		case c.dob.Day() == 0:
			m += evDOBMonth
		default:
			m += evDOBDay
		}
	}
	if c.gender != "" {
		m += max(evGenderSame, 0)
	}
	if c.cit != "" {
		m += max(evCitSame, 0)
	}
	return m
}

// scoreWith is the score of a name string's evaluation ev with add more
// nats of evidence: scoreOf without evidence; the very same words stay at
// 1 unless the evidence is against them.
func scoreWith(ev evaluation, add float64) float64 {
	if add == 0 || ev.exact && add > 0 {
		return scoreOf(ev)
	}
	return logitScore(ev.logit + add)
}

// logitScore turns a logit into a score, rounded as scoreOf rounds.
func logitScore(l float64) float64 {
	s := 1 / (1 + math.Exp(-l/scoreTemperature))
	return math.Round(s*1e6) / 1e6
}

// score is the score of a name string of the record evaluated at ev.
func (e *evidence) score(ev evaluation) float64 { return scoreWith(ev, e.total) }

// annotate adds the evidence to the reason r of a name string evaluated at
// ev: each piece with what it added, in nats and in score, and the logit
// and the score with it.
func (e *evidence) annotate(r *ScoreReason, ev evaluation, c *compiled) {
	if e.n == 0 {
		return
	}
	r.NameScore = scoreOf(ev)
	prev, add := r.NameScore, 0.0
	for i := 0; i < e.n; i++ {
		it := &e.items[i]
		add += it.value
		s := scoreWith(ev, add)
		se := ScoreEvidence{Contribution: round4(it.value), Effect: round4(s - prev)}
		prev = s
		switch it.kind {
		case evDOB:
			se.Field, se.Query, se.Record = "dob", showDate(c.dob), showDate(it.rec)
			se.Agrees = [...]string{dobYear: "year", dobMonth: "month", dobDay: "day"}[it.level]
		case evGender:
			se.Field, se.Query, se.Agrees = "gender", c.gender, "same"
			if it.differs {
				se.Agrees = "differs"
			}
		case evCit:
			se.Field, se.Query, se.Agrees = "citizenship", c.cit, "same"
			if it.differs {
				se.Agrees = "differs"
			}
		}
		r.Evidence = append(r.Evidence, se)
	}
	r.Logit = round4(ev.logit + e.total)
	r.Score = e.score(ev)
}

// showDate writes a partial date as yyyy, yyyy-mm or yyyy-mm-dd.
func showDate(d query.Date) string {
	switch {
	case d.Month() == 0:
		return fmt.Sprintf("%04d", d.Year())
	case d.Day() == 0:
		return fmt.Sprintf("%04d-%02d", d.Year(), d.Month())
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year(), d.Month(), d.Day())
}

// ScoreEvidence is one piece of evidence beyond the name in a scored hit:
// the query's dob, gender or citizenship against the record's.
type ScoreEvidence struct {
	// Field is dob, gender or citizenship.
	Field string `json:"field"`
	// Query is the query's value; Record the record's date that agreed
	// (dob only).
	Query  string `json:"query"`
	Record string `json:"record,omitempty"`
	// Agrees is how the two compare: day, month or year (a dob the same
	// down to that part), same or differs.
	Agrees string `json:"agrees"`
	// Contribution is what it added to the logit; Effect what it added to
	// the score, after the evidence listed before it.
	Contribution float64 `json:"contribution"`
	Effect       float64 `json:"effect"`
}

// summary writes the evidence of r in words, e.g.
// "name 0.84; dob 1971-03-02 same (+0.06); gender differs (-0.10)".
func (r *ScoreReason) evidenceSummary() string {
	if len(r.Evidence) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("name " + FormatScore(r.NameScore))
	for _, e := range r.Evidence {
		b.WriteString("; " + e.Field + " ")
		switch {
		case e.Field == "dob":
			d := e.Record
			switch e.Agrees {
			case "year":
				d = d[:min(4, len(d))]
			case "month":
				d = d[:min(7, len(d))]
			}
			b.WriteString(d + " same")
			if e.Agrees != "day" {
				b.WriteString(" " + e.Agrees)
			}
		case e.Field == "citizenship":
			b.WriteString(e.Query + " " + e.Agrees)
		default:
			b.WriteString(e.Agrees)
		}
		fmt.Fprintf(&b, " (%+.2f)", e.Effect)
	}
	return b.String()
}
