package engine

import (
	"slices"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// ScoredFacts are what a scored check holds beyond its words that decides
// whether a record can be its hit: the filters a record must pass (the
// kind of check and the date of birth) and the evidence added to a
// record's logit (date of birth, gender, citizenship). A reverse index of
// checks keeps them by check, so that a record whose facts rule a check
// out, or add less than the most they could, is bounded without the check.
type ScoredFacts struct {
	dob    query.Date
	kind   query.Kind
	hasDOB bool
	gender uint8 // 0 none, 1 male, 2 female
	cit    string
}

// ScoredCheck returns the token lists scored mode pairs for q (raw, for
// individual records, and legal, legal forms canonicalised, for every
// other record; at most the words scored mode pairs) and the facts of q.
// It validates q as Search does.
func ScoredCheck(q query.Query) (raw, legal []string, f ScoredFacts, err error) {
	c, err := compile(q)
	if err != nil {
		return nil, nil, ScoredFacts{}, err
	}
	f = ScoredFacts{dob: c.dob, kind: c.Kind, hasDOB: c.hasDOB, cit: c.cit}
	switch c.gender {
	case record.GenderMale:
		f.gender = 1
	case record.GenderFemale:
		f.gender = 2
	}
	if c.onlyLegal {
		return nil, nil, f, nil
	}
	return c.raw[0][:min(len(c.raw[0]), maxScoredWords)], c.legal[0][:min(len(c.legal[0]), maxScoredWords)], f, nil
}

// compiled is the part of a compiled scored query the facts stand for.
func (f *ScoredFacts) compiled() compiled {
	c := compiled{Query: query.Query{Kind: f.kind, Match: query.Scored}, dob: f.dob, hasDOB: f.hasDOB, cit: f.cit}
	switch f.gender {
	case 1:
		c.gender = record.GenderMale
	case 2:
		c.gender = record.GenderFemale
	}
	return c
}

// MaxEvidence is the most the facts can add to any record's logit: what
// Search lowers the target of its candidates' bound by (maxEvidence).
func (f *ScoredFacts) MaxEvidence() float64 {
	c := f.compiled()
	return maxEvidence(&c)
}

// ScoredRecordFacts are the facts of a record that checks' facts are
// weighed against (NewScoredRecordFacts), read once for all checks.
type ScoredRecordFacts struct {
	et   string
	f    recordFacts // dates of birth parsed, gender, whether it has a citizenship
	cits []string    // country codes of its citizenships
}

// NewScoredRecordFacts reads the facts of r as scoring reads them
// (factsOf).
func NewScoredRecordFacts(r *record.Record) *ScoredRecordFacts {
	c := compiled{hasDOB: true}
	rf := &ScoredRecordFacts{et: r.EntityType, f: factsOf(&c, r)}
	for _, g := range r.Citizenship {
		if code, ok := country.Code(g); ok {
			rf.cits = append(rf.cits, code)
		}
	}
	return rf
}

// Evidence reports whether record r passes the filters of the check of
// facts f (its kind and date of birth, as passesFilters; a sources filter
// is not read, so such a record passes) and, when it does, the evidence
// the check gets from r: what scoring adds to the logit of each of r's
// name strings (weighEvidence), never more than MaxEvidence.
func (f *ScoredFacts) Evidence(r *ScoredRecordFacts) (add float64, ok bool) {
	if !query.KindAllows(f.kind, r.et) {
		return 0, false
	}
	if !f.hasDOB && f.gender == 0 && f.cit == "" {
		return 0, true // most checks: no filter beyond the kind, no evidence
	}
	rf := r.f
	if f.hasDOB && len(rf.dobs) > 0 && !slices.ContainsFunc(rf.dobs, func(d query.Date) bool { return d.Agrees(f.dob) }) {
		return 0, false // query.DOBAllows
	}
	rf.citHeld = f.cit != "" && slices.Contains(r.cits, f.cit)
	c := f.compiled()
	return weighEvidence(&c, rf).total, true
}

// LegalForms reports whether the record's names are paired with a check's
// legal-form spelling (ScoredCheck's legal list): every record but an
// individual's.
func (r *ScoredRecordFacts) LegalForms() bool { return usesLegalForms(r.et) }
