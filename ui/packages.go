package ui

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/report"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/store"
)

// This file is the one place the workbench meets the rest of amlscreen.
// Checks, reports, profile registration, status, sources and usage go
// through the /v1 handler itself, in process, with the session's key: they
// are authenticated, validated, billed, counted and limited exactly as API
// calls, and their errors are the API's messages. What the API has no
// endpoint for (a record by id, the profile list, the outbox, decisions)
// is read from the packages the API is built on.

// Deps are the parts of a running server the workbench uses.
type Deps struct {
	// API is the /v1 handler (server.Server.Handler).
	API http.Handler
	// Keys checks API keys (server.Server).
	Keys interface {
		Authenticate(presented string) (*access.Key, error)
	}
	// DB is the database the API answers from: records by id, for the
	// record page and the fingerprints of decisions.
	DB *screen.Database
	// Store holds decisions, profiles, the outbox and the change log.
	Store *store.Store
	// Monitor lists the key's profiles.
	Monitor *monitor.Monitor
	// Decisions is the book of decisions in Store.
	Decisions *decision.Book
	// Deliveries, when set, lists what this server delivered.
	Deliveries *DeliveryLog
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// outboxListLimit bounds each list of the monitoring page; outboxScanLimit
// the notifications read to find the key's (the outbox is kept by time,
// not by key), so that a page view after a large delta reads a bounded
// part of it.
const (
	outboxListLimit = 100
	outboxScanLimit = 5000
)

type backend struct{ Deps }

// NewBackend returns the Backend over d.
func NewBackend(d Deps) Backend {
	if d.Now == nil {
		d.Now = time.Now
	}
	return &backend{d}
}

func (b *backend) SignIn(secret string) (*Identity, error) {
	k, err := b.Keys.Authenticate(secret)
	if err != nil {
		var se *server.Error
		if errors.As(err, &se) {
			return nil, &Error{Status: se.Status, Message: se.Message}
		}
		return nil, err
	}
	name := k.Name
	if name == "" {
		name = "key " + k.ID()[:8]
	}
	return &Identity{ID: k.ID(), Name: name, Features: k.Features, secret: secret}, nil
}

// call sends a GET to the /v1 handler as the key and returns the body of
// a success, or the API's error as an *Error.
func (b *backend) call(ctx context.Context, id *Identity, path string, params url.Values) ([]byte, error) {
	u := path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	// The workbench logs its screenings itself, with the person.
	req, err := http.NewRequestWithContext(server.WithoutScreeningLog(ctx), http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", id.secret)
	req.RemoteAddr = "workbench"
	w := &answer{header: http.Header{}}
	b.API.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status >= 200 && w.status < 300 {
		return w.body.Bytes(), nil
	}
	var e struct {
		Message string `json:"error_message"`
	}
	if json.Unmarshal(w.body.Bytes(), &e) != nil || e.Message == "" {
		e.Message = http.StatusText(w.status)
	}
	return nil, &Error{Status: w.status, Message: e.Message}
}

// answer collects a response of the /v1 handler.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answer) Header() http.Header { return a.header }
func (a *answer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}
func (a *answer) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(p)
}
func (a *answer) Flush() {}

// checkPaths are the /v1 checks by kind.
var checkPaths = map[query.Kind]string{query.Individual: server.PathCheckIndividual, query.Entity: server.PathCheckEntity, query.Any: server.PathCheckName}

// query reads the form into the parameters of the check and the engine
// query that explains its hits. Filters an entity check does not take are
// left out, with a note when given.
func (f ScreenForm) query() (query.Query, url.Values, []string, error) {
	kind, err := query.ParseKind(f.Type)
	if err != nil {
		return query.Query{}, nil, nil, paramError(err)
	}
	match, err := query.ParseMatch(strings.TrimSpace(f.Mode))
	if err != nil {
		return query.Query{}, nil, nil, paramError(err)
	}
	p := url.Values{}
	set := func(k, v string) {
		if v != "" {
			p.Set(k, v)
		}
	}
	set("names", f.Names)
	set("fuzzy_search", f.Fuzzy)
	set("includes", f.Includes)
	q := query.Query{Kind: kind, Names: f.Names, Match: match}
	if match == query.Scored {
		p.Set("match", "scored")
	}
	// A threshold goes to the API in either mode: without scored mode it
	// is refused there, never ignored.
	set("min_score", f.MinScore)
	if q.MinScore, err = query.ParseMinScore(f.MinScore); err != nil {
		return query.Query{}, nil, nil, paramError(err)
	}
	var notes []string
	if kind == query.Entity {
		if f.DOB != "" || f.Gender != "" || f.Citizenship != "" {
			notes = append(notes, "Date of birth, gender and citizenship filter individuals; an entity screening does not use them.")
		}
	} else {
		set("dob", f.DOB)
		set("gender", f.Gender)
		set("citizenship", f.Citizenship)
		q.DOB, q.Gender, q.Citizenship = f.DOB, f.Gender, f.Citizenship
	}
	return q, p, notes, nil
}

func paramError(err error) error {
	var pe *query.ParamError
	if errors.As(err, &pe) {
		return &Error{Status: http.StatusBadRequest, Message: pe.Error()}
	}
	var fe *decision.FieldError
	if errors.As(err, &fe) {
		return &Error{Status: http.StatusBadRequest, Message: fe.Error()}
	}
	return err
}

// Screen runs a screening for the signed-in key: the check through the
// /v1 handler, then the key's decisions on each hit.
//
// It stays long: the query, the check through the API handler, the
// decisions on each hit and the page's view of them are one screening,
// which the record and report pages repeat from the same form.
func (b *backend) Screen(ctx context.Context, id *Identity, f ScreenForm) (*Screening, error) {
	q, params, notes, err := f.query()
	if err != nil {
		return nil, err
	}
	subject := strings.TrimSpace(f.Subject)
	if subject != "" {
		if err := decision.ValidSubject(subject); err != nil {
			return nil, paramError(err)
		}
	}
	version := b.DB.Version()
	body, err := b.call(ctx, id, checkPaths[q.Kind], params)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Timestamp string            `json:"timestamp"`
		Total     int               `json:"total_hits"`
		Found     []json.RawMessage `json:"found_records"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("check answer: %w", err)
	}
	// The API accepted the query, so it compiles.
	if q.Fuzzy, err = query.ParseFuzzy(f.Fuzzy); err != nil {
		return nil, paramError(err)
	}
	var cq *engine.CompiledQuery
	if q.Match != query.Scored {
		if cq, err = engine.CompileQuery(q); err != nil {
			return nil, paramError(err)
		}
	}
	s := &Screening{Form: f, Subject: subject, Total: resp.Total, Version: version, At: b.Now().UTC(), Notes: notes,
		Reportable: q.Kind != query.Any, Scored: q.Match == query.Scored, MinScore: q.MinScore}
	if s.Scored && s.MinScore == 0 {
		s.MinScore = query.DefaultMinScore
	}
	if q.Kind == query.Individual && q.Citizenship != "" {
		s.Notes = append(s.Notes, "The PDF report is the API's generateIndividualReport, which takes no citizenship filter: it lists hits of any citizenship.")
	}
	if s.Subject == "" {
		if s.Subject, err = decision.QuerySubject(q); err != nil {
			return nil, paramError(err)
		}
		s.QuerySubject = true
	}
	current, err := b.Decisions.Current(id.ID, s.Subject)
	if err != nil {
		return nil, err
	}
	ix := b.DB.Index()
	for _, raw := range resp.Found {
		shown := new(record.Record)
		if err := shown.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("check answer: %w", err)
		}
		// The index's record is the whole content: the fingerprints are
		// of it, never of the key's view with features stripped.
		full := ix.Get(shown.ID)
		if full == nil {
			full = shown
		}
		h := HitView{Record: shown, full: full}
		if s.Scored {
			var scored struct {
				Score  float64             `json:"match_score"`
				Reason *engine.ScoreReason `json:"match_reason"`
			}
			if err := json.Unmarshal(raw, &scored); err != nil {
				return nil, fmt.Errorf("check answer: %w", err)
			}
			delete(shown.Extra, "match_score")
			delete(shown.Extra, "match_reason")
			h.Score = engine.FormatScore(scored.Score)
			if r := scored.Reason; r != nil {
				h.MatchedField, h.MatchedName, h.Why = r.Field, r.Name, r.Summary()
			}
		} else if m, ok := cq.Match(engine.PrepareRecord(full)); ok {
			h.MatchedField, h.MatchedName, h.Why, h.Edits, h.Exact = m.Field, m.Text, engine.Reason(m), m.Edits(), m.Exact()
		}
		var d *decision.Decision
		if cur, ok := current[shown.ID]; ok {
			d = &cur
		}
		o := decision.Judge(d, full)
		h.Decision, h.Changed = o.Decision, o.Changed
		if o.Suppressed {
			s.Suppressed = append(s.Suppressed, h)
		} else {
			s.Hits = append(s.Hits, h)
		}
	}
	return s, nil
}

func (b *backend) Report(ctx context.Context, id *Identity, f ScreenForm) ([]byte, error) {
	q, params, _, err := f.query()
	if err != nil {
		return nil, err
	}
	path := map[query.Kind]string{query.Individual: server.PathGenerateIndividualReport, query.Entity: server.PathGenerateEntityReport}[q.Kind]
	if path == "" {
		return nil, errorf(http.StatusBadRequest, "type: a report is made of an individual or an entity screening; choose one")
	}
	// generateIndividualReport takes no citizenship (docs/API.md "Check responses").
	params.Del("citizenship")
	body, err := b.call(ctx, id, path, params)
	if err != nil {
		return nil, err
	}
	pdf, err := base64.StdEncoding.DecodeString(string(body))
	if err != nil {
		return nil, fmt.Errorf("report answer: %w", err)
	}
	return pdf, nil
}

// sources returns the catalogue as the key's getSourceList answers it.
func (b *backend) sources(ctx context.Context, id *Identity) ([]record.Source, error) {
	body, err := b.call(ctx, id, server.PathGetSourceList, url.Values{"scope": {"all"}})
	if err != nil {
		return nil, err
	}
	var out []record.Source
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("source list: %w", err)
	}
	return out, nil
}

// forKey strips the attributes the key's features do not enable, as the
// API's answers do.
func forKey(id *Identity, r *record.Record) *record.Record {
	c := r.Clone()
	if !id.Features.PEPLevel {
		c.PEPLevel = 0
	}
	if !id.Features.SourceCountry {
		c.SourceCountry = ""
	}
	return c
}

func (b *backend) Record(ctx context.Context, id *Identity, recordID, subject string) (*RecordView, error) {
	if err := record.ValidID(recordID); err != nil {
		return nil, errorf(http.StatusBadRequest, "record id: %v", err)
	}
	full := b.DB.Index().Get(recordID)
	if full == nil {
		return nil, errorf(http.StatusNotFound, "The database holds no record %s: it may have been deleted by the last update.", query.QuoteValue(recordID))
	}
	subject = strings.TrimSpace(subject)
	if subject != "" {
		if err := decision.ValidSubject(subject); err != nil {
			return nil, paramError(err)
		}
	}
	srcs, err := b.sources(ctx, id)
	if err != nil {
		return nil, err
	}
	shown := forKey(id, full)
	v := &RecordView{Record: shown, Sections: report.Sections(shown, srcs), Subject: subject, Fingerprint: decision.Content(full)}
	for i := range srcs {
		if srcs[i].Source == full.SourceID {
			v.Source = &srcs[i]
		}
	}
	lc, err := b.Store.LastChanged(recordID)
	if err != nil {
		return nil, err
	}
	if lc.Found {
		v.LastChange = LastChange{Known: true, Version: lc.Version.ID, At: lc.Version.AppliedAt, Effect: lc.Effect}
	} else {
		v.LastChange = LastChange{Since: lc.Reach.AppliedAt, FromFirst: lc.FromFirst, Cut: lc.Cut, Version: lc.Reach.ID}
	}
	if subject != "" {
		cur, err := b.Decisions.Current(id.ID, subject)
		if err != nil {
			return nil, err
		}
		if d, ok := cur[recordID]; ok {
			o := decision.Judge(&d, full)
			v.Decision, v.Changed = o.Decision, o.Changed
		}
	}
	if v.History, err = b.Decisions.OnRecord(id.ID, recordID); err != nil {
		return nil, err
	}
	slices.Reverse(v.History)
	return v, nil
}

func (b *backend) Decide(ctx context.Context, id *Identity, f DecideForm) (*decision.Decision, error) {
	status, err := decision.ParseStatus(f.Status)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "Choose what you decided: false positive, true match or escalated.")
	}
	subject := strings.TrimSpace(f.Subject)
	if subject == "" {
		return nil, errorf(http.StatusBadRequest, "subject: required: the customer or profile id, or the query, the decision is about")
	}
	if err := record.ValidID(f.RecordID); err != nil {
		return nil, errorf(http.StatusBadRequest, "record id: %v", err)
	}
	full := b.DB.Index().Get(f.RecordID)
	if full == nil {
		return nil, errorf(http.StatusNotFound, "The database holds no record %s any more: it was deleted by an update.", query.QuoteValue(f.RecordID))
	}
	if fp := decision.Content(full); f.Fingerprint != fp {
		return nil, errorf(http.StatusConflict, "This record changed while you were reviewing it. Review its new content below and decide again.")
	}
	d, _, err := b.Decisions.Decide(decision.Decision{
		Owner: id.ID, Subject: subject, RecordID: full.ID, Status: status, Note: strings.TrimSpace(f.Note), Who: id.Name,
		Fingerprint: decision.Content(full), IdentityFingerprint: decision.Identity(full),
	})
	if err != nil {
		return nil, paramError(err)
	}
	return &d, nil
}

func (b *backend) ExportDecisions(ctx context.Context, id *Identity, w io.Writer) error {
	_, err := b.Decisions.Export(w, id.ID, decision.CSV)
	return err
}

func (b *backend) Profiles(ctx context.Context, id *Identity) ([]monitor.Profile, error) {
	return b.Monitor.Profiles(id.ID)
}

func (b *backend) SaveProfile(ctx context.Context, id *Identity, f ProfileForm) error {
	p := url.Values{}
	set := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			p.Set(k, v)
		}
	}
	set("profile_id", f.ID)
	set("names", f.Names)
	set("fuzzy_search", f.Fuzzy)
	if strings.EqualFold(strings.TrimSpace(f.Mode), "scored") {
		p.Set("match", "scored")
	} else {
		set("match", f.Mode) // strict, or a value the API refuses
	}
	set("min_score", f.MinScore)
	path := ""
	switch strings.ToLower(f.Type) {
	case "individual":
		path = server.PathRegisterIndividual
		set("dob", f.DOB)
		set("gender", f.Gender)
	case "entity":
		path = server.PathRegisterEntity
		if f.DOB != "" || f.Gender != "" {
			return errorf(http.StatusBadRequest, "An entity profile takes no date of birth or gender; clear them or choose Individual.")
		}
	default:
		return errorf(http.StatusBadRequest, "type: profiles are individual or entity")
	}
	_, err := b.call(ctx, id, path, p)
	return err
}

func (b *backend) TestWebhook(ctx context.Context, id *Identity, profileID string) error {
	_, err := b.call(ctx, id, server.PathTestWebhookDelivery, url.Values{"profile_id": {profileID}})
	return err
}

func (b *backend) RemoveProfile(ctx context.Context, id *Identity, profileID string) error {
	_, err := b.call(ctx, id, server.PathRemoveSearchProfile, url.Values{"profile_id": {profileID}})
	return err
}

// ofOwner keeps owner's entries, at most limit, and counts them all.
func ofOwner(es []*monitor.Entry, owner string, limit int) ([]*monitor.Entry, int) {
	var out []*monitor.Entry
	n := 0
	for _, e := range es {
		if e.Owner != owner {
			continue
		}
		n++
		if len(out) < limit {
			out = append(out, e)
		}
	}
	return out, n
}

func (b *backend) Outbox(ctx context.Context, id *Identity) (*OutboxView, error) {
	ob := monitor.NewOutbox(b.Store)
	queued, err := ob.Queued(outboxScanLimit)
	if err != nil {
		return nil, err
	}
	dead, err := ob.Dead(outboxScanLimit)
	if err != nil {
		return nil, err
	}
	v := &OutboxView{QueuedCapped: len(queued) == outboxScanLimit, DeadCapped: len(dead) == outboxScanLimit, ScanLimit: outboxScanLimit}
	v.Queued, v.QueuedTotal = ofOwner(queued, id.ID, outboxListLimit)
	v.Dead, v.DeadTotal = ofOwner(dead, id.ID, outboxListLimit)
	v.Delivered, v.DeliveredSince = b.Deliveries.Of(id.ID, outboxListLimit)
	return v, nil
}

// requeueScanLimit bounds the dead letters one requeue reads; a key with
// more requeues again for the rest.
const requeueScanLimit = 50000

func (b *backend) Requeue(ctx context.Context, id *Identity, seq uint64) (int, error) {
	ob := monitor.NewOutbox(b.Store)
	dead, err := ob.Dead(requeueScanLimit)
	if err != nil {
		return 0, err
	}
	var seqs []uint64
	for _, e := range dead {
		if e.Owner == id.ID && (seq == 0 || e.Seq == seq) {
			seqs = append(seqs, e.Seq)
		}
	}
	if len(seqs) == 0 {
		if seq != 0 {
			return 0, errorf(http.StatusNotFound, "There is no dead letter %d of yours: it may have been requeued already.", seq)
		}
		return 0, nil
	}
	// Never an empty list: that would requeue every key's dead letters.
	return ob.Requeue(b.Now(), seqs...)
}

func (b *backend) Data(ctx context.Context, id *Identity) (*DataView, error) {
	v := &DataView{}
	body, err := b.call(ctx, id, server.PathStatus, nil)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &v.Status); err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	if v.Sources, err = b.sources(ctx, id); err != nil {
		return nil, err
	}
	if body, err = b.call(ctx, id, server.PathUsage, nil); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, &v.Usage); err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	if v.Decisions, err = b.Decisions.Count(id.ID); err != nil {
		return nil, err
	}
	return v, nil
}

// parseSeq reads a dead letter's number from a form.
func parseSeq(s string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n == 0 {
		return 0, errorf(http.StatusBadRequest, "dead letter %s is not a number", query.QuoteValue(s))
	}
	return n, nil
}
