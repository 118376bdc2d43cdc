package ui

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/report"
	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/store"
)

// Backend is everything the pages do. The handlers only read forms, call
// it and render what it returns; NewBackend implements it over the
// packages the /v1 API uses, so the workbench has no logic of its own.
//
// Every method but SignIn acts for the signed-in key and sees only what
// that key may: its own decisions, profiles, notifications and usage.
// Errors the user can act on are *Error, shown on the page.
type Backend interface {
	// SignIn checks an API key as the API checks x-api-key: an *Error
	// with status 401 when unknown, 403 when disabled. Sessions call it
	// again on every request, so a key disabled since ends its sessions.
	SignIn(secret string) (*Identity, error)
	// Screen runs the check the form describes and judges its hits by
	// the key's decisions for the form's subject.
	Screen(ctx context.Context, id *Identity, f ScreenForm) (*Screening, error)
	// Report renders the PDF report of the screening the form describes.
	Report(ctx context.Context, id *Identity, f ScreenForm) (pdf []byte, err error)
	// Record returns a record with its source, last change and the key's
	// decisions on it; subject, when given, selects the decision shown.
	Record(ctx context.Context, id *Identity, recordID, subject string) (*RecordView, error)
	// Decide records a decision on the record content the analyst saw:
	// an *Error when the record changed since (Fingerprint differs).
	Decide(ctx context.Context, id *Identity, f DecideForm) (*decision.Decision, error)
	// ExportDecisions writes the key's audit trail as CSV.
	ExportDecisions(ctx context.Context, id *Identity, w io.Writer) error
	// Profiles lists the key's search profiles.
	Profiles(ctx context.Context, id *Identity) ([]monitor.Profile, error)
	// SaveProfile registers or updates a profile as registerIndividual or
	// registerEntity does.
	SaveProfile(ctx context.Context, id *Identity, f ProfileForm) error
	// RemoveProfile removes a profile as removeSearchProfile does.
	RemoveProfile(ctx context.Context, id *Identity, profileID string) error
	// TestWebhook queues a sample notification for a profile id, as
	// testWebhookDelivery does.
	TestWebhook(ctx context.Context, id *Identity, profileID string) error
	// Outbox returns the key's notifications: queued, recently
	// delivered and dead.
	Outbox(ctx context.Context, id *Identity) (*OutboxView, error)
	// Requeue moves the key's dead letter seq, or all of them when seq is
	// 0, back to the queue, and says how many moved.
	Requeue(ctx context.Context, id *Identity, seq uint64) (int, error)
	// Data returns the database's version, sources, last sync and the
	// key's usage.
	Data(ctx context.Context, id *Identity) (*DataView, error)
}

// Identity is a signed-in API key: who decides, whose data is shown.
type Identity struct {
	// ID is the key id (server.KeyID): the owner of decisions and
	// profiles.
	ID string
	// Name is the key's name, recorded as who decided.
	Name string
	// Features are the key's feature flags (record attributes shown).
	Features access.Features
	// secret is the key itself, kept in the server's memory for the
	// session's calls through the /v1 handler; never rendered.
	secret string
}

// Error is a message for the page, with the HTTP status it is sent with.
type Error struct {
	Status  int
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

func errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// ScreenForm is the screening form as submitted: every value as typed.
type ScreenForm struct {
	Type        string // individual, entity or any
	Names       string
	DOB         string
	Gender      string
	Citizenship string
	Fuzzy       string // 0, 1 or 2
	Mode        string // match mode: strict (the default) or scored
	MinScore    string // scored mode's threshold; empty for the default
	Includes    string
	// Subject is the customer or profile id decisions are kept for; empty
	// keeps them for the query itself (decision.QuerySubject).
	Subject string
}

// Empty reports whether the form asks for nothing yet.
func (f ScreenForm) Empty() bool { return f.Names == "" }

// Screening is the answer to a screening, hits judged by decisions.
type Screening struct {
	Form ScreenForm
	// Subject is the subject decisions were looked up for; QuerySubject
	// says it is the query's own.
	Subject      string
	QuerySubject bool
	// Total counts every hit, suppressed ones included; Hits are those
	// shown, Suppressed those left out by false-positive decisions.
	Total      int
	Hits       []HitView
	Suppressed []HitView
	Version    string
	At         time.Time
	// Notes say what the screening did not use (filters an entity check
	// does not take).
	Notes []string
	// Reportable is set when a PDF report can be made of it (individual
	// and entity checks).
	Reportable bool
	// Scored is set for a scored screening, MinScore its threshold.
	Scored   bool
	MinScore float64
}

// HitView is one hit as the results table shows it.
type HitView struct {
	Record *record.Record
	// MatchedField and MatchedName are the name string that matched; Why
	// the word pairs and edits in words (engine.Reason, or for a scored
	// hit engine.ScoreReason.Summary).
	MatchedField string
	MatchedName  string
	Why          string
	// Score is a scored hit's score as shown (two decimals); empty in
	// strict mode.
	Score string
	Edits int
	Exact bool
	// Decision is the current decision on this hit for the subject, nil
	// when none; Changed marks a record that changed since it.
	Decision *decision.Decision
	Changed  bool
	// full is the record as the index holds it, all features: the
	// fingerprints of an alert raised on the hit are of it.
	full *record.Record
}

// RecordView is the record page.
type RecordView struct {
	Record   *record.Record
	Sections []report.Section
	// Source is the record's catalogue entry; nil when the catalogue has
	// none.
	Source     *record.Source
	LastChange LastChange
	// Subject is the subject the page decides for ("" when none was
	// given); Decision its current decision on the record, Changed set
	// when the record changed since.
	Subject  string
	Decision *decision.Decision
	Changed  bool
	// History is every decision of the key on the record, any subject,
	// newest first.
	History []decision.Decision
	// Fingerprint is the content of the record as shown, sent back with
	// a decision.
	Fingerprint string
}

// LastChange says when the record last changed, in words the page
// prints.
type LastChange struct {
	Known   bool // a logged change set touched it: Version, At, Effect
	Version string
	At      time.Time
	Effect  string
	// Since is when the record is known unchanged from, when no change
	// was found: the store's first import (FromFirst), the change log's
	// reach, or how far a search cut short (Cut) went.
	Since     time.Time
	FromFirst bool
	Cut       bool
}

// DecideForm is the decision form as submitted.
type DecideForm struct {
	Subject     string
	RecordID    string
	Status      string
	Note        string
	Fingerprint string
}

// ProfileForm is the monitoring profile form as submitted.
type ProfileForm struct {
	ID     string
	Type   string // individual or entity
	Names  string
	DOB    string
	Gender string
	Fuzzy  string
	// Mode is strict or scored; MinScore scored mode's threshold, empty
	// for the default.
	Mode     string
	MinScore string
}

// OutboxView is the key's notifications.
type OutboxView struct {
	Queued    []*monitor.Entry
	Delivered []Delivery
	Dead      []*monitor.Entry
	// QueuedTotal and DeadTotal count the key's among the notifications
	// read; the lists stop at outboxListLimit. QueuedCapped and DeadCapped
	// say the outbox holds more than the ScanLimit read.
	QueuedTotal, DeadTotal   int
	QueuedCapped, DeadCapped bool
	ScanLimit                int
	// DeliveredSince is when this server started recording deliveries.
	DeliveredSince time.Time
}

// DataView is the data page.
type DataView struct {
	Status  *store.Status
	Sources []record.Source
	Usage   *server.Usage
	// Decisions counts the key's audit trail.
	Decisions int
}
