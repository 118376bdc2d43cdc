package report

import (
	"fmt"
	"time"
)

// CaseNote is the work done on one hit of a report (package casework's
// alert): its status, the decision, who proposed it and who approved it,
// the comments, and the database version the hit was reviewed on.
type CaseNote struct {
	Alert      uint64
	RecordID   string
	RecordName string
	// Status is the alert's: open, proposed or closed.
	Status string
	// Outcome is the decision proposed or approved: false_positive or
	// true_match; "" when none was proposed.
	Outcome    string
	Reason     string
	ProposedBy string
	ProposedAt time.Time
	// ApprovedBy is the reviewer who closed it; "" while it is not
	// closed. FourEyes is false when it closed without a review.
	ApprovedBy string
	ApprovedAt time.Time
	FourEyes   bool
	Version    string
	Comments   []CaseComment
}

// CaseComment is one comment on a hit's alert.
type CaseComment struct {
	By   string
	At   time.Time
	Text string
}

// casework writes the section of the work done on the hits, when there
// is any.
func (d *doc) casework(notes []CaseNote) {
	if len(notes) == 0 {
		return
	}
	d.heading("Casework", 40)
	d.text(marginL, contentW, "The review of these hits in amlscreen's casework, as it stood when this report was made.", stSmall)
	d.y += 2
	stamp := func(who string, at time.Time) string {
		if at.IsZero() {
			return who
		}
		return who + ", " + at.UTC().Format("2 Jan 2006 15:04 UTC")
	}
	for i, n := range notes {
		if i > 0 {
			d.y += 3
		}
		d.subheading(fmt.Sprintf("Alert %d · %s · record %s", n.Alert, n.RecordName, n.RecordID))
		d.row("Status", []string{n.Status}, stValue)
		if n.Outcome != "" {
			d.row("Decision", []string{outcomeLabel(n.Outcome) + ": " + n.Reason}, stValueB)
			d.row("Proposed by", []string{stamp(n.ProposedBy, n.ProposedAt)}, stValue)
		} else {
			d.row("Decision", []string{"none yet"}, stValue)
		}
		switch {
		case n.ApprovedBy != "" && n.FourEyes:
			d.row("Approved by", []string{stamp(n.ApprovedBy, n.ApprovedAt)}, stValue)
		case n.ApprovedBy != "":
			d.row("Approved by", []string{"closed without review (four eyes off for its source type)"}, stValue)
		case n.Outcome != "":
			d.row("Approved by", []string{"awaiting a reviewer"}, stValue)
		}
		d.row("Database version", []string{orNotGiven(n.Version)}, stValue)
		var cs []string
		for _, c := range n.Comments {
			cs = append(cs, stamp(c.By, c.At)+": "+c.Text)
		}
		d.row("Comments", cs, stValue)
	}
}

func outcomeLabel(s string) string {
	switch s {
	case "false_positive":
		return "False positive"
	case "true_match":
		return "True match"
	}
	return s
}
