package ui

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/record"
)

// The review queue: alerts filtered, sorted and paged, with bulk actions
// on a selection. Every change goes through package casework, which
// checks the person's role again in the transaction of the change.

// Page sizes of the queue; the largest bounds a bulk action too.
const (
	queuePage    = 50
	queueMaxPage = 100
)

// ages are the age filters of the queue: newer or older than a span.
var ages = []struct {
	Value, Label string
	newer        bool
	span         time.Duration
}{
	{"1d", "Last 24 hours", true, 24 * time.Hour},
	{"7d", "Last 7 days", true, 7 * 24 * time.Hour},
	{"gt7d", "Older than 7 days", false, 7 * 24 * time.Hour},
	{"gt30d", "Older than 30 days", false, 30 * 24 * time.Hour},
}

// queueQuery is the queue's filter form as submitted.
type queueQuery struct {
	Status, Origin, Source, MinScore, MaxScore, Age, Assignee, Sort string
	Desc, Escalated                                                 bool
	Page, PerPage                                                   int
}

func queueQueryOf(q url.Values) queueQuery {
	qq := queueQuery{Status: q.Get("status"), Origin: q.Get("origin"), Source: strings.ToUpper(strings.TrimSpace(q.Get("source"))),
		MinScore: strings.TrimSpace(q.Get("min_score")), MaxScore: strings.TrimSpace(q.Get("max_score")), Age: q.Get("age"),
		Assignee: strings.TrimSpace(q.Get("assignee")), Sort: q.Get("sort"), Desc: q.Get("desc") == "1", Escalated: q.Get("escalated") == "1"}
	if _, ok := q["status"]; !ok && !qq.Escalated {
		qq.Status = casework.Open
	}
	if qq.Status == "any" {
		qq.Status = ""
	}
	qq.Page, _ = strconv.Atoi(q.Get("page"))
	qq.Page = max(qq.Page, 1)
	qq.PerPage, _ = strconv.Atoi(q.Get("per_page"))
	if qq.PerPage != queueMaxPage {
		qq.PerPage = queuePage
	}
	return qq
}

// values writes the query back, page aside, for links that keep it.
func (qq queueQuery) values() url.Values {
	v := url.Values{}
	status := qq.Status
	if status == "" {
		status = "any"
	}
	if !qq.Escalated {
		v.Set("status", status)
	}
	for k, s := range map[string]string{"origin": qq.Origin, "source": qq.Source, "min_score": qq.MinScore, "max_score": qq.MaxScore,
		"age": qq.Age, "assignee": qq.Assignee, "sort": qq.Sort} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if qq.Desc {
		v.Set("desc", "1")
	}
	if qq.Escalated {
		v.Set("escalated", "1")
	}
	if qq.PerPage != queuePage {
		v.Set("per_page", strconv.Itoa(qq.PerPage))
	}
	return v
}

// request turns the query into a page request for me, the signed-in
// person, at now.
func (qq queueQuery) request(me string, now time.Time) (casework.PageRequest, error) {
	r := casework.PageRequest{Filter: casework.Filter{Status: qq.Status, Origin: qq.Origin, SourceType: qq.Source, Escalated: qq.Escalated},
		Sort: qq.Sort, Desc: qq.Desc, Offset: (qq.Page - 1) * qq.PerPage, Limit: qq.PerPage}
	if r.Sort == "" {
		r.Sort = casework.SortCreated
	}
	score := func(field, s string) (float64, error) {
		if s == "" {
			return 0, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || f > 1 {
			return 0, errorf(http.StatusBadRequest, "%s: %q is not a score between 0 and 1", field, s)
		}
		return f, nil
	}
	var err error
	if r.MinScore, err = score("min_score", qq.MinScore); err != nil {
		return r, err
	}
	if r.MaxScore, err = score("max_score", qq.MaxScore); err != nil {
		return r, err
	}
	switch qq.Assignee {
	case "":
	case "me":
		r.Assignee = me
	case "none":
		r.Unassigned = true
	default:
		r.Assignee = qq.Assignee
	}
	if qq.Age != "" {
		found := false
		for _, a := range ages {
			if a.Value == qq.Age {
				found = true
				if a.newer {
					r.CreatedAfter = now.Add(-a.span)
				} else {
					r.CreatedBefore = now.Add(-a.span)
				}
			}
		}
		if !found {
			return r, errorf(http.StatusBadRequest, "age: %q is not one of the choices", qq.Age)
		}
	}
	if qq.Page > 1_000_000 {
		return r, errorf(http.StatusBadRequest, "page: %d is out of range", qq.Page)
	}
	if err := r.Filter.Validate(); err != nil {
		return r, caseError(err)
	}
	return r, nil
}

// alertRow is an alert as the queue lists it: with the record's date of
// birth and citizenship as the database holds them now, so that most
// alerts are triaged from the list.
type alertRow struct {
	*casework.Alert
	DOB         []string
	Citizenship []string
	SourceID    string
	Score       string
	// Age is how long ago the alert was raised, in words.
	Age string
}

// queueData is the queue page.
type queueData struct {
	Query   queueQuery
	Rows    []alertRow
	Total   int
	From    int
	To      int
	Prev    string
	Next    string
	Self    string
	Me      string
	Role    string
	Users   []casework.UserInfo
	Ages    any
	Sorts   []string
	Tab     string
	Missing bool // no casework: the server has no store
}

func (h *handler) queue(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	cw := h.casework()
	p := h.base(s, id, "Alerts", "alerts")
	if cw == nil {
		p.Data = queueData{Missing: true}
		h.render(w, "queue", http.StatusOK, p)
		return nil
	}
	if !h.requireRole(w, r, s, casework.Analyst) {
		return nil
	}
	qq := queueQueryOf(r.URL.Query())
	me := h.actor(s).String()
	req, err := qq.request(me, h.now())
	if err != nil {
		return err
	}
	alerts, total, err := cw.Page(req)
	if err != nil {
		return caseError(err)
	}
	users, err := cw.Users()
	if err != nil {
		return err
	}
	d := queueData{Query: qq, Total: total, Me: me, Role: h.sessionRole(s), Users: activeUsers(users), Ages: ages,
		Sorts: []string{casework.SortCreated, casework.SortUpdated, casework.SortScore, casework.SortID}}
	d.Self = Prefix + "queue?" + withPage(qq.values(), qq.Page)
	d.Tab = queueTab(qq)
	for _, a := range alerts {
		d.Rows = append(d.Rows, h.rowOf(a))
	}
	if len(alerts) > 0 {
		d.From = req.Offset + 1
		d.To = req.Offset + len(alerts)
	}
	if qq.Page > 1 {
		d.Prev = Prefix + "queue?" + withPage(qq.values(), qq.Page-1)
	}
	if req.Offset+len(alerts) < total {
		d.Next = Prefix + "queue?" + withPage(qq.values(), qq.Page+1)
	}
	p.Data = d
	h.render(w, "queue", http.StatusOK, p)
	return nil
}

func withPage(v url.Values, page int) string {
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v.Encode()
}

// queueTab names the tab a query is, "" for a filter of its own.
func queueTab(qq queueQuery) string {
	plain := qq.Origin == "" && qq.Source == "" && qq.MinScore == "" && qq.MaxScore == "" && qq.Age == ""
	switch {
	case !plain:
		return ""
	case qq.Escalated:
		return "escalated"
	case qq.Status == casework.Open && qq.Assignee == "me":
		return "mine"
	case qq.Assignee != "":
		return ""
	case qq.Status == casework.Open:
		return "open"
	case qq.Status == casework.Proposed:
		return "proposed"
	case qq.Status == casework.Closed:
		return "closed"
	}
	return ""
}

func activeUsers(us []casework.UserInfo) []casework.UserInfo {
	out := us[:0:0]
	for _, u := range us {
		if !u.Disabled {
			out = append(out, u)
		}
	}
	return out
}

// rowOf adds the record's present attributes to an alert.
func (h *handler) rowOf(a *casework.Alert) alertRow {
	row := alertRow{Alert: a, Age: age(h.now().Sub(a.Created))}
	if a.Hit.Score != nil {
		row.Score = strconv.FormatFloat(*a.Hit.Score, 'f', 2, 64)
	}
	if rec := h.currentRecord(a.Hit.RecordID); rec != nil {
		row.DOB, row.Citizenship, row.SourceID = rec.DateOfBirth, rec.Citizenship, rec.SourceID
	}
	return row
}

// currentRecord returns the record as the database holds it now, or nil.
func (h *handler) currentRecord(id string) *record.Record {
	if b, ok := h.b.(interface {
		currentRecord(string) *record.Record
	}); ok {
		return b.currentRecord(id)
	}
	return nil
}

// databaseVersion returns the version the database answers from now.
func (h *handler) databaseVersion() string {
	if b, ok := h.b.(interface{ databaseVersion() string }); ok {
		return b.databaseVersion()
	}
	return ""
}

// bulk applies one action to the alerts selected on the queue page:
// assign (to oneself or another) or propose false positive with one
// reason, in one transaction: all or none.
func (h *handler) bulk(w http.ResponseWriter, r *http.Request, s *session, _ *Identity) error {
	cw := h.casework()
	if cw == nil {
		return errorf(http.StatusNotFound, "Casework needs a store: this server has none.")
	}
	if !h.requireRole(w, r, s, casework.Analyst) {
		return nil
	}
	pf := r.PostForm
	back := localURL(pf.Get("back"), Prefix+"queue")
	ids, err := parseIDs(pf["id"])
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return errorf(http.StatusBadRequest, "Select at least one alert first.")
	}
	a := h.actor(s)
	var msg string
	switch pf.Get("action") {
	case "assign_me":
		err = cw.Assign(a, ids, a.String())
		msg = fmt.Sprintf("Assigned %d %s to you.", len(ids), plural(len(ids), "alert", "alerts"))
	case "assign":
		to := strings.TrimSpace(pf.Get("assignee"))
		if to == "" {
			return errorf(http.StatusBadRequest, "assignee: choose whom to assign the alerts to.")
		}
		err = cw.Assign(a, ids, to)
		msg = fmt.Sprintf("Assigned %d %s to %s.", len(ids), plural(len(ids), "alert", "alerts"), to)
	case "propose_fp":
		err = cw.Propose(a, ids, casework.FalsePositive, pf.Get("reason"))
		msg = fmt.Sprintf("Proposed %d %s as false positives.", len(ids), plural(len(ids), "alert", "alerts"))
	default:
		return errorf(http.StatusBadRequest, "action: %q is not assign_me, assign or propose_fp", pf.Get("action"))
	}
	if err != nil {
		return caseError(err)
	}
	h.sessions.setFlash(s, msg)
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}

// parseIDs reads alert ids, at most queueMaxPage of them.
func parseIDs(vs []string) ([]uint64, error) {
	if len(vs) > queueMaxPage {
		return nil, errorf(http.StatusBadRequest, "id: at most %d alerts at once", queueMaxPage)
	}
	out := make([]uint64, 0, len(vs))
	for _, v := range vs {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil || n == 0 {
			return nil, errorf(http.StatusBadRequest, "id: %q is not an alert id", v)
		}
		out = append(out, n)
	}
	return out, nil
}

// caseError turns an error of package casework into a message for the
// page, with its status: refusals and bad values the person can act on.
func caseError(err error) error {
	var fe *casework.FieldError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		return &Error{Status: http.StatusBadRequest, Message: err.Error()}
	case errors.Is(err, casework.ErrForbidden):
		return &Error{Status: http.StatusForbidden, Message: "Not allowed: " + err.Error()}
	case errors.Is(err, casework.ErrState):
		return &Error{Status: http.StatusConflict, Message: "Not possible now: " + err.Error() + ". Reload the page: someone may have acted on it."}
	case errors.Is(err, casework.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Message: err.Error()}
	case errors.Is(err, casework.ErrNoAlerts):
		return &Error{Status: http.StatusBadRequest, Message: "Select at least one alert first."}
	}
	return err
}
