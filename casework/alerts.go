package casework

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Statuses of an alert.
const (
	Open     = "open"     // to be worked
	Proposed = "proposed" // an outcome is proposed and waits for a reviewer
	Closed   = "closed"   // the outcome is decided
)

// Origins of an alert.
const (
	OriginBatch     = "batch"
	OriginMonitor   = "monitor"
	OriginScreening = "screening"
)

// Outcomes a proposal may name: the statuses of package decision that
// casework records.
const (
	FalsePositive = decision.FalsePositive
	TrueMatch     = decision.TrueMatch
)

// SiteOwner is the decision owner of alerts raised without one (a batch
// run without --key): their approved decisions are the site's.
const SiteOwner = "casework"

// Query is what was screened, as the alert shows it.
type Query struct {
	Kind        string `json:"kind,omitempty"` // individual, entity or any
	Names       string `json:"names"`
	DOB         string `json:"dob,omitempty"`
	Gender      string `json:"gender,omitempty"`
	Citizenship string `json:"citizenship,omitempty"`
}

// Hit is the record an alert is about and why it matched.
type Hit struct {
	RecordID     string   `json:"record_id"`
	RecordName   string   `json:"record_name,omitempty"`
	SourceID     string   `json:"source_id,omitempty"`
	SourceType   string   `json:"source_type,omitempty"`
	EntityType   string   `json:"entity_type,omitempty"`
	MatchedField string   `json:"matched_field,omitempty"`
	MatchedName  string   `json:"matched_name,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	Score        *float64 `json:"score,omitempty"` // scored runs only
}

// HitOn is the Hit on record r through its name string field (whose text
// is name), with why it matched and, in scored runs, its score: the one
// place the record's fields are copied into an alert.
func HitOn(r *record.Record, field, name, reason string, score *float64) Hit {
	return Hit{RecordID: r.ID, RecordName: r.Name, SourceID: r.SourceID, SourceType: r.SourceType, EntityType: r.EntityType,
		MatchedField: field, MatchedName: name, Reason: reason, Score: score}
}

// Proposal is an outcome an analyst proposed.
type Proposal struct {
	Outcome string    `json:"outcome"`
	Reason  string    `json:"reason"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// Closure is how a closed alert was decided.
type Closure struct {
	Proposal
	// ApprovedBy is the reviewer; the proposer when four eyes were off
	// for the hit's source type.
	ApprovedBy string    `json:"approved_by"`
	ApprovedAt time.Time `json:"approved_at"`
	FourEyes   bool      `json:"four_eyes"`
}

// Comment is a note on an alert.
type Comment struct {
	By   string    `json:"by"`
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// Alert is one hit under review.
type Alert struct {
	ID      uint64 `json:"id"`
	Status  string `json:"status"`
	Subject string `json:"subject"`
	// Owner is the decision owner (an API key id, or SiteOwner) whose
	// decisions an approval adds to.
	Owner   string `json:"owner"`
	Query   Query  `json:"query"`
	Hit     Hit    `json:"hit"`
	Version string `json:"version"`
	Origin  string `json:"origin"`
	// Fingerprint and IdentityFingerprint are decision.Content and
	// decision.Identity of the record as the hit found it.
	Fingerprint         string    `json:"fingerprint"`
	IdentityFingerprint string    `json:"identity_fingerprint"`
	Created             time.Time `json:"created"`
	Updated             time.Time `json:"updated"`
	Assignee            string    `json:"assignee,omitempty"`
	Proposal            *Proposal `json:"proposal,omitempty"`
	Closure             *Closure  `json:"closure,omitempty"`
	Comments            []Comment `json:"comments,omitempty"`
	// Reopened counts the times the record changed after the alert was
	// raised.
	Reopened int `json:"reopened,omitempty"`
}

// Escalated reports whether a is a true match, approved.
func (a *Alert) Escalated() bool {
	return a.Status == Closed && a.Closure != nil && a.Closure.Outcome == TrueMatch
}

// NewAlert is a hit to raise: what Raise takes.
type NewAlert struct {
	Subject string
	Owner   string // "" means SiteOwner
	Origin  string
	Version string
	Query   Query
	Hit     Hit
	// Record is the record as the hit found it: its fingerprints decide
	// whether an existing alert is reopened.
	Record *record.Record
}

func (n *NewAlert) validate() error {
	if err := decision.ValidSubject(n.Subject); err != nil {
		return err
	}
	if n.Record == nil || n.Record.ID != n.Hit.RecordID {
		return &FieldError{Field: "record", Msg: fmt.Sprintf("the record of hit %q is missing", n.Hit.RecordID)}
	}
	if err := record.ValidID(n.Hit.RecordID); err != nil {
		return &FieldError{Field: "record_id", Msg: err.Error()}
	}
	switch n.Origin {
	case OriginBatch, OriginMonitor, OriginScreening:
	default:
		return &FieldError{Field: "origin", Msg: fmt.Sprintf("%q is not batch, monitor or screening", n.Origin)}
	}
	if len(n.Owner) > decision.MaxOwnerBytes || len(n.Version) > maxText || len(n.Query.Names) > maxText {
		return &FieldError{Field: "query", Msg: "too long"}
	}
	return nil
}

// RaiseResult counts what a Raise did.
type RaiseResult struct {
	Raised    int // new alerts
	Reopened  int // alerts whose record changed since
	Unchanged int // alerts already raised on this content
}

// Raise adds the hits as alerts, in one transaction with their audit
// entries, by actor (the run or person that screened). A hit with an
// alert of the same (subject, record) raises no second one: it is left as
// it is when the record's content is the one it was raised or decided on,
// and is reopened (status open, proposal cleared, the hit and version
// updated) when the content changed. A bad hit refuses the whole call.
func (c *Casework) Raise(actor string, hits []NewAlert) (RaiseResult, error) {
	var res RaiseResult
	raise, err := raiser(actor, hits, &res)
	if err != nil {
		return RaiseResult{}, err
	}
	if err := c.update(raise); err != nil {
		return RaiseResult{}, fmt.Errorf("raise alerts: %w", err)
	}
	return res, nil
}

// RaiseTx is Raise inside tx, a write transaction of the store the
// casework is of: a store change hook raises the alerts of a change set
// in the change's own transaction, so that a kill loses neither.
func (c *Casework) RaiseTx(tx *store.Tx, actor string, hits []NewAlert) (RaiseResult, error) {
	var res RaiseResult
	raise, err := raiser(actor, hits, &res)
	if err != nil {
		return RaiseResult{}, err
	}
	log := &auditWriter{tx: tx, now: c.now().UTC()}
	err = raise(tx, log.now, log)
	if err == nil {
		err = log.close()
	}
	if err != nil {
		return RaiseResult{}, fmt.Errorf("raise alerts: %w", err)
	}
	return res, nil
}

// raiser checks the hits and returns the transaction body that raises
// them, counting into res: see Raise.
func raiser(actor string, hits []NewAlert, res *RaiseResult) (func(tx *store.Tx, now time.Time, log *auditWriter) error, error) {
	if actor == "" {
		return nil, &FieldError{Field: "actor", Msg: "required"}
	}
	for i := range hits {
		if err := hits[i].validate(); err != nil {
			return nil, fmt.Errorf("hit %d (%s): %w", i+1, hits[i].Hit.RecordID, err)
		}
	}
	// Fingerprints and encodings outside the transaction, which holds the
	// store's one writer.
	type prepared struct {
		n         *NewAlert
		key       []byte
		fp, ident string
	}
	ps := make([]prepared, len(hits))
	for i := range hits {
		n := &hits[i]
		ps[i] = prepared{n: n, key: alertKey(n.Subject, n.Hit.RecordID), fp: decision.Content(n.Record), ident: decision.Identity(n.Record)}
	}
	return func(tx *store.Tx, now time.Time, log *auditWriter) error {
		*res = RaiseResult{}
		alerts, err := store.Alerts.Create(tx)
		if err != nil {
			return err
		}
		keys, err := store.AlertKeys.Create(tx)
		if err != nil {
			return err
		}
		byRecord, err := store.AlertRecords.Create(tx)
		if err != nil {
			return err
		}
		for _, p := range ps {
			n := p.n
			if idb := keys.Get(p.key); idb != nil {
				a, err := getAlert(alerts, binary.BigEndian.Uint64(idb))
				if err != nil {
					return err
				}
				if a.Fingerprint == p.fp {
					res.Unchanged++
					continue
				}
				was := a.Status
				a.Status, a.Proposal = Open, nil
				a.Hit, a.Query, a.Version, a.Origin = n.Hit, n.Query, n.Version, n.Origin
				a.Fingerprint, a.IdentityFingerprint = p.fp, p.ident
				a.Updated = now
				a.Reopened++
				if err := putAlert(tx, a); err != nil {
					return err
				}
				res.Reopened++
				if err := log.add(Entry{Actor: actor, Action: ActionReopen, Alert: a.ID, Subject: a.Subject, RecordID: a.Hit.RecordID,
					Status: Open, Version: n.Version, Detail: "the record changed since the alert was " + was}); err != nil {
					return err
				}
				continue
			}
			id, err := alerts.NextSequence()
			if err != nil {
				return err
			}
			owner := n.Owner
			if owner == "" {
				owner = SiteOwner
			}
			a := &Alert{ID: id, Status: Open, Subject: n.Subject, Owner: owner, Query: n.Query, Hit: n.Hit,
				Version: n.Version, Origin: n.Origin, Fingerprint: p.fp, IdentityFingerprint: p.ident,
				Created: now, Updated: now}
			if err := putAlert(tx, a); err != nil {
				return err
			}
			if err := keys.Put(p.key, idKey(id)); err != nil {
				return err
			}
			if err := byRecord.Put(recordKey(n.Hit.RecordID, n.Subject), idKey(id)); err != nil {
				return err
			}
			res.Raised++
			if err := log.add(Entry{Actor: actor, Action: ActionRaise, Alert: id, Subject: n.Subject, RecordID: n.Hit.RecordID,
				Status: Open, Version: n.Version, Detail: n.Origin}); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func alertKey(subject, recordID string) []byte {
	k := make([]byte, 0, len(subject)+1+len(recordID))
	k = append(k, subject...)
	k = append(k, 0)
	return append(k, recordID...)
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

func getAlert(bk *store.Bucket, id uint64) (*Alert, error) {
	var v []byte
	if bk != nil {
		v = bk.Get(idKey(id))
	}
	if v == nil {
		return nil, fmt.Errorf("alert %d: %w", id, ErrNotFound)
	}
	var a Alert
	if err := json.Unmarshal(v, &a); err != nil {
		return nil, fmt.Errorf("alert %d: %w", id, err)
	}
	return &a, nil
}

// putAlert stores a and its summary in tx.
func putAlert(tx *store.Tx, a *Alert) error {
	v, err := json.Marshal(a)
	if err != nil {
		return err
	}
	bk, err := store.Alerts.Create(tx)
	if err != nil {
		return err
	}
	if err := bk.Put(idKey(a.ID), v); err != nil {
		return err
	}
	ix, err := store.AlertIndex.Create(tx)
	if err != nil {
		return err
	}
	return ix.Put(idKey(a.ID), encodeSummary(summaryOf(a)))
}

// Alert returns the alert id.
func (c *Casework) Alert(id uint64) (*Alert, error) {
	var a *Alert
	err := c.db.Read(func(tx *store.Tx) error {
		var err error
		a, err = getAlert(store.Alerts.Bucket(tx), id)
		return err
	})
	return a, err
}

// AlertFor returns the alert of (subject, recordID), or nil.
func (c *Casework) AlertFor(subject, recordID string) (*Alert, error) {
	var a *Alert
	err := c.db.Read(func(tx *store.Tx) error {
		keys := store.AlertKeys.Bucket(tx)
		if keys == nil {
			return nil
		}
		idb := keys.Get(alertKey(subject, recordID))
		if idb == nil {
			return nil
		}
		var err error
		a, err = getAlert(store.Alerts.Bucket(tx), binary.BigEndian.Uint64(idb))
		return err
	})
	return a, err
}

// Filter selects alerts; empty fields select everything.
type Filter struct {
	Status     string // open, proposed or closed
	Origin     string // batch, monitor or screening
	Assignee   string
	SourceType string
	// MinScore selects alerts of scored runs scoring at least this.
	MinScore float64
	// MaxScore, when set, selects alerts of scored runs scoring at most
	// this.
	MaxScore float64
	// Unassigned selects alerts assigned to nobody.
	Unassigned bool
	// CreatedAfter and CreatedBefore bound the creation time: [after,
	// before).
	CreatedAfter, CreatedBefore time.Time
	// Escalated selects closed true matches only.
	Escalated bool
}

// Validate checks the values of f.
func (f Filter) Validate() error {
	if f.Status != "" && !slices.Contains([]string{Open, Proposed, Closed}, f.Status) {
		return &FieldError{Field: "status", Msg: fmt.Sprintf("%q is not open, proposed or closed", f.Status)}
	}
	if f.Origin != "" && !slices.Contains([]string{OriginBatch, OriginMonitor, OriginScreening}, f.Origin) {
		return &FieldError{Field: "origin", Msg: fmt.Sprintf("%q is not batch, monitor or screening", f.Origin)}
	}
	if f.MinScore < 0 || f.MinScore > 1 {
		return &FieldError{Field: "min_score", Msg: fmt.Sprintf("%v is not between 0 and 1", f.MinScore)}
	}
	if f.MaxScore < 0 || f.MaxScore > 1 {
		return &FieldError{Field: "max_score", Msg: fmt.Sprintf("%v is not between 0 and 1", f.MaxScore)}
	}
	if f.Unassigned && f.Assignee != "" {
		return &FieldError{Field: "assignee", Msg: "unassigned and an assignee exclude each other"}
	}
	return nil
}

// EachAlert calls fn for every alert f selects, by id; the selection is
// made on the summaries (BucketAlertIndex), and only the alerts selected
// are decoded.
func (c *Casework) EachAlert(f Filter, fn func(*Alert) error) error {
	if err := f.Validate(); err != nil {
		return err
	}
	return c.db.Read(func(tx *store.Tx) error {
		bk := store.Alerts.Bucket(tx)
		return eachSummary(tx, f, func(s *rawSummary) error {
			a, err := getAlert(bk, s.id)
			if err != nil {
				return err
			}
			return fn(a)
		})
	})
}

// Alerts returns the alerts f selects, by id.
func (c *Casework) Alerts(f Filter) ([]*Alert, error) {
	var out []*Alert
	err := c.EachAlert(f, func(a *Alert) error {
		out = append(out, a)
		return nil
	})
	return out, err
}

// ErrNoAlerts is returned by changes that name no alert.
var ErrNoAlerts = errors.New("no alert given")
