package ui

import (
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/monitor"
)

// Delivery is a notification a receiver acknowledged.
type Delivery struct {
	At        time.Time
	EventID   string
	Owner     string
	ProfileID string
	MatchType string
	RecordID  string
	Status    int
	Attempts  int
	Test      bool
}

// DeliveryLog remembers the latest deliveries of this process, for the
// monitoring page: the outbox deletes a notification once delivered, so
// what was delivered is only known to the sender that delivered it. It
// keeps the last DeliveryLogSize, is lost on restart, and is safe for
// concurrent use. Pass Note as monitor.Sender.OnAttempt.
type DeliveryLog struct {
	mu    sync.Mutex
	since time.Time
	ring  []Delivery
	next  int
	full  bool
}

// DeliveryLogSize is how many deliveries a DeliveryLog keeps.
const DeliveryLogSize = 1000

// NewDeliveryLog returns an empty log that starts now.
func NewDeliveryLog() *DeliveryLog {
	return &DeliveryLog{since: time.Now().UTC(), ring: make([]Delivery, DeliveryLogSize)}
}

// Note records a successful attempt; failures stay in the outbox, which
// shows them.
func (l *DeliveryLog) Note(a monitor.Attempt) {
	if a.Err != nil || a.Entry == nil {
		return
	}
	e := a.Entry
	d := Delivery{At: time.Now().UTC(), EventID: e.EventID, Owner: e.Owner, ProfileID: e.ProfileID, MatchType: e.MatchType,
		RecordID: e.RecordID, Status: a.Status, Attempts: e.Attempts, Test: e.Test}
	l.mu.Lock()
	l.ring[l.next] = d
	l.next = (l.next + 1) % len(l.ring)
	if l.next == 0 {
		l.full = true
	}
	l.mu.Unlock()
}

// Of returns owner's deliveries, newest first, at most limit, and since
// when the log records.
func (l *DeliveryLog) Of(owner string, limit int) ([]Delivery, time.Time) {
	if l == nil {
		return nil, time.Time{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.next
	if l.full {
		n = len(l.ring)
	}
	var out []Delivery
	for i := 1; i <= n && len(out) < limit; i++ {
		d := l.ring[(l.next-i+len(l.ring))%len(l.ring)]
		if d.Owner == owner {
			out = append(out, d)
		}
	}
	return out, l.since
}
