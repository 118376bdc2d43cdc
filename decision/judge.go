package decision

import (
	"fmt"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Outcome is what a past decision means for a hit now.
type Outcome struct {
	// Decision is the current decision on the hit; nil when there is none.
	Decision *Decision
	// Changed is set when the record's content is no longer what was
	// decided on: the hit is shown, marked "changed since decision".
	Changed bool
	// Suppressed is set when the hit is a false positive decided on the
	// record's present content: it is left out of the hits.
	Suppressed bool
}

// Judge applies the suppression rule (see the package documentation) to a
// hit on r with d its current decision (nil for none). A hit is suppressed
// only by a false_positive whose fingerprint is r's content now; a
// decision without a valid fingerprint suppresses nothing.
func Judge(d *Decision, r *record.Record) Outcome {
	if d == nil {
		return Outcome{}
	}
	o := Outcome{Decision: d}
	same := validFingerprint(d.Fingerprint) && d.Fingerprint == Content(r)
	o.Changed = !same
	o.Suppressed = same && d.Status == FalsePositive
	return o
}

// Set is the current decisions of one owner, held in memory, for a run
// that judges many hits (a batch over a customer book). It is read only
// once built, and safe for concurrent use.
type Set struct {
	bySubject map[string]map[string]*Decision
	n         int
}

// LoadSet reads owner's current decisions from the book, in one
// transaction.
func (b *Book) LoadSet(owner string) (*Set, error) {
	s := &Set{bySubject: map[string]map[string]*Decision{}}
	if owner == "" {
		return s, nil
	}
	err := b.db.Read(func(tx *store.Tx) error {
		return walk(tx, prefixOf(currentTag, owner), func(_ []byte, d Decision) error {
			m := s.bySubject[d.Subject]
			if m == nil {
				m = map[string]*Decision{}
				s.bySubject[d.Subject] = m
			}
			m[d.RecordID] = &d
			s.n++
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("load decisions: %w", err)
	}
	return s, nil
}

// Len is the number of current decisions in the set.
func (s *Set) Len() int { return s.n }

// Get returns the current decision on recordID for subject, or nil.
func (s *Set) Get(subject, recordID string) *Decision {
	if s == nil {
		return nil
	}
	return s.bySubject[subject][recordID]
}

// Judge is Judge with the set's decision on (subject, r).
func (s *Set) Judge(subject string, r *record.Record) Outcome {
	return Judge(s.Get(subject, r.ID), r)
}

// SuppressUpdate reports, inside a store transaction, whether an UPDATE
// notification of after for the search profile profileID of owner is to
// be held back: owner's current decision on the record for that profile
// is false_positive and the record's names, dates of birth and
// citizenships are still those decided on (Identity). Any other case,
// including a decision without a valid identity fingerprint, notifies.
func SuppressUpdate(tx *store.Tx, owner, profileID string, after *record.Record) (bool, error) {
	if after == nil {
		return false, nil
	}
	d, err := CurrentTx(tx, owner, profileID, after.ID)
	if err != nil || d == nil || d.Status != FalsePositive {
		return false, err
	}
	return validFingerprint(d.IdentityFingerprint) && d.IdentityFingerprint == Identity(after), nil
}
