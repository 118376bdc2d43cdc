package store

import (
	"errors"
	"fmt"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// Hook runs inside the write transaction of an import or a change set,
// after the records and the version are written and before the commit.
// Returning an error rolls everything back, records and version included,
// so that state kept elsewhere in the store (the monitoring outbox) can
// never disagree with the records. A hook must not keep tx or applied's
// records for use after it returns unless it owns them: the records are
// the caller's to keep, tx is not.
type Hook func(tx *Tx, applied *Applied) error

// Effects of an applied change: what it did to the store, which differs
// from the change's type for the cases docs/API.md "Deltas" settles.
const (
	EffectAdd    = record.ChangeAdd
	EffectUpdate = record.ChangeUpdate
	EffectDelete = record.ChangeDelete
	EffectNone   = "NONE" // a DELETE of an id the store does not hold
)

// Notes on changes whose effect differs from their type.
const (
	NoteUpdateUnknown = "UPDATE of an unknown id, applied as ADD"
	NoteAddExisting   = "ADD of an id already present, applied as UPDATE"
	NoteDeleteUnknown = "DELETE of an unknown id, ignored"
)

// AppliedChange is one change as the store applied it.
type AppliedChange struct {
	ID     string // the record's id
	Type   string // the change's type as given; "" for a change an import derived
	Effect string // EffectAdd, EffectUpdate, EffectDelete or EffectNone
	// Before is the record as it was, nil when the store did not hold it.
	Before *record.Record
	// After is the record as it is now, nil after a delete or a no-op.
	After *record.Record
	Note  string // set when Effect differs from Type
}

// Applied describes a committed import or change set.
type Applied struct {
	Previous string // version before, "" for an empty store
	Version  string // version after
	Full     bool   // a whole-file import
	// Changes lists every change in order. For a full import it lists the
	// records that differ from the previous version; it is nil for the
	// first import into an empty store, where everything is new.
	Changes []AppliedChange
	Records int // records after

	// Counts of Changes by effect; for a first import Added is the number
	// of records, though Changes is nil.
	Added, Updated, Deleted, Ignored int

	// Import is the tap that followed this full import (see ImportTap),
	// nil when none did.
	Import ImportTap
}

func (a *Applied) count(effect string) {
	switch effect {
	case EffectAdd:
		a.Added++
	case EffectUpdate:
		a.Updated++
	case EffectDelete:
		a.Deleted++
	default:
		a.Ignored++
	}
}

// VersionMismatchError is returned by ApplyDelta when the store is not at
// the version the change set applies to; applying the same delta twice is
// refused this way.
type VersionMismatchError struct {
	Store    string // the store's version, "" when empty
	Previous string // the version the change set applies to
	Version  string // the version the change set leads to
}

// Error names both versions, and says what to do about an empty store.
func (e *VersionMismatchError) Error() string {
	if e.Store == "" {
		return fmt.Sprintf("store is empty, but the delta applies to version %q; import a full file first", e.Previous)
	}
	if e.Store == e.Version {
		return fmt.Sprintf("store is already at version %q, which the delta leads to (it applies to version %q)", e.Store, e.Previous)
	}
	return fmt.Sprintf("store is at version %q, but the delta applies to version %q", e.Store, e.Previous)
}

// ErrNoVersion is returned for an import or change set without a version.
var ErrNoVersion = errors.New("version must not be empty")

// ApplyDelta applies changes as one transaction when the store is at
// previous, and makes version current. The change set goes to the change
// log as the effects it had: an UPDATE of an unknown id is logged as ADD,
// a DELETE of an unknown id not at all. An UPDATE whose record has no
// list_date keeps the stored one, since delta records never carry it
// (docs/API.md "Deltas") and the source date does not change with an update.
//
// A change set from a version to itself with no changes is the answer of
// an upstream that has nothing new: ApplyDelta then does nothing and
// returns an empty Applied.
func (db *Store) ApplyDelta(previous, version string, changes []record.Change, hook Hook) (*Applied, error) {
	if db.readOnly {
		return nil, ErrReadOnly
	}
	if version == "" {
		return nil, fmt.Errorf("apply delta: %w", ErrNoVersion)
	}
	for i := range changes {
		if err := changes[i].Validate(); err != nil {
			return nil, fmt.Errorf("apply delta %s: change %d: %w", version, i+1, err)
		}
	}
	if previous == version {
		if len(changes) > 0 {
			return nil, fmt.Errorf("apply delta %s: a delta must lead to a new version, not to the one it applies to", version)
		}
		cur, err := db.Version()
		if err != nil {
			return nil, err
		}
		if cur.ID != version {
			return nil, &VersionMismatchError{Store: cur.ID, Previous: previous, Version: version}
		}
		return &Applied{Previous: previous, Version: version, Records: cur.Records}, nil
	}
	var applied *Applied
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if cur := currentID(tx); cur != previous {
			return &VersionMismatchError{Store: cur, Previous: previous, Version: version}
		}
		var err error
		applied, err = db.applyChanges(tx, "change set", previous, version, changes, false)
		if err != nil {
			return err
		}
		if err := db.runHooks(tx, applied, hook); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		var vm *VersionMismatchError
		if errors.As(err, &vm) {
			return nil, err
		}
		return nil, fmt.Errorf("apply delta %s: %w", version, err)
	}
	return applied, nil
}

// applyChanges applies the changes of a change set or merge (kind, for
// the shrink guard) in tx.
func (db *Store) applyChanges(tx *bolt.Tx, kind, previous, version string, changes []record.Change, allowShrink bool) (*Applied, error) {
	recs := tx.Bucket(bucketRecords)
	meta := tx.Bucket(bucketMeta)
	count := int(getUint(meta, metaCount))
	a := &Applied{Previous: previous, Version: version, Changes: make([]AppliedChange, 0, len(changes))}
	stats := statDelta{}
	for i := range changes {
		c := &changes[i]
		key := []byte(c.Record.ID)
		ac := AppliedChange{ID: c.Record.ID, Type: c.Type}
		if old := recs.Get(key); old != nil {
			before, err := db.codec.decode(old)
			if err != nil {
				return nil, fmt.Errorf("record %s: %w", c.Record.ID, err)
			}
			ac.Before = before
		}
		switch {
		case c.Type == record.ChangeDelete && ac.Before == nil:
			ac.Effect, ac.Note = EffectNone, NoteDeleteUnknown
		case c.Type == record.ChangeDelete:
			ac.Effect = EffectDelete
			if err := recs.Delete(key); err != nil {
				return nil, err
			}
			stats.add(ac.Before, -1)
			count--
		default:
			after := c.Record.Clone()
			if ac.Before == nil {
				ac.Effect = EffectAdd
				if c.Type == record.ChangeUpdate {
					ac.Note = NoteUpdateUnknown
				}
				count++
			} else {
				ac.Effect = EffectUpdate
				if c.Type == record.ChangeAdd {
					ac.Note = NoteAddExisting
				}
				if after.ListDate == 0 {
					after.ListDate = ac.Before.ListDate
				}
				stats.add(ac.Before, -1)
			}
			if err := recs.Put(key, db.codec.encode(after)); err != nil {
				return nil, fmt.Errorf("record %s: %w", c.Record.ID, err)
			}
			stats.add(after, 1)
			ac.After = after
		}
		a.count(ac.Effect)
		a.Changes = append(a.Changes, ac)
	}
	a.Records = count
	// The shrink guard (guard.go): the transaction rolls back on refusal.
	before := count + a.Deleted - a.Added
	shrink, err := db.guard.checkKind(kind, version, before, before-a.Deleted, count, allowShrink)
	if err != nil {
		return nil, err
	}
	if shrink {
		tx.OnCommit(func() { db.guard.allowed.Add(1) })
	}
	if err := stats.apply(tx.Bucket(bucketStats)); err != nil {
		return nil, err
	}
	return a, db.commitVersion(tx, a, false)
}

// commitVersion logs a's changes, records its version, stamps the sources
// whose records changed and prunes the change log. A first import's
// changes are not logged: nobody can ask for a delta from an empty store.
func (db *Store) commitVersion(tx *bolt.Tx, a *Applied, first bool) error {
	now := db.now().UTC()
	seq := getUint(tx.Bucket(bucketMeta), metaSeq) + 1
	if !first {
		if err := writeLog(tx, seq, a.Changes); err != nil {
			return fmt.Errorf("change log: %w", err)
		}
	}
	v := Version{
		ID:        a.Version,
		AppliedAt: now,
		Previous:  a.Previous,
		Full:      a.Full,
		Changes:   a.Added + a.Updated + a.Deleted,
		Records:   a.Records,
		Logged:    !first,
	}
	if _, err := recordVersion(tx, v); err != nil {
		return fmt.Errorf("record version: %w", err)
	}
	if err := noteSourcesChanged(tx.Bucket(bucketStats), a, first, now); err != nil {
		return fmt.Errorf("source change times: %w", err)
	}
	return pruneLog(tx, now.Add(-db.retention))
}
