package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// Since says where a period of changes starts: after an exact version,
// at 00:00 UTC of a day, or before the last applied change set. Commands
// that take --since (changes, batch) read it with ParseSince, so that the
// same words mean the same period everywhere.
type Since struct {
	Last    bool      // the last applied change set alone
	Date    time.Time // the change sets applied since this instant (a day's 00:00 UTC)
	Version string    // the change sets after this version
}

// ParseSince reads "last", a day as YYYY-MM-DD (from its 00:00 UTC), or
// else an exact store version.
func ParseSince(s string) (Since, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Since{}, errors.New("empty: give a version, a day (YYYY-MM-DD) or last")
	case s == "last":
		return Since{Last: true}, nil
	case len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-':
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return Since{}, fmt.Errorf("%q is not a valid day (YYYY-MM-DD)", s)
		}
		return Since{Date: d.UTC()}, nil
	}
	return Since{Version: s}, nil
}

// String writes s back as ParseSince reads it.
func (s Since) String() string {
	switch {
	case s.Last:
		return "last"
	case !s.Date.IsZero():
		return s.Date.Format("2006-01-02")
	}
	return s.Version
}

// StartVersion returns the version the period of s starts from, for
// ChangesSince and Digest: the version itself, the one before the last
// change set, or the one before the first change set applied at or after
// the date (the current version when there is none, an empty period). It
// returns an error wrapping ErrUnknownVersion for "last" on an empty store.
func (db *Store) StartVersion(s Since) (string, error) {
	if s.Version != "" {
		return s.Version, nil
	}
	var start string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		vb := tx.Bucket(bucketVersions)
		if vb == nil {
			return ErrUnknownVersion
		}
		c := vb.Cursor()
		k, raw := c.Last()
		if k == nil {
			return ErrUnknownVersion
		}
		var v Version
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("read version %x: %w", k, err)
		}
		if s.Last {
			start = v.Previous
			if start == "" {
				return fmt.Errorf("the last change set is the store's first import: %w", ErrUnknownVersion)
			}
			return nil
		}
		start = v.ID
		for ; k != nil; k, raw = c.Prev() {
			var v Version // fresh: omitted fields must not keep the newer version's values
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("read version %x: %w", k, err)
			}
			if v.AppliedAt.Before(s.Date) {
				break
			}
			start = v.Previous
		}
		if start == "" {
			return fmt.Errorf("the period begins with the store's first import: %w", ErrUnknownVersion)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("since %s: %w", s, err)
	}
	return start, nil
}

// DigestEntry is one record a period changed, its changes merged as
// ChangesSince merges them.
type DigestEntry struct {
	Type      string    // ADD, UPDATE or DELETE over the whole period
	ID        string    // the record's id
	Version   string    // the version of the last change set that touched it
	AppliedAt time.Time // when that change set was applied
	// Before is the record as it was when the period began: nil for an
	// ADD, and for an UPDATE whose first change set was logged before the
	// store kept old values (OldUnknown).
	Before *record.Record
	// After is the record at the end of the period, nil for a DELETE.
	After      *record.Record
	OldUnknown bool
}

// Digest returns every record changed after version from, sorted by id,
// with what it was before and after, and the current version. It returns
// an error wrapping ErrUnknownVersion when the change log cannot answer
// from that version.
func (db *Store) Digest(from string) ([]DigestEntry, string, error) {
	return db.DigestUntil(from, "")
}

// DigestUntil is Digest of the change sets after from up to and including
// version until ("" for the current version), and returns the version the
// period ends at. A reader that pages through a digest asks each page until
// the version of the first, so that change sets applied meanwhile do not
// move records between pages. An until that is not from or a later
// version is an error wrapping ErrUnknownVersion.
func (db *Store) DigestUntil(from, until string) ([]DigestEntry, string, error) {
	var out []DigestEntry
	var current string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		current = currentID(tx)
		seq, later, err := versionsAfter(tx, from)
		if err != nil {
			return err
		}
		if until != "" && until != current {
			end := slices.IndexFunc(later, func(v Version) bool { return v.ID == until })
			if until == from {
				end = -1
			} else if end < 0 {
				return fmt.Errorf("end version %q is not after %q: %w", until, from, ErrUnknownVersion)
			}
			later, current = later[:end+1], until
		}
		type state struct {
			existedBefore bool
			before        *record.Record
			oldUnknown    bool
			last          record.Change
			version       Version
		}
		merged := map[string]*state{}
		for i, v := range later {
			if !v.Logged {
				return ErrUnknownVersion
			}
			key := seqKey(seq + uint64(i) + 1)
			olds := map[string]*record.Record{}
			if err := readLog(tx.Bucket(bucketChangesBefore), key, func(c *record.Change) {
				r := c.Record
				olds[r.ID] = &r
			}); err != nil {
				return err
			}
			err := readLog(tx.Bucket(bucketChanges), key, func(c *record.Change) {
				st := merged[c.Record.ID]
				if st == nil {
					st = &state{existedBefore: c.Type != record.ChangeAdd}
					switch c.Type {
					case record.ChangeUpdate:
						st.before = olds[c.Record.ID]
						st.oldUnknown = st.before == nil
					case record.ChangeDelete:
						r := c.Record
						st.before = &r
					}
					merged[c.Record.ID] = st
				}
				st.last, st.version = *c, v
			})
			if err != nil {
				return err
			}
		}
		for _, id := range sortedKeys(merged) {
			st := merged[id]
			existsAfter := st.last.Type != record.ChangeDelete
			e := DigestEntry{ID: id, Version: st.version.ID, AppliedAt: st.version.AppliedAt}
			switch {
			case !st.existedBefore && existsAfter:
				e.Type = record.ChangeAdd
			case st.existedBefore && existsAfter:
				e.Type = record.ChangeUpdate
				e.Before, e.OldUnknown = st.before, st.oldUnknown
			case st.existedBefore && !existsAfter:
				e.Type = record.ChangeDelete
				e.Before = st.before
			default:
				continue
			}
			if existsAfter {
				r := st.last.Record
				e.After = &r
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, current, fmt.Errorf("digest since %q: %w", from, err)
	}
	return out, current, nil
}
