package monitor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Store layout of store.Outbox: two nested buckets.
//
//	queue: next attempt (8 bytes, Unix ns) + seq (8 bytes) → entry
//	dead:  seq (8 bytes)                                   → entry
//
// Keying the queue by the time of the next attempt makes "what is due" a
// cursor walk from the start that stops at the first entry in the future,
// whatever the queue holds. seq is the outbox bucket's sequence: the order
// notifications were queued in.
var (
	queueBucket = []byte("queue")
	deadBucket  = []byte("dead")
)

// Entry is one notification in the outbox.
type Entry struct {
	Seq       uint64
	EventID   string
	Owner     string // key id of the profile's owner: whom to send it to
	ProfileID string
	MatchType string // ADD, UPDATE or DELETE
	RecordID  string
	// Test marks a testWebhookDelivery sample.
	Test bool
	// Queued is when the notification was written; it is given up
	// Backoff.GiveUp after that.
	Queued time.Time
	// Attempts counts deliveries begun, including one in flight.
	Attempts int
	// Next is when the next attempt is due; while one is in flight it is
	// the end of its lease.
	Next time.Time
	// LastStatus and LastError describe the last failed attempt (status 0
	// when there was no HTTP answer).
	LastStatus int
	LastError  string
	// Dead is when it was given up; zero while queued.
	Dead time.Time
	// Body is the exact bytes posted, every time.
	Body []byte
}

func queueKey(next time.Time, seq uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(max(next.UnixNano(), 0)))
	binary.BigEndian.PutUint64(k[8:], seq)
	return k
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// entryFormat is the first byte of an encoded entry. The body is kept as
// raw bytes (not inside JSON, whose encoders may re-escape it), so that
// every delivery sends exactly what was queued.
const entryFormat = 1

func (e *Entry) encode() []byte {
	b := make([]byte, 0, 128+len(e.Body))
	b = append(b, entryFormat)
	b = binary.AppendUvarint(b, e.Seq)
	for _, s := range []string{e.EventID, e.Owner, e.ProfileID, e.MatchType, e.RecordID, e.LastError} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	flags := uint64(0)
	if e.Test {
		flags |= 1
	}
	b = binary.AppendUvarint(b, flags)
	for _, t := range []time.Time{e.Queued, e.Next, e.Dead} {
		n := int64(0)
		if !t.IsZero() {
			n = t.UnixNano()
		}
		b = binary.AppendVarint(b, n)
	}
	b = binary.AppendUvarint(b, uint64(e.Attempts))
	b = binary.AppendUvarint(b, uint64(e.LastStatus))
	b = binary.AppendUvarint(b, uint64(len(e.Body)))
	return append(b, e.Body...)
}

var errEntry = errors.New("malformed outbox entry")

func decodeEntry(v []byte) (*Entry, error) {
	if len(v) == 0 || v[0] != entryFormat {
		return nil, errEntry
	}
	v = v[1:]
	uv := func() uint64 {
		if v == nil {
			return 0
		}
		n, k := binary.Uvarint(v)
		if k <= 0 {
			v = nil
			return 0
		}
		v = v[k:]
		return n
	}
	str := func() string {
		n := uv()
		if v == nil || n > uint64(len(v)) {
			v = nil
			return ""
		}
		s := string(v[:n])
		v = v[n:]
		return s
	}
	tm := func() time.Time {
		if v == nil {
			return time.Time{}
		}
		n, k := binary.Varint(v)
		if k <= 0 {
			v = nil
			return time.Time{}
		}
		v = v[k:]
		if n == 0 {
			return time.Time{}
		}
		return time.Unix(0, n).UTC()
	}
	e := &Entry{Seq: uv()}
	e.EventID, e.Owner, e.ProfileID, e.MatchType, e.RecordID, e.LastError = str(), str(), str(), str(), str(), str()
	e.Test = uv()&1 != 0
	e.Queued, e.Next, e.Dead = tm(), tm(), tm()
	e.Attempts = int(uv())
	e.LastStatus = int(uv())
	n := uv()
	if v == nil || n != uint64(len(v)) {
		return nil, errEntry
	}
	e.Body = bytes.Clone(v)
	return e, nil
}

// enqueue writes a new entry due at e.Next, assigning its seq.
func enqueue(tx *store.Tx, e *Entry) error {
	ob := store.Outbox.Bucket(tx)
	if ob == nil {
		return errors.New("store has no outbox bucket")
	}
	q, err := ob.CreateBucketIfNotExists(queueBucket)
	if err != nil {
		return err
	}
	seq, err := ob.NextSequence()
	if err != nil {
		return err
	}
	e.Seq = seq
	return q.Put(queueKey(e.Next, seq), e.encode())
}

func subBucket(tx *store.Tx, name []byte) *store.Bucket {
	ob := store.Outbox.Bucket(tx)
	if ob == nil {
		return nil
	}
	return ob.Bucket(name)
}

// OutboxStats summarises the outbox.
type OutboxStats struct {
	Queued   int       // waiting for delivery, in flight included
	Retrying int       // of Queued, those that failed at least once
	Dead     int       // given up
	Oldest   time.Time // queue time of the oldest queued entry; zero when none
	NextDue  time.Time // earliest next attempt; zero when none
}

// Outbox reads the outbox of a store, for amlscreen monitor outbox and
// tests; its reads work on a store opened read-only.
type Outbox struct{ db *store.Store }

// NewOutbox returns the outbox of db.
func NewOutbox(db *store.Store) *Outbox { return &Outbox{db: db} }

// Stats counts the queued and dead entries.
func (o *Outbox) Stats() (OutboxStats, error) {
	var st OutboxStats
	err := o.db.Read(func(tx *store.Tx) error {
		if q := subBucket(tx, queueBucket); q != nil {
			first := true
			err := q.ForEach(func(k, v []byte) error {
				e, err := decodeEntry(v)
				if err != nil {
					return fmt.Errorf("outbox entry %x: %w", k, err)
				}
				st.Queued++
				if e.Attempts > 0 && e.LastError != "" {
					st.Retrying++
				}
				if st.Oldest.IsZero() || e.Queued.Before(st.Oldest) {
					st.Oldest = e.Queued
				}
				if first {
					st.NextDue, first = e.Next, false
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if d := subBucket(tx, deadBucket); d != nil {
			st.Dead = d.KeyN()
		}
		return nil
	})
	return st, err
}

// Queued lists up to limit queued entries (limit ≤ 0: all) in the order
// they are due.
func (o *Outbox) Queued(limit int) ([]*Entry, error) { return o.list(queueBucket, limit) }

// Dead lists up to limit dead letters (limit ≤ 0: all), oldest first.
func (o *Outbox) Dead(limit int) ([]*Entry, error) { return o.list(deadBucket, limit) }

func (o *Outbox) list(name []byte, limit int) ([]*Entry, error) {
	var out []*Entry
	err := o.db.Read(func(tx *store.Tx) error {
		b := subBucket(tx, name)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("outbox entry %x: %w", k, err)
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// Requeue moves dead letters back to the queue, due at once with their
// attempts reset but their event_id and body unchanged: for an operator
// who fixed the receiver after the 72 hours ran out. An empty seqs list
// requeues every dead letter. It returns how many moved.
func (o *Outbox) Requeue(now time.Time, seqs ...uint64) (int, error) {
	n := 0
	err := o.db.Write(func(tx *store.Tx) error {
		d := subBucket(tx, deadBucket)
		if d == nil {
			return nil
		}
		q, err := store.Outbox.Bucket(tx).CreateBucketIfNotExists(queueBucket)
		if err != nil {
			return err
		}
		var keys [][]byte
		if len(seqs) == 0 {
			err := d.ForEach(func(k, _ []byte) error { keys = append(keys, bytes.Clone(k)); return nil })
			if err != nil {
				return err
			}
		} else {
			for _, s := range seqs {
				keys = append(keys, seqKey(s))
			}
		}
		for _, k := range keys {
			v := d.Get(k)
			if v == nil {
				continue
			}
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("outbox entry %x: %w", k, err)
			}
			e.Attempts, e.Dead, e.Queued, e.Next = 0, time.Time{}, now.UTC(), now.UTC()
			if err := q.Put(queueKey(e.Next, e.Seq), e.encode()); err != nil {
				return err
			}
			if err := d.Delete(k); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
