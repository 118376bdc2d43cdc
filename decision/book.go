package decision

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// store.Decisions holds the decisions, created by the first decision
// stored. Layout:
//
//	"h" 0x00 owner 0x00 subject 0x00 record_id 0x00 seq (8 bytes) → Decision JSON
//	"c" 0x00 owner 0x00 subject 0x00 record_id                    → Decision JSON
//
// "h" is the audit trail: every decision ever stored, never changed or
// deleted. "c" holds a copy of the current decision of each (owner,
// subject, record), so that screening reads one key per hit. Owners, subjects
// and record ids hold no 0x00 (Validate refuses control characters), so the
// separators are unambiguous.

var (
	historyTag = []byte{'h', 0}
	currentTag = []byte{'c', 0}
)

func keyOf(tag []byte, parts ...string) []byte {
	n := len(tag)
	for _, p := range parts {
		n += len(p) + 1
	}
	k := make([]byte, 0, n+8)
	k = append(k, tag...)
	for i, p := range parts {
		if i > 0 {
			k = append(k, 0)
		}
		k = append(k, p...)
	}
	return k
}

// prefixOf is keyOf with a trailing separator, for a cursor walk over
// everything below parts.
func prefixOf(tag []byte, parts ...string) []byte { return append(keyOf(tag, parts...), 0) }

// Book reads and writes the decisions of a store. Its methods are safe for
// concurrent use; every write is one transaction.
type Book struct {
	db  *store.Store
	now func() time.Time
}

// Options configures New; the zero value works.
type Options struct {
	// Now stamps decisions made without a time; nil means time.Now.
	Now func() time.Time
}

// New returns the book of db, which must stay open while it is used.
// Reads work on a store opened read-only.
func New(db *store.Store, o Options) *Book {
	b := &Book{db: db, now: o.Now}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Decide stores d, stamped now when d.At is zero, after Validate. It
// becomes the current decision of its (owner, subject, record) unless that
// one was decided later. It returns d as stored, with its Seq, and the
// decision that was current before (nil when none).
func (b *Book) Decide(d Decision) (stored Decision, previous *Decision, err error) {
	if d.At.IsZero() {
		d.At = b.now()
	}
	d.At = d.At.UTC()
	if err := d.Validate(); err != nil {
		return Decision{}, nil, err
	}
	err = b.db.Write(func(tx *store.Tx) error {
		bk, err := store.Decisions.Create(tx)
		if err != nil {
			return err
		}
		previous, err = currentIn(bk, d.Owner, d.Subject, d.RecordID)
		if err != nil {
			return err
		}
		stored, err = put(bk, d)
		return err
	})
	if err != nil {
		return Decision{}, nil, fmt.Errorf("store decision: %w", err)
	}
	return stored, previous, nil
}

// put appends d to the history and makes it current unless the current one
// is newer.
func put(bk *store.Bucket, d Decision) (Decision, error) {
	seq, err := bk.NextSequence()
	if err != nil {
		return d, err
	}
	d.Seq = seq
	v, err := json.Marshal(d)
	if err != nil {
		return d, err
	}
	hk := binary.BigEndian.AppendUint64(prefixOf(historyTag, d.Owner, d.Subject, d.RecordID), seq)
	if err := bk.Put(hk, v); err != nil {
		return d, err
	}
	ck := keyOf(currentTag, d.Owner, d.Subject, d.RecordID)
	if old := bk.Get(ck); old != nil {
		var cur Decision
		if err := json.Unmarshal(old, &cur); err != nil {
			return d, fmt.Errorf("current decision %q/%q: %w", d.Subject, d.RecordID, err)
		}
		if cur.At.After(d.At) {
			return d, nil
		}
	}
	return d, bk.Put(ck, v)
}

func currentIn(bk *store.Bucket, owner, subject, recordID string) (*Decision, error) {
	if bk == nil {
		return nil, nil
	}
	v := bk.Get(keyOf(currentTag, owner, subject, recordID))
	if v == nil {
		return nil, nil
	}
	var d Decision
	if err := json.Unmarshal(v, &d); err != nil {
		return nil, fmt.Errorf("decision %q/%q: %w", subject, recordID, err)
	}
	return &d, nil
}

// CurrentTx returns the current decision of owner on recordID for subject
// in tx, or nil: for code that runs inside a store transaction, such as
// monitoring's change-set hook.
func CurrentTx(tx *store.Tx, owner, subject, recordID string) (*Decision, error) {
	if ValidSubject(subject) != nil {
		return nil, nil
	}
	return currentIn(store.Decisions.Bucket(tx), owner, subject, recordID)
}

// Current returns owner's current decisions for subject, by record id.
func (b *Book) Current(owner, subject string) (map[string]Decision, error) {
	out := map[string]Decision{}
	if ValidSubject(subject) != nil || owner == "" {
		return out, nil
	}
	err := b.db.Read(func(tx *store.Tx) error {
		return walk(tx, prefixOf(currentTag, owner, subject), func(_ []byte, d Decision) error {
			out[d.RecordID] = d
			return nil
		})
	})
	return out, err
}

// History returns every decision owner made on recordID for subject,
// oldest first.
func (b *Book) History(owner, subject, recordID string) ([]Decision, error) {
	var out []Decision
	if ValidSubject(subject) != nil || owner == "" {
		return nil, nil
	}
	err := b.db.Read(func(tx *store.Tx) error {
		return walk(tx, prefixOf(historyTag, owner, subject, recordID), func(_ []byte, d Decision) error {
			out = append(out, d)
			return nil
		})
	})
	return out, err
}

// OnRecord returns every decision owner made on recordID, whatever the
// subject, in the order they were stored.
func (b *Book) OnRecord(owner, recordID string) ([]Decision, error) {
	var out []Decision
	if owner == "" {
		return nil, nil
	}
	err := b.db.Read(func(tx *store.Tx) error {
		return walk(tx, prefixOf(historyTag, owner), func(_ []byte, d Decision) error {
			if d.RecordID == recordID {
				out = append(out, d)
			}
			return nil
		})
	})
	sortBySeq(out)
	return out, err
}

// Each calls fn for every decision of owner ("" for every owner) in the
// audit trail, grouped by owner, subject and record and oldest first within
// a group; current is set on the decision that is current.
func (b *Book) Each(owner string, fn func(d Decision, current bool) error) error {
	prefix := historyTag
	if owner != "" {
		prefix = prefixOf(historyTag, owner)
	}
	return b.db.Read(func(tx *store.Tx) error {
		bk := store.Decisions.Bucket(tx)
		return walk(tx, prefix, func(_ []byte, d Decision) error {
			cur, err := currentIn(bk, d.Owner, d.Subject, d.RecordID)
			if err != nil {
				return err
			}
			return fn(d, cur != nil && cur.Seq == d.Seq)
		})
	})
}

// Count returns the number of decisions in the audit trail of owner ("" for
// every owner).
func (b *Book) Count(owner string) (int, error) {
	n := 0
	prefix := historyTag
	if owner != "" {
		prefix = prefixOf(historyTag, owner)
	}
	err := b.db.Read(func(tx *store.Tx) error {
		bk := store.Decisions.Bucket(tx)
		if bk == nil {
			return nil
		}
		c := bk.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, err
}

// walk decodes every value under prefix in tx's decisions bucket, in key
// order. A missing bucket holds nothing.
func walk(tx *store.Tx, prefix []byte, fn func(k []byte, d Decision) error) error {
	bk := store.Decisions.Bucket(tx)
	if bk == nil {
		return nil
	}
	c := bk.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var d Decision
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("decision %x: %w", k, err)
		}
		if err := fn(k, d); err != nil {
			return err
		}
	}
	return nil
}

func sortBySeq(ds []Decision) {
	slices.SortFunc(ds, func(a, b Decision) int { return cmp.Compare(a.Seq, b.Seq) })
}
