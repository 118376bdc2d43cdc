package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/report"
	"github.com/amlscreen/amlscreen/server"
)

// maxHistory bounds the audit entries an alert page lists.
const maxHistory = 200

// alertData is the alert page.
type alertData struct {
	Alert   *casework.Alert
	Row     alertRow
	Record  *record.Record
	Changed bool // the record's content differs from the alert's
	// Sections are the record's attributes as the report prints them.
	Sections []report.Section
	History  []casework.Entry
	Me       string
	Role     string
	Users    []casework.UserInfo
	// CanApprove: a reviewer who did not propose, on a proposed alert.
	CanApprove bool
	Back       string
}

func alertID(v string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil || n == 0 {
		return 0, errorf(http.StatusBadRequest, "id: %q is not an alert id", v)
	}
	return n, nil
}

func (h *handler) alertPage(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
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
	return h.showAlert(w, r, s, id, n, localURL(r.URL.Query().Get("back"), ""))
}

func (h *handler) showAlert(w http.ResponseWriter, r *http.Request, s *session, id *Identity, n uint64, back string) error {
	cw := h.casework()
	a, err := cw.Alert(n)
	if err != nil {
		return caseError(err)
	}
	users, err := cw.Users()
	if err != nil {
		return err
	}
	d := alertData{Alert: a, Row: h.rowOf(a), Me: h.actor(s).String(), Role: h.sessionRole(s), Users: activeUsers(users), Back: back}
	if rec := h.currentRecord(a.Hit.RecordID); rec != nil {
		d.Record = forKey(keyView(id), rec)
		d.Sections = report.Sections(d.Record, nil)
	}
	d.CanApprove = a.Status == casework.Proposed && a.Proposal != nil && a.Proposal.By != d.Me && roleRank(d.Role) >= roleRank(casework.Reviewer)
	// The alert's history: its entries in the audit log, newest first.
	if d.History, err = cw.History(a.ID, maxHistory); err != nil {
		return err
	}
	p := h.base(s, id, fmt.Sprintf("Alert %d: %s", a.ID, a.Hit.RecordName), "alerts")
	p.Data = d
	h.render(w, "alert", http.StatusOK, p)
	return nil
}

// alertAction is one of the changes the alert page posts.
func alertAction(min string, act func(cw *casework.Casework, a casework.Actor, id uint64, form func(string) string) (string, error)) func(*handler, http.ResponseWriter, *http.Request, *session, *Identity) error {
	return func(h *handler, w http.ResponseWriter, r *http.Request, s *session, _ *Identity) error {
		cw := h.casework()
		if cw == nil {
			return errorf(http.StatusNotFound, "Casework needs a store: this server has none.")
		}
		if !h.requireRole(w, r, s, min) {
			return nil
		}
		n, err := alertID(r.PostForm.Get("id"))
		if err != nil {
			return err
		}
		msg, err := act(cw, h.actor(s), n, r.PostForm.Get)
		if err != nil {
			return caseError(err)
		}
		h.sessions.setFlash(s, msg)
		back := localURL(r.PostForm.Get("back"), "")
		next := Prefix + "alert?id=" + strconv.FormatUint(n, 10)
		if back != "" {
			next += "&back=" + url.QueryEscape(back)
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
		return nil
	}
}

// The changes of the alert page. The role each needs is checked here, for
// the page, and again by casework in the transaction of the change.
var (
	assignAlert = alertAction(casework.Analyst, func(cw *casework.Casework, a casework.Actor, id uint64, f func(string) string) (string, error) {
		to := strings.TrimSpace(f("assignee"))
		if to == "me" {
			to = a.String()
		}
		if err := cw.Assign(a, []uint64{id}, to); err != nil {
			return "", err
		}
		if to == "" {
			return fmt.Sprintf("Alert %d is assigned to nobody now.", id), nil
		}
		return fmt.Sprintf("Assigned alert %d to %s.", id, to), nil
	})
	commentAlert = alertAction(casework.Analyst, func(cw *casework.Casework, a casework.Actor, id uint64, f func(string) string) (string, error) {
		return fmt.Sprintf("Added your comment to alert %d.", id), cw.Comment(a, id, f("text"))
	})
	proposeAlert = alertAction(casework.Analyst, func(cw *casework.Casework, a casework.Actor, id uint64, f func(string) string) (string, error) {
		out := f("outcome")
		if err := cw.Propose(a, []uint64{id}, out, f("reason")); err != nil {
			return "", err
		}
		al, err := cw.Alert(id)
		if err == nil && al.Status == casework.Closed {
			return fmt.Sprintf("Closed alert %d as %s: four eyes are off for %s.", id, statusLabel(out), al.Hit.SourceType), nil
		}
		return fmt.Sprintf("Proposed %s on alert %d: a reviewer approves or sends it back.", statusLabel(out), id), nil
	})
	approveAlert = alertAction(casework.Reviewer, func(cw *casework.Casework, a casework.Actor, id uint64, f func(string) string) (string, error) {
		return fmt.Sprintf("Approved alert %d: it is closed.", id), cw.Approve(a, []uint64{id}, strings.TrimSpace(f("note")))
	})
	sendBackAlert = alertAction(casework.Reviewer, func(cw *casework.Casework, a casework.Actor, id uint64, f func(string) string) (string, error) {
		return fmt.Sprintf("Sent alert %d back: it is open again.", id), cw.SendBack(a, []uint64{id}, f("reason"))
	})
)

// screened raises an alert (origin screening) for every hit of a
// workbench screening that no decision suppresses, and logs the screening
// in the audit log (who, the query, the database version and every id it
// returned), in one transaction. Without casework it does nothing.
func (h *handler) screened(s *session, id *Identity, res *Screening) error {
	cw := h.casework()
	if cw == nil {
		return nil
	}
	who := h.actor(s).String()
	f := res.Form
	q := casework.Query{Kind: f.Type, Names: f.Names, DOB: f.DOB, Gender: f.Gender, Citizenship: f.Citizenship}
	var hits []casework.NewAlert
	for _, hv := range res.Hits {
		full := hv.full
		if full == nil {
			full = hv.Record
		}
		var score *float64
		if hv.Score != "" {
			if sc, err := strconv.ParseFloat(hv.Score, 64); err == nil {
				score = &sc
			}
		}
		hits = append(hits, casework.NewAlert{Subject: res.Subject, Owner: id.ID, Origin: casework.OriginScreening, Version: res.Version,
			Query: q, Hit: casework.HitOn(full, hv.MatchedField, hv.MatchedName, hv.Why, score), Record: full})
	}
	ids := make([]string, 0, len(res.Hits)+len(res.Suppressed))
	for _, l := range [][]HitView{res.Hits, res.Suppressed} {
		for _, hv := range l {
			ids = append(ids, hv.Record.ID)
		}
	}
	_, err := cw.Screened(casework.Screening{Actor: who, Query: screeningText(f, res.Subject), Version: res.Version, IDs: ids}, hits)
	return err
}

// screeningText describes a workbench screening for the audit log.
func screeningText(f ScreenForm, subject string) string {
	var b strings.Builder
	b.WriteString("workbench ")
	b.WriteString(f.Type)
	for _, kv := range [][2]string{{"names", f.Names}, {"dob", f.DOB}, {"gender", f.Gender}, {"citizenship", f.Citizenship},
		{"fuzzy", f.Fuzzy}, {"mode", f.Mode}, {"min_score", f.MinScore}, {"includes", f.Includes}, {"subject", subject}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%q", kv[0], kv[1])
		}
	}
	return b.String()
}

// withCasework has the PDF report of the screening f carry the alerts of
// its hits for the screening's subject: their decision, who proposed and
// who approved, the comments and the version. Without casework, or for a
// form that does not make a query, ctx is returned as it is.
func (h *handler) withCasework(ctx context.Context, f ScreenForm) context.Context {
	cw := h.casework()
	if cw == nil {
		return ctx
	}
	subject := strings.TrimSpace(f.Subject)
	if subject == "" {
		q, _, _, err := f.query()
		if err != nil {
			return ctx
		}
		if q.Fuzzy, err = query.ParseFuzzy(f.Fuzzy); err != nil {
			return ctx
		}
		if subject, err = decision.QuerySubject(q); err != nil {
			return ctx
		}
	}
	return server.WithReportNotes(ctx, func(ids []string) []report.CaseNote {
		var notes []report.CaseNote
		for _, rid := range ids {
			if a, err := cw.AlertFor(subject, rid); err == nil && a != nil {
				notes = append(notes, caseNote(a))
			}
		}
		return notes
	})
}
