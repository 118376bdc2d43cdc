package casework

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/internal/csvsafe"
	"github.com/amlscreen/amlscreen/store"
)

// Actions of audit entries.
const (
	ActionRaise       = "alert.raise"     // an alert created by a hit
	ActionReopen      = "alert.reopen"    // the record changed since the alert was raised or decided
	ActionAssign      = "alert.assign"    // assignee set or cleared
	ActionComment     = "alert.comment"   // a comment added
	ActionPropose     = "alert.propose"   // an outcome proposed
	ActionApprove     = "alert.approve"   // a proposal approved: the alert is closed
	ActionSendBack    = "alert.send_back" // a proposal sent back: the alert is open again
	ActionClose       = "alert.close"     // a proposal that closed the alert at once (four eyes off)
	ActionDecision    = "decision"        // the decision an approval recorded in package decision
	ActionUserAdd     = "user.add"
	ActionUserDisable = "user.disable"
	ActionUserReset   = "user.reset"
	ActionSettings    = "settings" // the four-eyes exemptions changed
	ActionScreening   = "screening"
)

// Entry is one entry of the audit log. Its canonical encoding is its JSON
// as encoding/json writes this struct (fields in this order, no spaces,
// empty fields left out, Time in UTC); Hash is the SHA-256 of the
// canonical encoding of the entry with Hash empty, in hexadecimal, and
// Prev the Hash of the entry before (64 zeros for the first).
type Entry struct {
	Seq      uint64    `json:"seq"`
	Time     time.Time `json:"time"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	Alert    uint64    `json:"alert,omitempty"`
	Subject  string    `json:"subject,omitempty"`
	RecordID string    `json:"record_id,omitempty"`
	User     string    `json:"user,omitempty"`
	Status   string    `json:"status,omitempty"`
	Detail   string    `json:"detail,omitempty"`
	// Query, Version and IDs are a screening's: what was screened, the
	// database version it ran on and the record ids it returned.
	Query   string   `json:"query,omitempty"`
	Version string   `json:"version,omitempty"`
	IDs     []string `json:"ids,omitempty"`
	Prev    string   `json:"prev"`
	Hash    string   `json:"hash,omitempty"`
}

// genesis is the Prev of the first entry.
var genesis = strings.Repeat("0", 64)

var keyAuditHead = []byte("audit_head")

// auditHead is the last entry's sequence number and hash, kept apart so
// that entries cut off the end of the log are noticed.
type auditHead struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// hashOf returns the hash of e (its Hash ignored) and e's canonical
// encoding with that hash set.
func hashOf(e Entry) (string, []byte, error) {
	e.Hash = ""
	b, err := json.Marshal(e)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:])
	// Hash is the last field: the encoding with it set is b with the
	// field added before the closing brace, as json.Marshal writes it.
	enc := make([]byte, 0, len(b)+len(h)+10)
	enc = append(enc, b[:len(b)-1]...)
	enc = append(enc, `,"hash":"`...)
	enc = append(enc, h...)
	enc = append(enc, `"}`...)
	return h, enc, nil
}

// auditWriter appends entries inside one write transaction.
type auditWriter struct {
	tx   *store.Tx
	now  time.Time
	bk   *store.Bucket
	head auditHead
	n    int
}

func (w *auditWriter) add(e Entry) error {
	if w.bk == nil {
		bk, err := store.Audit.Create(w.tx)
		if err != nil {
			return err
		}
		w.bk = bk
		h, err := readHead(w.tx)
		if err != nil {
			return err
		}
		w.head = h
	}
	e.Seq = w.head.Seq + 1
	e.Time = w.now
	e.Prev = w.head.Hash
	h, enc, err := hashOf(e)
	if err != nil {
		return err
	}
	if err := w.bk.Put(binary.BigEndian.AppendUint64(nil, e.Seq), enc); err != nil {
		return err
	}
	w.head = auditHead{Seq: e.Seq, Hash: h}
	w.n++
	return nil
}

// close writes the head once every entry of the transaction is added.
func (w *auditWriter) close() error {
	if w.n == 0 {
		return nil
	}
	bk, err := store.CaseworkSettings.Create(w.tx)
	if err != nil {
		return err
	}
	v, err := json.Marshal(w.head)
	if err != nil {
		return err
	}
	return bk.Put(keyAuditHead, v)
}

func readHead(tx *store.Tx) (auditHead, error) {
	h := auditHead{Hash: genesis}
	if bk := store.CaseworkSettings.Bucket(tx); bk != nil {
		if v := bk.Get(keyAuditHead); v != nil {
			if err := json.Unmarshal(v, &h); err != nil {
				return h, fmt.Errorf("audit head: %w", err)
			}
		}
	}
	return h, nil
}

// update runs fn in one write transaction with an audit writer whose
// entries commit with the change, or not at all.
func (c *Casework) update(fn func(tx *store.Tx, now time.Time, log *auditWriter) error) error {
	now := c.now().UTC()
	return c.db.Write(func(tx *store.Tx) error {
		log := &auditWriter{tx: tx, now: now}
		if err := fn(tx, now, log); err != nil {
			return err
		}
		return log.close()
	})
}

// LogScreening appends a screening to the audit log: who screened, the
// query as the caller describes it, the database version and the record
// ids returned (at most MaxScreeningIDs are kept).
func (c *Casework) LogScreening(actor, query, version string, ids []string) error {
	if strings.TrimSpace(actor) == "" {
		return &FieldError{Field: "actor", Msg: "required"}
	}
	if len(query) > maxText || len(actor) > maxText || len(version) > maxText {
		return &FieldError{Field: "query", Msg: fmt.Sprintf("longer than %d bytes", maxText)}
	}
	if len(ids) > MaxScreeningIDs {
		ids = ids[:MaxScreeningIDs]
	}
	return c.update(func(tx *store.Tx, _ time.Time, log *auditWriter) error {
		return log.add(Entry{Actor: actor, Action: ActionScreening, Query: query, Version: version, IDs: ids})
	})
}

// MaxScreeningIDs is the most record ids a screening's entry keeps: the
// API's largest page.
const MaxScreeningIDs = 500

// maxText bounds free text of entries and alerts.
const maxText = 4096

// BrokenError names the first entry where the audit chain is broken.
type BrokenError struct {
	Seq    uint64
	Reason string
}

// Error names the entry and why.
func (e *BrokenError) Error() string {
	return fmt.Sprintf("audit log broken at entry %d: %s", e.Seq, e.Reason)
}

// Verify walks the audit log and checks the chain: entries numbered from 1
// without a gap, each in its canonical encoding, its hash that of its
// content and its Prev the hash of the one before, the last one the head
// the store recorded. It returns the number of entries and, when the chain
// is broken, a *BrokenError naming the first entry at fault.
func (c *Casework) Verify() (int, error) {
	n := 0
	err := c.db.Read(func(tx *store.Tx) error {
		head, err := readHead(tx)
		if err != nil {
			return &BrokenError{Seq: 0, Reason: err.Error()}
		}
		bk := store.Audit.Bucket(tx)
		prev := auditHead{Hash: genesis}
		if bk != nil {
			cur := bk.Cursor()
			for k, v := cur.First(); k != nil; k, v = cur.Next() {
				want := prev.Seq + 1
				if len(k) != 8 {
					return &BrokenError{Seq: want, Reason: fmt.Sprintf("a key %x that is not a sequence number", k)}
				}
				seq := binary.BigEndian.Uint64(k)
				if seq != want {
					return &BrokenError{Seq: want, Reason: fmt.Sprintf("missing (the next entry is %d)", seq)}
				}
				var e Entry
				if err := json.Unmarshal(v, &e); err != nil {
					return &BrokenError{Seq: seq, Reason: "unreadable: " + err.Error()}
				}
				h, enc, err := hashOf(e)
				switch {
				case err != nil:
					return &BrokenError{Seq: seq, Reason: err.Error()}
				case e.Seq != seq:
					return &BrokenError{Seq: seq, Reason: fmt.Sprintf("says it is entry %d", e.Seq)}
				case e.Hash != h:
					return &BrokenError{Seq: seq, Reason: "its content does not match its hash"}
				case !bytes.Equal(enc, v):
					return &BrokenError{Seq: seq, Reason: "not in canonical form"}
				case e.Prev != prev.Hash:
					return &BrokenError{Seq: seq, Reason: "it does not carry the hash of the entry before"}
				}
				prev = auditHead{Seq: seq, Hash: h}
				n++
			}
		}
		if prev != head {
			return &BrokenError{Seq: prev.Seq + 1, Reason: fmt.Sprintf("the log ends at entry %d but the store recorded %d entries", prev.Seq, head.Seq)}
		}
		return nil
	})
	return n, err
}

// Each calls fn for every entry whose time is in [from, to) (a zero bound
// is open), oldest first.
func (c *Casework) Each(from, to time.Time, fn func(Entry) error) error {
	return c.each(from, to, func(e Entry, _ []byte) error { return fn(e) })
}

// each is Each that also hands fn the entry as stored.
func (c *Casework) each(from, to time.Time, fn func(Entry, []byte) error) error {
	return c.db.Read(func(tx *store.Tx) error {
		bk := store.Audit.Bucket(tx)
		if bk == nil {
			return nil
		}
		return bk.ForEach(func(k, v []byte) error {
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("audit entry %x: %w", k, err)
			}
			if !from.IsZero() && e.Time.Before(from) || !to.IsZero() && !e.Time.Before(to) {
				return nil
			}
			return fn(e, v)
		})
	})
}

// AuditColumns are the columns of the CSV export, in order.
var AuditColumns = []string{"seq", "time", "actor", "action", "alert", "subject", "record_id", "user", "status", "detail", "query", "version", "ids", "prev", "hash"}

// Export writes the entries whose time is in [from, to) to w, one a line:
// format "json" writes each entry's canonical encoding (JSON Lines), "csv"
// a header row and AuditColumns (ids separated by spaces; cells quoted by
// package csvsafe so that a spreadsheet runs no formula). It returns the
// number of entries written.
func (c *Casework) Export(w io.Writer, from, to time.Time, format string) (int, error) {
	n := 0
	var cw *csvsafe.Writer
	switch format {
	case "json":
	case "csv":
		cw = csvsafe.NewWriter(w)
		if err := cw.Write(AuditColumns); err != nil {
			return 0, err
		}
	default:
		return 0, &FieldError{Field: "format", Msg: fmt.Sprintf("%q is not json or csv", format)}
	}
	err := c.each(from, to, func(e Entry, raw []byte) error {
		n++
		if cw == nil {
			_, err := w.Write(append(raw[:len(raw):len(raw)], '\n'))
			return err
		}
		alert := ""
		if e.Alert != 0 {
			alert = strconv.FormatUint(e.Alert, 10)
		}
		row := []string{strconv.FormatUint(e.Seq, 10), e.Time.UTC().Format(time.RFC3339Nano), e.Actor, e.Action, alert,
			e.Subject, e.RecordID, e.User, e.Status, e.Detail, e.Query, e.Version, strings.Join(e.IDs, " "), e.Prev, e.Hash}
		return cw.Write(row)
	})
	if cw != nil {
		cw.Flush()
		if err == nil {
			err = cw.Error()
		}
	}
	return n, err
}
