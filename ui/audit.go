package ui

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/report"
)

// auditPageSize is the most entries the audit page lists at once.
const auditPageSize = 100

// auditQuery is the audit page's search as submitted.
type auditQuery struct {
	Person, Subject, Record, From, To string
	Page                              int
}

// auditData is the audit page.
type auditData struct {
	Query   auditQuery
	Entries []casework.Entry
	// Matched counts the entries the search selects; the page lists the
	// newest, Page by Page.
	Matched    int
	Prev, Next string
	Verified   int
	Broken     string
}

func (h *handler) auditPage(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	cw := h.casework()
	if cw == nil {
		return errorf(http.StatusNotFound, "Casework needs a store: this server has none.")
	}
	if !h.requireRole(w, r, s, casework.Analyst) {
		return nil
	}
	v := r.URL.Query()
	q := auditQuery{Person: strings.TrimSpace(v.Get("person")), Subject: strings.TrimSpace(v.Get("subject")),
		Record: strings.TrimSpace(v.Get("record")), From: strings.TrimSpace(v.Get("from")), To: strings.TrimSpace(v.Get("to"))}
	q.Page, _ = strconv.Atoi(v.Get("page"))
	q.Page = max(q.Page, 1)
	day := func(field, s string) (time.Time, error) {
		if s == "" {
			return time.Time{}, nil
		}
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return t, errorf(http.StatusBadRequest, "%s: %q is not a date as YYYY-MM-DD", field, s)
		}
		return t, nil
	}
	from, err := day("from", q.From)
	if err != nil {
		return err
	}
	to, err := day("to", q.To)
	if err != nil {
		return err
	}
	if !to.IsZero() {
		to = to.AddDate(0, 0, 1) // the whole day
	}
	// Keep the newest page*size matches: a ring of bounded size, so a long
	// log costs a scan, never its size in memory.
	keep := q.Page * auditPageSize
	if keep > 100*auditPageSize {
		return errorf(http.StatusBadRequest, "page: %d is out of range; narrow the search by date", q.Page)
	}
	ring := make([]casework.Entry, 0, keep)
	matched := 0
	err = cw.Each(from, to, func(e casework.Entry) error {
		if q.Person != "" && !strings.EqualFold(e.Actor, q.Person) && !strings.EqualFold(e.User, q.Person) &&
			!strings.EqualFold(strings.TrimPrefix(e.Actor, "operator:"), q.Person) {
			return nil
		}
		if q.Subject != "" && e.Subject != q.Subject && !strings.Contains(strings.ToLower(e.Query), strings.ToLower(q.Subject)) {
			return nil
		}
		if q.Record != "" && e.RecordID != q.Record && !slices.Contains(e.IDs, q.Record) {
			return nil
		}
		if len(ring) < keep {
			ring = append(ring, e)
		} else {
			ring[matched%keep] = e
		}
		matched++
		return nil
	})
	if err != nil {
		return err
	}
	// Newest first.
	ordered := make([]casework.Entry, 0, len(ring))
	for i := 0; i < len(ring); i++ {
		ordered = append(ordered, ring[(matched-1-i)%keep])
	}
	d := auditData{Query: q, Matched: matched}
	lo := (q.Page - 1) * auditPageSize
	if lo < len(ordered) {
		d.Entries = ordered[lo:min(len(ordered), lo+auditPageSize)]
	}
	self := url.Values{}
	for k, s := range map[string]string{"person": q.Person, "subject": q.Subject, "record": q.Record, "from": q.From, "to": q.To} {
		if s != "" {
			self.Set(k, s)
		}
	}
	if q.Page > 1 {
		self.Set("page", strconv.Itoa(q.Page-1))
		d.Prev = Prefix + "audit?" + self.Encode()
	}
	if matched > q.Page*auditPageSize {
		self.Set("page", strconv.Itoa(q.Page+1))
		d.Next = Prefix + "audit?" + self.Encode()
	}
	if v.Get("verify") == "1" {
		n, err := cw.Verify()
		d.Verified = n
		if err != nil {
			d.Broken = err.Error()
		}
	}
	p := h.base(s, id, "Audit log", "audit")
	p.Data = d
	h.render(w, "audit", http.StatusOK, p)
	return nil
}

// summaryData is the monthly summary page.
type summaryData struct {
	Month   string
	Prev    string
	Next    string
	Summary *casework.MonthSummary
	// Outcomes and Reviewers are the summary's maps as sorted rows.
	Outcomes, Reviewers []countRow
}

type countRow struct {
	Name string
	N    int
}

func sortedCounts(m map[string]int) []countRow {
	out := make([]countRow, 0, len(m))
	for k, n := range m {
		out = append(out, countRow{k, n})
	}
	slices.SortFunc(out, func(a, b countRow) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (h *handler) summary(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	cw := h.casework()
	if cw == nil {
		return errorf(http.StatusNotFound, "Casework needs a store: this server has none.")
	}
	if !h.requireRole(w, r, s, casework.Analyst) {
		return nil
	}
	month := r.URL.Query().Get("month")
	start := time.Date(h.now().UTC().Year(), h.now().UTC().Month(), 1, 0, 0, 0, 0, time.UTC)
	if month != "" {
		var err error
		if start, err = casework.ParseMonth(month); err != nil {
			return caseError(err)
		}
	}
	m, err := cw.Month(start)
	if err != nil {
		return err
	}
	if r.URL.Query().Get("format") == "csv" {
		var buf bytes.Buffer
		if err := casework.WriteMonthCSV(&buf, m); err != nil {
			return err
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="amlscreen-alerts-`+m.Month+`.csv"`)
		w.Write(buf.Bytes())
		return nil
	}
	d := summaryData{Month: m.Month, Summary: m, Outcomes: sortedCounts(m.ByOutcome), Reviewers: sortedCounts(m.ByReviewer),
		Prev: start.AddDate(0, -1, 0).Format("2006-01"), Next: start.AddDate(0, 1, 0).Format("2006-01")}
	p := h.base(s, id, "Alerts in "+start.Format("January 2006"), "alerts")
	p.Data = d
	h.render(w, "summary", http.StatusOK, p)
	return nil
}

// alertReport is the PDF of one alert: the hit as a report shows it, with
// the casework done on it.
func (h *handler) alertReport(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	cw := h.casework()
	if cw == nil {
		return errorf(http.StatusNotFound, "Casework needs a store: this server has none.")
	}
	if !h.requireRole(w, r, s, casework.Analyst) {
		return nil
	}
	n, err := alertID(r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	a, err := cw.Alert(n)
	if err != nil {
		return caseError(err)
	}
	q := query.Query{Kind: query.Individual, Names: a.Query.Names, DOB: a.Query.DOB, Gender: a.Query.Gender, Citizenship: a.Query.Citizenship}
	if k, err := query.ParseKind(a.Query.Kind); err == nil {
		q.Kind = k
	}
	res := &engine.Result{}
	if rec := h.currentRecord(a.Hit.RecordID); rec != nil {
		hit := engine.Hit{ID: rec.ID, Record: forKey(keyView(id), rec), Field: a.Hit.MatchedField}
		if a.Hit.Score != nil {
			hit.Score = *a.Hit.Score
		}
		res = &engine.Result{Total: 1, Hits: []engine.Hit{hit}}
	}
	in := report.Input{Query: q, Result: res, Time: h.now().UTC(), Version: h.databaseVersion(), Origin: fmt.Sprintf("alert %d of amlscreen casework", a.ID),
		Casework: []report.CaseNote{caseNote(a)}}
	if query.Validate(q) != nil {
		// A query the engine no longer takes (an old alert's) is shown by
		// its names alone.
		in.Query = query.Query{Kind: q.Kind, Names: q.Names}
	}
	var pdf bytes.Buffer
	if err := report.Render(&pdf, in); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="amlscreen-alert-%d.pdf"`, a.ID))
	w.Write(pdf.Bytes())
	return nil
}

// caseNote is an alert as a report's casework section shows it.
func caseNote(a *casework.Alert) report.CaseNote {
	n := report.CaseNote{Alert: a.ID, RecordID: a.Hit.RecordID, RecordName: a.Hit.RecordName, Status: a.Status, Version: a.Version}
	switch {
	case a.Closure != nil && a.Status == casework.Closed:
		c := a.Closure
		n.Outcome, n.Reason, n.ProposedBy, n.ProposedAt = c.Outcome, c.Reason, c.By, c.At
		n.ApprovedBy, n.ApprovedAt, n.FourEyes = c.ApprovedBy, c.ApprovedAt, c.FourEyes
	case a.Proposal != nil:
		p := a.Proposal
		n.Outcome, n.Reason, n.ProposedBy, n.ProposedAt = p.Outcome, p.Reason, p.By, p.At
	}
	for _, c := range a.Comments {
		n.Comments = append(n.Comments, report.CaseComment{By: c.By, At: c.At, Text: c.Text})
	}
	return n
}

// age writes a span roughly: "40 min", "3 h", "2 d".
func age(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%d min", max(0, int(d/time.Minute)))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d d", int(d/(24*time.Hour)))
}
