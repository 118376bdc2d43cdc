package casework

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/store"
)

// change runs fn on each alert of ids in one transaction with the audit
// log, after authorize(a, min); fn changes the alert and returns the
// entry to log. A refusal of any alert refuses them all.
func (c *Casework) change(a Actor, min string, ids []uint64, fn func(tx *store.Tx, u *UserInfo, al *Alert, now time.Time) (Entry, error)) error {
	return c.changeMany(a, min, ids, func(tx *store.Tx, u *UserInfo, al *Alert, now time.Time) ([]Entry, error) {
		e, err := fn(tx, u, al, now)
		return []Entry{e}, err
	})
}

// changeMany is change for changes that log more than one entry.
func (c *Casework) changeMany(a Actor, min string, ids []uint64, fn func(tx *store.Tx, u *UserInfo, al *Alert, now time.Time) ([]Entry, error)) error {
	if len(ids) == 0 {
		return ErrNoAlerts
	}
	return c.update(func(tx *store.Tx, now time.Time, log *auditWriter) error {
		u, err := authorize(tx, a, min, false)
		if err != nil {
			return err
		}
		bk := store.Alerts.Bucket(tx)
		for _, id := range ids {
			al, err := getAlert(bk, id)
			if err != nil {
				return err
			}
			es, err := fn(tx, u, al, now)
			if err != nil {
				return fmt.Errorf("alert %d: %w", id, err)
			}
			al.Updated = now
			if err := putAlert(tx, al); err != nil {
				return err
			}
			for _, e := range es {
				e.Actor, e.Alert, e.Subject, e.RecordID = a.String(), al.ID, al.Subject, al.Hit.RecordID
				if e.Status == "" {
					e.Status = al.Status
				}
				if err := log.add(e); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Assign gives the alerts ids to the user assignee ("" takes them back),
// in one transaction. An analyst may assign only to herself; reviewers and
// admins to any active user. Closed alerts are not assigned.
func (c *Casework) Assign(a Actor, ids []uint64, assignee string) error {
	return c.change(a, Analyst, ids, func(tx *store.Tx, u *UserInfo, al *Alert, _ time.Time) (Entry, error) {
		if al.Status == Closed {
			return Entry{}, fmt.Errorf("closed: %w", ErrState)
		}
		if u.Role == Analyst && assignee != "" && assignee != u.Name {
			return Entry{}, fmt.Errorf("an analyst assigns alerts to herself only: %w", ErrForbidden)
		}
		if u.Role == Analyst && assignee == "" && al.Assignee != "" && al.Assignee != u.Name {
			return Entry{}, fmt.Errorf("assigned to %s: %w", al.Assignee, ErrForbidden)
		}
		if assignee != "" {
			to, err := userIn(tx, assignee)
			if err != nil {
				return Entry{}, err
			}
			if to.Disabled {
				return Entry{}, fmt.Errorf("user %q is disabled: %w", assignee, ErrForbidden)
			}
		}
		al.Assignee = assignee
		detail := "to " + assignee
		if assignee == "" {
			detail = "unassigned"
		}
		return Entry{Action: ActionAssign, User: assignee, Detail: detail}, nil
	})
}

// Comment adds text to the alert id; any active user may.
func (c *Casework) Comment(a Actor, id uint64, text string) error {
	if err := decision.CheckText("comment", text, maxText, true); err != nil {
		return err
	}
	return c.change(a, Analyst, []uint64{id}, func(_ *store.Tx, u *UserInfo, al *Alert, now time.Time) (Entry, error) {
		al.Comments = append(al.Comments, Comment{By: u.Name, At: now, Text: text})
		return Entry{Action: ActionComment, Detail: text}, nil
	})
}

// Propose proposes outcome (false_positive or true_match) with reason for
// the open alerts ids, in one transaction. When four eyes are off for an
// alert's source type the proposal closes it at once, as an approval
// would; otherwise it waits for a reviewer.
func (c *Casework) Propose(a Actor, ids []uint64, outcome, reason string) error {
	if outcome != FalsePositive && outcome != TrueMatch {
		return &FieldError{Field: "outcome", Msg: fmt.Sprintf("%q is not false_positive or true_match", outcome)}
	}
	if err := decision.CheckText("reason", reason, decision.MaxNoteBytes-200, true); err != nil {
		return err
	}
	var off []string
	return c.changeMany(a, Analyst, ids, func(tx *store.Tx, u *UserInfo, al *Alert, now time.Time) ([]Entry, error) {
		if al.Status != Open {
			return nil, fmt.Errorf("%s: %w", al.Status, ErrState)
		}
		if off == nil {
			var err error
			if off, err = fourEyesOffIn(tx); err != nil {
				return nil, err
			}
		}
		p := Proposal{Outcome: outcome, Reason: reason, By: u.Name, At: now}
		if slices.Contains(off, al.Hit.SourceType) {
			d, err := closeAlert(tx, al, p, u.Name, now, false)
			if err != nil {
				return nil, err
			}
			return []Entry{{Action: ActionClose, Detail: outcome + ": " + reason + " (four eyes off for " + al.Hit.SourceType + ")"}, d}, nil
		}
		al.Status, al.Proposal = Proposed, &p
		return []Entry{{Action: ActionPropose, Detail: outcome + ": " + reason}}, nil
	})
}

// Approve approves the proposals on the alerts ids and closes them, in one
// transaction with the decisions they make: a reviewer or admin who is not
// the proposer may. A false positive becomes a decision of the alert's
// owner on the record content the alert was raised on, which suppresses the
// hit in later screenings while the record stays so; a true match is
// recorded as such and the alert is listed as escalated.
func (c *Casework) Approve(a Actor, ids []uint64, note string) error {
	if note != "" {
		if err := decision.CheckText("note", note, maxText, true); err != nil {
			return err
		}
	}
	return c.changeMany(a, Reviewer, ids, func(tx *store.Tx, u *UserInfo, al *Alert, now time.Time) ([]Entry, error) {
		if al.Status != Proposed || al.Proposal == nil {
			return nil, fmt.Errorf("%s: %w", al.Status, ErrState)
		}
		if al.Proposal.By == u.Name {
			return nil, fmt.Errorf("proposed by %s, who cannot approve it too: %w", u.Name, ErrForbidden)
		}
		dec, err := closeAlert(tx, al, *al.Proposal, u.Name, now, true)
		if err != nil {
			return nil, err
		}
		d := al.Closure.Outcome
		if note != "" {
			d += ": " + note
		}
		return []Entry{{Action: ActionApprove, Detail: d}, dec}, nil
	})
}

// SendBack returns the proposals on the alerts ids to open with reason,
// which is added as a comment: a reviewer or admin who is not the proposer
// may.
func (c *Casework) SendBack(a Actor, ids []uint64, reason string) error {
	if err := decision.CheckText("reason", reason, maxText, true); err != nil {
		return err
	}
	return c.change(a, Reviewer, ids, func(_ *store.Tx, u *UserInfo, al *Alert, now time.Time) (Entry, error) {
		if al.Status != Proposed || al.Proposal == nil {
			return Entry{}, fmt.Errorf("%s: %w", al.Status, ErrState)
		}
		if al.Proposal.By == u.Name {
			return Entry{}, fmt.Errorf("proposed by %s, who cannot review it: %w", u.Name, ErrForbidden)
		}
		al.Status, al.Proposal = Open, nil
		al.Comments = append(al.Comments, Comment{By: u.Name, At: now, Text: "sent back: " + reason})
		return Entry{Action: ActionSendBack, Detail: reason}, nil
	})
}

// closeAlert closes al with proposal p approved by approver and records
// the decision in package decision, in tx. It returns the audit entry of
// the decision.
func closeAlert(tx *store.Tx, al *Alert, p Proposal, approver string, now time.Time, fourEyes bool) (Entry, error) {
	who := p.By
	note := p.Reason
	if fourEyes {
		note += " (approved by " + approver + ")"
	}
	d, _, err := decision.DecideTx(tx, decision.Decision{
		Owner: al.Owner, Subject: al.Subject, RecordID: al.Hit.RecordID, Status: p.Outcome,
		Note: note, Who: who, At: now, Fingerprint: al.Fingerprint, IdentityFingerprint: al.IdentityFingerprint,
	}, func() time.Time { return now })
	if err != nil {
		return Entry{}, err
	}
	al.Status, al.Proposal = Closed, nil
	al.Closure = &Closure{Proposal: p, ApprovedBy: approver, ApprovedAt: now, FourEyes: fourEyes}
	return Entry{Action: ActionDecision, Status: d.Status, Detail: fmt.Sprintf("decision %d of owner %s: %s", d.Seq, d.Owner, d.Note)}, nil
}

// SetFourEyesOff sets the source types (SANCTION, PEP, ...) whose
// proposals close an alert without a reviewer; none restores four eyes
// everywhere. An admin or an operator may.
func (c *Casework) SetFourEyesOff(a Actor, sourceTypes []string) error {
	types := make([]string, 0, len(sourceTypes))
	for _, t := range sourceTypes {
		t = strings.ToUpper(strings.TrimSpace(t))
		if t == "" {
			continue
		}
		if err := decision.CheckText("source type", t, 64, true); err != nil {
			return err
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	return c.update(func(tx *store.Tx, _ time.Time, log *auditWriter) error {
		if _, err := authorize(tx, a, Admin, true); err != nil {
			return err
		}
		bk, err := store.CaseworkSettings.Create(tx)
		if err != nil {
			return err
		}
		v, err := json.Marshal(types)
		if err != nil {
			return err
		}
		if err := bk.Put(keyFourEyesOff, v); err != nil {
			return err
		}
		d := "four eyes everywhere"
		if len(types) > 0 {
			d = "four eyes off for " + strings.Join(types, ", ")
		}
		return log.add(Entry{Actor: a.String(), Action: ActionSettings, Detail: d})
	})
}

// FourEyesOff returns the source types exempt from four eyes, sorted.
func (c *Casework) FourEyesOff() ([]string, error) {
	var out []string
	err := c.db.Read(func(tx *store.Tx) error {
		var err error
		out, err = fourEyesOffIn(tx)
		return err
	})
	return out, err
}

func fourEyesOffIn(tx *store.Tx) ([]string, error) {
	out := []string{}
	if bk := store.CaseworkSettings.Bucket(tx); bk != nil {
		if v := bk.Get(keyFourEyesOff); v != nil {
			if err := json.Unmarshal(v, &out); err != nil {
				return nil, fmt.Errorf("four-eyes setting: %w", err)
			}
		}
	}
	return out, nil
}
