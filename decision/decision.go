package decision

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/record"
)

// Statuses of a decision.
const (
	// FalsePositive: the record is not the subject. Suppresses the hit
	// while the record's content stays as decided.
	FalsePositive = "false_positive"
	// TrueMatch: the record is the subject. Never suppressed.
	TrueMatch = "true_match"
	// Escalated: handed on for review. Never suppressed.
	Escalated = "escalated"
)

// Statuses lists the valid statuses, in the order forms offer them.
var Statuses = []string{FalsePositive, TrueMatch, Escalated}

// Limits of a decision's text, checked before anything is stored. A
// subject is at most a profile id's 256 bytes for customers and profiles;
// query subjects hold a whole query (names of up to 512 characters), hence
// the larger bound.
const (
	MaxSubjectBytes = 2048
	MaxNoteBytes    = 4096
	MaxWhoBytes     = 256
	MaxOwnerBytes   = 128
)

// Decision is one decision of the audit trail.
type Decision struct {
	// Seq is the decision's place in the store's audit trail, assigned
	// when it is stored; 0 before.
	Seq uint64 `json:"seq"`
	// Owner is the id of the API key that decided (server.KeyID).
	Owner string `json:"owner"`
	// Subject is the customer id, profile id or query subject.
	Subject  string `json:"subject"`
	RecordID string `json:"record_id"`
	Status   string `json:"status"`
	Note     string `json:"note,omitempty"`
	// Who is the key's name, or the analyst an imported row names.
	Who string    `json:"decided_by"`
	At  time.Time `json:"decided_at"`
	// Fingerprint is Content of the record as decided; IdentityFingerprint
	// is Identity of it.
	Fingerprint         string `json:"fingerprint"`
	IdentityFingerprint string `json:"identity_fingerprint"`
}

// FieldError is a decision value that breaks a rule; Field names it as
// the CLI, the import file and the workbench's form call it.
type FieldError struct {
	Field string
	Msg   string
}

// Error names the field.
func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// ParseStatus reads a status in any case, with "-" or " " for "_"
// (false-positive, "True match").
func ParseStatus(s string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.NewReplacer("-", "_", " ", "_").Replace(t)
	for _, st := range Statuses {
		if t == st {
			return st, nil
		}
	}
	return "", &FieldError{Field: "status", Msg: fmt.Sprintf("%s is not false_positive, true_match or escalated", quote(s))}
}

// Validate checks every field of d that a caller gives: owner, subject,
// record id, status, note, who and the fingerprints (At and Seq are
// assigned when stored).
func (d *Decision) Validate() error {
	if err := CheckText("owner", d.Owner, MaxOwnerBytes, false); err != nil {
		return err
	}
	if err := ValidSubject(d.Subject); err != nil {
		return err
	}
	if err := record.ValidID(d.RecordID); err != nil {
		return &FieldError{Field: "record_id", Msg: err.Error()}
	}
	if _, err := ParseStatus(d.Status); err != nil || d.Status != strings.ToLower(d.Status) {
		return &FieldError{Field: "status", Msg: fmt.Sprintf("%s is not false_positive, true_match or escalated", quote(d.Status))}
	}
	if d.Note != "" {
		if err := CheckText("note", d.Note, MaxNoteBytes, true); err != nil {
			return err
		}
	}
	if err := CheckText("decided_by", d.Who, MaxWhoBytes, false); err != nil {
		return err
	}
	if !validFingerprint(d.Fingerprint) {
		return &FieldError{Field: "fingerprint", Msg: fmt.Sprintf("%s is not a fingerprint (%d hexadecimal digits)", quote(d.Fingerprint), fingerprintHex)}
	}
	if !validFingerprint(d.IdentityFingerprint) {
		return &FieldError{Field: "identity_fingerprint", Msg: fmt.Sprintf("%s is not a fingerprint (%d hexadecimal digits)", quote(d.IdentityFingerprint), fingerprintHex)}
	}
	return nil
}

// ValidSubject reports why s cannot be a subject: empty, longer than
// MaxSubjectBytes, not UTF-8 or holding control characters.
func ValidSubject(s string) error {
	return CheckText("subject", s, MaxSubjectBytes, false)
}

// CheckText applies the rules of free text: required, at most max bytes,
// UTF-8, no control characters (line breaks and tabs allowed in
// multiline text). casework's comments and reasons follow them too.
func CheckText(field, s string, max int, multiline bool) error {
	switch {
	case strings.TrimSpace(s) == "":
		return &FieldError{Field: field, Msg: "required"}
	case len(s) > max:
		return &FieldError{Field: field, Msg: fmt.Sprintf("%d bytes, more than the %d allowed", len(s), max)}
	case !utf8.ValidString(s):
		return &FieldError{Field: field, Msg: "not valid UTF-8"}
	}
	for _, r := range s {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return &FieldError{Field: field, Msg: fmt.Sprintf("holds the control character U+%04X", r)}
		}
	}
	return nil
}

// quote writes a value for a message: quoted, at most 40 characters.
func quote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
