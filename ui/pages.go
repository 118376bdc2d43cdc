package ui

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
)

func (h *handler) home(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	if s := h.currentSession(r); s != nil {
		http.Redirect(w, r, h.landing(s), http.StatusSeeOther)
	} else {
		http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
	}
	return nil
}

// signinData is the sign-in page.
type signinData struct {
	Next  string
	Token string
	// Idle and TTL say when sessions end, in words.
	Idle, TTL string
	// Users offers the name and password form (the server has casework);
	// OIDC, when set, names the identity provider offered.
	Users bool
	OIDC  string
}

func (h *handler) signinPage(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	h.showSignin(w, r, http.StatusOK, "", r.URL.Query().Get("next"))
	return nil
}

// showSignin renders the sign-in form with a fresh token, which the form
// and a cookie both carry: a sign-in posted from another site has no
// cookie to match.
func (h *handler) showSignin(w http.ResponseWriter, r *http.Request, status int, msg, next string) {
	token := randomToken()
	h.setCookie(w, r, signinCookie, token, 3600)
	h.render(w, "signin", status, page{Title: "Sign in", Error: msg, Data: signinData{Next: localURL(next, ""), Token: token,
		Idle: spell(h.sessions.idle), TTL: spell(h.sessions.ttl), Users: h.cfg.Casework != nil, OIDC: h.oidcName()}})
}

func (h *handler) signin(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	next := localURL(r.PostForm.Get("next"), Prefix+"screen")
	c, err := r.Cookie(signinCookie)
	if err != nil || !sameToken(r.PostForm.Get("token"), c.Value) {
		h.showSignin(w, r, http.StatusForbidden, "The sign-in form expired. Enter your key again.", next)
		return nil
	}
	secret := strings.TrimSpace(r.PostForm.Get("key"))
	if secret == "" {
		h.showSignin(w, r, http.StatusBadRequest, "Enter your API key.", next)
		return nil
	}
	id, err := h.b.SignIn(secret)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return err
		}
		h.log.Warn("workbench sign-in refused", "status", e.Status, "remote", r.RemoteAddr)
		msg := "This API key is not known to this server."
		if e.Status == http.StatusForbidden {
			msg = "This API key is disabled."
		}
		h.showSignin(w, r, e.Status, msg, next)
		return nil
	}
	s, ok := h.sessions.create(secret, id.ID, id.Name, h.now())
	if !ok {
		h.showSignin(w, r, http.StatusServiceUnavailable, "The workbench has too many open sessions; try again later.", next)
		return nil
	}
	h.log.Info("workbench sign-in", "key", id.Name, "remote", r.RemoteAddr)
	h.setCookie(w, r, signinCookie, "", -1)
	h.setCookie(w, r, sessionCookie, s.token, int(h.sessions.ttl/time.Second))
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

func (h *handler) signout(w http.ResponseWriter, r *http.Request, s *session, _ *Identity) error {
	h.sessions.end(s.token)
	h.setCookie(w, r, sessionCookie, "", -1)
	http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
	return nil
}

// screenData is the screen page.
type screenData struct {
	Form   ScreenForm
	Result *Screening
	// Self is this page's address, for links back to it; ReportURL the
	// PDF's.
	Self      string
	ReportURL string
}

// formOf reads the screening form from a query string. A fresh form
// screens individuals with exact matching.
func formOf(q url.Values) ScreenForm {
	f := ScreenForm{Type: q.Get("type"), Names: strings.TrimSpace(q.Get("names")), DOB: strings.TrimSpace(q.Get("dob")),
		Gender: q.Get("gender"), Citizenship: strings.TrimSpace(q.Get("citizenship")), Fuzzy: q.Get("fuzzy"), Mode: q.Get("mode"),
		MinScore: strings.TrimSpace(q.Get("min_score")),
		Includes: strings.TrimSpace(q.Get("includes")), Subject: strings.TrimSpace(q.Get("subject"))}
	if f.Type == "" {
		f.Type = "individual"
	}
	return f
}

// values writes a form as the query string formOf reads.
func (f ScreenForm) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"type": f.Type, "names": f.Names, "dob": f.DOB, "gender": f.Gender, "citizenship": f.Citizenship,
		"fuzzy": f.Fuzzy, "mode": f.Mode, "min_score": f.MinScore, "includes": f.Includes, "subject": f.Subject} {
		if s != "" {
			v.Set(k, s)
		}
	}
	return v
}

func (h *handler) screen(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	f := formOf(r.URL.Query())
	p := h.base(s, id, "Screen", "screen")
	d := screenData{Form: f, Self: Prefix + "screen?" + f.values().Encode()}
	status := http.StatusOK
	if !f.Empty() {
		res, err := h.b.Screen(r.Context(), id, f)
		var e *Error
		switch {
		case errors.As(err, &e):
			p.Error, status = e.Message, e.Status
		case err != nil:
			return err
		default:
			if err := h.screened(s, id, res); err != nil {
				return err
			}
			d.Result = res
			d.ReportURL = Prefix + "report?" + f.values().Encode()
			p.Title = "Screen: " + f.Names
		}
	}
	p.Data = d
	h.render(w, "screen", status, p)
	return nil
}

func (h *handler) report(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	f := formOf(r.URL.Query())
	if f.Empty() {
		return errorf(http.StatusBadRequest, "names: required: screen a name first, then download its report")
	}
	pdf, err := h.b.Report(h.withCasework(r.Context(), f), id, f)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("amlscreen-report-%s.pdf", h.now().UTC().Format("20060102-150405"))
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Content-Length", fmt.Sprint(len(pdf)))
	w.Write(pdf)
	return nil
}

// recordData is the record page.
type recordData struct {
	View *RecordView
	Back string
	// Form holds what was submitted when a decision was refused.
	Form     DecideForm
	Statuses []string
}

func (h *handler) recordPage(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	q := r.URL.Query()
	return h.showRecord(w, r, s, id, q.Get("id"), q.Get("subject"), q.Get("back"), DecideForm{}, http.StatusOK, "")
}

func (h *handler) showRecord(w http.ResponseWriter, r *http.Request, s *session, id *Identity, recordID, subject, back string, form DecideForm, status int, msg string) error {
	v, err := h.b.Record(r.Context(), id, recordID, subject)
	if err != nil {
		return err
	}
	p := h.base(s, id, v.Record.Name, "screen")
	if p.Title == "" {
		p.Title = v.Record.ID
	}
	p.Error = msg
	if form.Status == "" && v.Decision != nil {
		form.Status = v.Decision.Status
	}
	p.Data = recordData{View: v, Back: localURL(back, ""), Form: form, Statuses: decision.Statuses}
	h.render(w, "record", status, p)
	return nil
}

func (h *handler) decide(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	pf := r.PostForm
	f := DecideForm{Subject: strings.TrimSpace(pf.Get("subject")), RecordID: pf.Get("record_id"), Status: pf.Get("status"),
		Note: pf.Get("note"), Fingerprint: pf.Get("fingerprint")}
	back := localURL(pf.Get("back"), "")
	if cw := h.casework(); cw != nil {
		if s.user != "" {
			return h.decideThroughAlert(w, r, s, id, cw, f, back)
		}
		// A site with people reviews decisions with four eyes: a key
		// alone decides only where nobody signs in as herself.
		users, err := cw.Users()
		if err != nil {
			return err
		}
		if len(users) > 0 {
			return h.showRecord(w, r, s, id, f.RecordID, f.Subject, back, f, http.StatusForbidden,
				"This site reviews decisions with four eyes: sign in as yourself and propose on the hit's alert.")
		}
	}
	d, err := h.b.Decide(r.Context(), id, f)
	var e *Error
	if errors.As(err, &e) {
		if e.Status == http.StatusNotFound {
			return err
		}
		return h.showRecord(w, r, s, id, f.RecordID, f.Subject, back, f, e.Status, e.Message)
	}
	if err != nil {
		return err
	}
	whom := d.Subject
	if decision.IsQuerySubject(whom) {
		whom = "this query"
	}
	h.sessions.setFlash(s, fmt.Sprintf("Recorded %s on record %s for %s.", statusLabel(d.Status), d.RecordID, whom))
	next := back
	if next == "" {
		next = Prefix + "record?" + url.Values{"id": {d.RecordID}, "subject": {d.Subject}}.Encode()
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// decideThroughAlert takes a person's decision on a hit to its alert:
// with casework, a decision suppresses or escalates only once a reviewer
// approves it, so the record page's form proposes on the hit's alert
// instead of deciding alone. Escalating is assigning or proposing a true
// match on the alert page.
func (h *handler) decideThroughAlert(w http.ResponseWriter, r *http.Request, s *session, id *Identity, cw *casework.Casework, f DecideForm, back string) error {
	refuse := func(msg string) error {
		return h.showRecord(w, r, s, id, f.RecordID, f.Subject, back, f, http.StatusConflict, msg)
	}
	if f.Status != decision.FalsePositive && f.Status != decision.TrueMatch {
		return refuse("With casework, a hit is handed on through its alert: assign it or propose a true match there.")
	}
	al, err := cw.AlertFor(f.Subject, f.RecordID)
	if err != nil {
		return err
	}
	if al == nil {
		return refuse("No alert holds this hit yet: screen the name, and each hit it returns becomes an alert to propose on.")
	}
	if err := cw.Propose(h.actor(s), []uint64{al.ID}, f.Status, f.Note); err != nil {
		return caseError(err)
	}
	msg := fmt.Sprintf("Proposed %s on alert %d: a reviewer approves or sends it back.", statusLabel(f.Status), al.ID)
	if now, err := cw.Alert(al.ID); err == nil && now.Status == casework.Closed {
		msg = fmt.Sprintf("Closed alert %d as %s: four eyes are off for %s.", al.ID, statusLabel(f.Status), now.Hit.SourceType)
	}
	h.sessions.setFlash(s, msg)
	http.Redirect(w, r, Prefix+"alert?id="+strconv.FormatUint(al.ID, 10), http.StatusSeeOther)
	return nil
}

func (h *handler) exportDecisions(w http.ResponseWriter, r *http.Request, _ *session, id *Identity) error {
	var buf bytes.Buffer
	if err := h.b.ExportDecisions(r.Context(), id, &buf); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="amlscreen-decisions.csv"`)
	w.Write(buf.Bytes())
	return nil
}

// monitoringData is the monitoring page.
type monitoringData struct {
	Profiles []monitor.Profile
	Outbox   *OutboxView
	// Form is the profile form: empty to register, filled to edit.
	Form    ProfileForm
	Editing bool
}

func (h *handler) monitoring(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	var form ProfileForm
	editing := false
	if pid := r.URL.Query().Get("edit"); pid != "" {
		ps, err := h.b.Profiles(r.Context(), id)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if p.ID == pid {
				form, editing = profileForm(p), true
			}
		}
		if !editing {
			return errorf(http.StatusNotFound, "You have no profile %q.", pid)
		}
	}
	return h.showMonitoring(w, r, s, id, form, editing, http.StatusOK, "")
}

func profileForm(p monitor.Profile) ProfileForm {
	f := ProfileForm{ID: p.ID, Type: p.Kind.String(), Names: p.Names, DOB: p.DOB, Gender: strings.ToLower(p.Gender)}
	if p.Fuzzy > 0 {
		f.Fuzzy = fmt.Sprint(p.Fuzzy)
	}
	if p.Match == query.Scored {
		f.Mode = "scored"
		if p.MinScore != 0 {
			f.MinScore = strconv.FormatFloat(p.MinScore, 'f', -1, 64)
		}
	}
	return f
}

func (h *handler) showMonitoring(w http.ResponseWriter, r *http.Request, s *session, id *Identity, form ProfileForm, editing bool, status int, msg string) error {
	ps, err := h.b.Profiles(r.Context(), id)
	if err != nil {
		return err
	}
	ob, err := h.b.Outbox(r.Context(), id)
	if err != nil {
		return err
	}
	if form.Type == "" {
		form.Type = "individual"
	}
	p := h.base(s, id, "Monitoring", "monitoring")
	p.Error = msg
	p.Data = monitoringData{Profiles: ps, Outbox: ob, Form: form, Editing: editing}
	h.render(w, "monitoring", status, p)
	return nil
}

func (h *handler) saveProfile(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	pf := r.PostForm
	f := ProfileForm{ID: strings.TrimSpace(pf.Get("profile_id")), Type: pf.Get("type"), Names: strings.TrimSpace(pf.Get("names")),
		DOB: strings.TrimSpace(pf.Get("dob")), Gender: pf.Get("gender"), Fuzzy: pf.Get("fuzzy"),
		Mode: pf.Get("mode"), MinScore: strings.TrimSpace(pf.Get("min_score"))}
	editing := pf.Get("editing") == "1"
	if err := h.b.SaveProfile(r.Context(), id, f); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return h.showMonitoring(w, r, s, id, f, editing, e.Status, e.Message)
		}
		return err
	}
	verb := "Registered"
	if editing {
		verb = "Updated"
	}
	h.sessions.setFlash(s, fmt.Sprintf("%s profile %s.", verb, f.ID))
	http.Redirect(w, r, Prefix+"monitoring", http.StatusSeeOther)
	return nil
}

func (h *handler) removeProfile(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	pid := r.PostForm.Get("profile_id")
	if err := h.b.RemoveProfile(r.Context(), id, pid); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return h.showMonitoring(w, r, s, id, ProfileForm{}, false, e.Status, e.Message)
		}
		return err
	}
	h.sessions.setFlash(s, fmt.Sprintf("Removed profile %s.", pid))
	http.Redirect(w, r, Prefix+"monitoring", http.StatusSeeOther)
	return nil
}

func (h *handler) testWebhook(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	pid := r.PostForm.Get("profile_id")
	if err := h.b.TestWebhook(r.Context(), id, pid); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return h.showMonitoring(w, r, s, id, ProfileForm{}, false, e.Status, e.Message)
		}
		return err
	}
	h.sessions.setFlash(s, fmt.Sprintf("Queued a sample notification for profile %s: see Pending and Delivered below.", pid))
	http.Redirect(w, r, Prefix+"monitoring#pending", http.StatusSeeOther)
	return nil
}

func (h *handler) requeue(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	var seq uint64
	if v := r.PostForm.Get("seq"); v != "all" {
		var err error
		if seq, err = parseSeq(v); err != nil {
			return err
		}
	}
	n, err := h.b.Requeue(r.Context(), id, seq)
	if err != nil {
		return err
	}
	h.sessions.setFlash(s, fmt.Sprintf("Requeued %d dead %s: they are sent again now.", n, plural(n, "letter", "letters")))
	http.Redirect(w, r, Prefix+"monitoring#dead", http.StatusSeeOther)
	return nil
}

func (h *handler) data(w http.ResponseWriter, r *http.Request, s *session, id *Identity) error {
	v, err := h.b.Data(r.Context(), id)
	if err != nil {
		return err
	}
	p := h.base(s, id, "Data", "data")
	p.Data = v
	h.render(w, "data", http.StatusOK, p)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// spell writes a duration in words: "1 hour", "8 hours", "30 minutes".
func spell(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		n := int(d / time.Hour)
		return fmt.Sprintf("%d %s", n, plural(n, "hour", "hours"))
	case d >= time.Minute:
		n := int(d / time.Minute)
		return fmt.Sprintf("%d %s", n, plural(n, "minute", "minutes"))
	}
	return d.String()
}
