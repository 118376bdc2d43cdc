package batch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/amlscreen/amlscreen/country"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/table"
)

// Screener turns rows into checks and runs them. Its zero value is not
// usable: Index is required. It is safe for concurrent use.
type Screener struct {
	Index *engine.Index
	// Sources restricts hits to these source ids; nil means every source.
	Sources map[string]bool
	Fuzzy   int // 0, 1 or 2
	// Limit caps the hits written per customer; 0 means
	// query.DefaultLimit, as the API.
	Limit int
	// DefaultKind is the check for rows without a type.
	DefaultKind query.Kind
	// Match is the match mode of every row's check; MinScore is scored
	// mode's threshold (0: query.DefaultMinScore) and must be 0 in strict
	// mode. A scored run's hits carry their Score.
	Match    query.MatchMode
	MinScore float64
	// Decide, when set, applies analysts' past decisions to the hits of
	// the customer with this id: it returns the hits to write, with their
	// Decision set where there is one, and the hits a decision suppresses.
	// Run writes the latter to a file of their own (package decision
	// provides the rule; the CLI builds the function).
	Decide func(customerID string, hits []Hit) (kept, suppressed []Hit)
	// Only, when set, keeps only the hits on these record ids: batch
	// --since in scored mode searches the whole database, so that words
	// weigh what they weigh there, and keeps the hits on the records
	// changed since. Every hit is then asked of the index before the
	// limit applies, so that none is cut by hits on other records.
	Only map[string]bool
	// Prepared, when set, holds records by id tokenised once
	// (engine.PrepareRecord), which Screen explains its strict hits
	// against instead of tokenising each hit's record: for a caller that
	// screens many rows against few records (a change set against a
	// book). A record it lacks is tokenised per hit.
	Prepared map[string]*engine.PreparedRecord
}

// onlyLimit is the limit of a check whose hits Screener.Only restricts:
// every hit, as far as any check has.
const onlyLimit = 1 << 30

// Hit is one line of the hits file: a customer and a record it matched.
type Hit struct {
	Line         int    `json:"line"`
	CustomerID   string `json:"customer_id"`
	CustomerName string `json:"customer_name"`
	RecordID     string `json:"record_id"`
	SourceID     string `json:"source_id"`
	SourceType   string `json:"source_type"`
	EntityType   string `json:"entity_type"`
	RecordName   string `json:"record_name"`
	// MatchedField and MatchedName are the name string that matched, e.g.
	// alias_names[2] and its text.
	MatchedField string `json:"matched_field"`
	MatchedName  string `json:"matched_name"`
	Edits        int    `json:"edits"`
	Exact        bool   `json:"exact"`
	Reason       string `json:"reason"`
	// Score is the scored-mode score in [0, 1] (the score column); nil in
	// strict mode, whose files stay as they were.
	Score *float64 `json:"score,omitempty"`
	// Decision is the current decision on the hit when the run applies
	// decisions (Screener.Decide) and there is one.
	Decision *HitDecision `json:"decision,omitempty"`
}

// HitDecision is an analyst's decision on a hit, as the hits files show
// it.
type HitDecision struct {
	Status    string `json:"status"`
	Note      string `json:"note,omitempty"`
	DecidedBy string `json:"decided_by"`
	DecidedAt string `json:"decided_at"`
	// Changed is set when the record changed since the decision, which
	// then suppresses nothing.
	Changed bool `json:"changed_since_decision"`
}

// Screened is the outcome of one row: its hits (at most the limit, best
// first) and their total, or why it was rejected.
type Screened struct {
	Hits  []Hit
	Total int
	// Suppressed are the hits decisions left out (Screener.Decide); they
	// are counted in Total.
	Suppressed []Hit
	Reject     *Reject
}

// Screen checks one row. A row the check cannot take (no name, a bad date,
// an unknown country, an unknown type) comes back with Reject set; an error
// is returned only when the engine fails for another reason.
func (s *Screener) Screen(row *Row) (Screened, error) {
	if row.Reject != nil {
		r := *row.Reject
		if r.CustomerID == "" {
			r.CustomerID = row.ID
		}
		return Screened{Reject: &r}, nil
	}
	q, rej := s.query(row)
	if rej != nil {
		return Screened{Reject: rej}, nil
	}
	if s.Only != nil {
		q.Limit = onlyLimit
	}
	res, err := s.Index.Search(q)
	if err != nil {
		var pe *query.ParamError
		if errors.As(err, &pe) {
			return Screened{Reject: paramReject(row, pe)}, nil
		}
		return Screened{}, fmt.Errorf("line %d: %w", row.Line, err)
	}
	if s.Only != nil {
		kept := res.Hits[:0:0]
		for _, h := range res.Hits {
			if s.Only[h.Record.ID] {
				kept = append(kept, h)
			}
		}
		limit := s.Limit
		if limit <= 0 {
			limit = query.DefaultLimit
		}
		res = &engine.Result{Total: len(kept), Hits: kept[:min(len(kept), limit)]}
	}
	out := Screened{Total: res.Total, Hits: make([]Hit, 0, len(res.Hits))}
	// A strict check is compiled once for the explanations of its hits.
	var cq *engine.CompiledQuery
	if q.Match != query.Scored && len(res.Hits) > 0 {
		cq, _ = engine.CompileQuery(q) // nil: no hit is explained, as Explain's error
	}
	for i := range res.Hits {
		h := &res.Hits[i]
		r := h.Record
		hit := Hit{
			Line: row.Line, CustomerID: row.ID, CustomerName: row.Name,
			RecordID: r.ID, SourceID: r.SourceID, SourceType: r.SourceType, EntityType: r.EntityType, RecordName: r.Name,
			MatchedField: h.Field, Edits: h.Edits, Exact: h.Exact,
		}
		if q.Match == query.Scored {
			score := h.Score
			hit.Score = &score
			if h.Reason != nil {
				hit.MatchedField, hit.MatchedName, hit.Reason = h.Reason.Field, h.Reason.Name, h.Reason.Summary()
			}
		} else if m, ok := s.explain(cq, r); ok {
			hit.MatchedField, hit.MatchedName, hit.Reason = m.Field, m.Text, engine.Reason(m)
		}
		out.Hits = append(out.Hits, hit)
	}
	if s.Decide != nil {
		out.Hits, out.Suppressed = s.Decide(row.ID, out.Hits)
	}
	return out, nil
}

// explain tells why r matches the compiled strict check cq by name, with
// r's tokens from s.Prepared when it holds r itself; false when cq is nil.
func (s *Screener) explain(cq *engine.CompiledQuery, r *record.Record) (engine.Match, bool) {
	if cq == nil {
		return engine.Match{}, false
	}
	p := s.Prepared[r.ID]
	if p == nil || p.Record() != r {
		p = engine.PrepareRecord(r)
	}
	return cq.Explain(p)
}

// Check returns why row could not be screened (its read error, no name, a
// bad date, an unknown country, gender or type), or nil: Screen's rules
// without the screening, for whoever keeps a book to screen later.
func (s *Screener) Check(row *Row) *Reject {
	if row.Reject != nil {
		r := *row.Reject
		if r.CustomerID == "" {
			r.CustomerID = row.ID
		}
		return &r
	}
	q, rej := s.query(row)
	if rej != nil {
		return rej
	}
	var pe *query.ParamError
	if err := query.Validate(q); errors.As(err, &pe) {
		return paramReject(row, pe)
	}
	return nil
}

// Query returns the check Screen runs for row, or why row would be
// rejected: for whoever screens rows by other means (the book scores a
// change set's records against each customer's prepared check).
func (s *Screener) Query(row *Row) (query.Query, *Reject) {
	q, rej := s.QueryUnchecked(row)
	if rej != nil {
		return q, rej
	}
	var pe *query.ParamError
	if err := query.Validate(q); errors.As(err, &pe) {
		return query.Query{}, paramReject(row, pe)
	}
	return q, nil
}

// QueryUnchecked is Query without checking the check's parameters with
// query.Parse, for a caller whose engine check parses them anyway
// (engine.compile does) and rejects the row on the *query.ParamError it
// returns, as Screen does: one parse of a row instead of two. A row
// Query rejects for a bad parameter comes back here with no Reject.
func (s *Screener) QueryUnchecked(row *Row) (query.Query, *Reject) {
	if row.Reject != nil {
		r := *row.Reject
		if r.CustomerID == "" {
			r.CustomerID = row.ID
		}
		return query.Query{}, &r
	}
	return s.query(row)
}

// query builds the check for a row. Filters (dob, gender, citizenship) are
// those of checkIndividual: an entity row's values there are ignored, not
// rejected, since books put dates of incorporation and countries of
// registration in the same columns.
func (s *Screener) query(row *Row) (query.Query, *Reject) {
	reject := func(field, value, reason string) (query.Query, *Reject) {
		return query.Query{}, &Reject{Line: row.Line, CustomerID: row.ID, Field: field, Value: value, Reason: reason}
	}
	if strings.TrimSpace(row.Name) == "" {
		return reject(FieldName, "", "missing name")
	}
	kind, ok := table.ParseType(row.Type, s.DefaultKind)
	if !ok {
		return reject(FieldType, row.Type, fmt.Sprintf("%s is not individual, entity or any", query.QuoteValue(row.Type)))
	}
	q := query.Query{Kind: kind, Names: row.Name, Fuzzy: s.Fuzzy, Sources: s.Sources, Limit: s.Limit, Match: s.Match, MinScore: s.MinScore}
	if kind == query.Entity {
		return q, nil
	}
	var err error
	if q.DOB, err = table.NormalizeDOB(row.DOB); err != nil {
		return reject(FieldDOB, row.DOB, err.Error())
	}
	// Gender has no book layer: the engine's rule (male, female, m, f in
	// any case; empty for no filter) applies as is, so a value such as
	// "unknown" rejects the row instead of screening it unfiltered.
	if _, err := query.ParseGender(row.Gender); err != nil {
		return reject(FieldGender, row.Gender, paramMsg(err))
	}
	q.Gender = row.Gender
	if q.Citizenship, err = normalizeCitizenship(row.Citizenship); err != nil {
		return reject(FieldCitizenship, row.Citizenship, err.Error())
	}
	return q, nil
}

// paramReject turns the engine's verdict on a query into a reject naming
// the book's field.
func paramReject(row *Row, pe *query.ParamError) *Reject {
	field, value := pe.Param, ""
	switch pe.Param {
	case "names":
		field, value = FieldName, row.Name
	case "dob":
		value = row.DOB
	case "gender":
		value = row.Gender
	case "citizenship":
		value = row.Citizenship
	}
	return &Reject{Line: row.Line, CustomerID: row.ID, Field: field, Value: value, Reason: pe.Msg}
}

// paramMsg is the message of the engine's *ParamError, without the
// parameter name the reject's field already gives.
func paramMsg(err error) string {
	var pe *query.ParamError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// ParseCountry reads one country as customer books and the command line
// write it: a two-letter code by the engine's rule (query.ParseCitizenship:
// ISO 3166-1 alpha-2, UK and EL as GB and GR, XK), or an English country
// name or nationality (country.Code). It returns the ISO code; batch and
// check read citizenship through it, so both take the same values.
func ParseCountry(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2 {
		c, err := query.ParseCitizenship(s)
		if err != nil {
			return "", errors.New(paramMsg(err))
		}
		return c, nil
	}
	c, ok := country.Code(s)
	if !ok {
		return "", fmt.Errorf("%s is not an ISO 3166-1 country code or country name", query.QuoteValue(s))
	}
	return c, nil
}

// normalizeCitizenship reads what books write in a citizenship column: a
// two-letter code, read by the engine's rule (query.ParseCitizenship:
// ISO 3166-1 alpha-2, UK and EL as GB and GR, XK), or an English country
// name or nationality (country.Code). A customer with several
// citizenships (RU;CY) gets no filter: the filter takes one country and
// would hide a record listed under the other.
func normalizeCitizenship(s string) (string, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' || r == '/' || r == '|' })
	var codes []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		c, err := ParseCountry(p)
		if err != nil {
			return "", err
		}
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	if len(codes) != 1 {
		return "", nil
	}
	return codes[0], nil
}
