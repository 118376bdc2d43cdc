package casework

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Screening is one screening to log: who screened, the query as the
// caller describes it, the database version and the record ids returned.
type Screening struct {
	Actor   string
	Query   string
	Version string
	IDs     []string
}

func (s *Screening) check() error {
	if strings.TrimSpace(s.Actor) == "" {
		return &FieldError{Field: "actor", Msg: "required"}
	}
	if len(s.Query) > maxText || len(s.Actor) > maxText || len(s.Version) > maxText {
		return &FieldError{Field: "query", Msg: fmt.Sprintf("longer than %d bytes", maxText)}
	}
	if len(s.IDs) > MaxScreeningIDs {
		s.IDs = s.IDs[:MaxScreeningIDs]
	}
	return nil
}

// LogScreenings appends screenings to the audit log in one transaction:
// the batched form of LogScreening, for a server that logs every check.
// A bad screening refuses the whole call.
func (c *Casework) LogScreenings(ss []Screening) error {
	for i := range ss {
		if err := ss[i].check(); err != nil {
			return fmt.Errorf("screening %d: %w", i+1, err)
		}
	}
	if len(ss) == 0 {
		return nil
	}
	return c.update(func(_ *store.Tx, _ time.Time, log *auditWriter) error {
		for _, s := range ss {
			if err := log.add(Entry{Actor: s.Actor, Action: ActionScreening, Query: s.Query, Version: s.Version, IDs: s.IDs}); err != nil {
				return err
			}
		}
		return nil
	})
}

// ScreeningLog logs screenings in the background: Add queues one and
// returns at once; a goroutine writes what is queued in one transaction,
// so that a server's checks do not wait for the disk. The queue is
// bounded: when it is full, Add blocks until the writer has caught up, so
// no screening goes unlogged and memory stays bounded.
type ScreeningLog struct {
	c    *Casework
	ch   chan Screening
	max  int
	done chan struct{}
	// onErr receives the error of a failed write.
	onErr func(error)

	// send is held for reading while Add sends, and for writing by Close,
	// so that nothing is sent on the closed queue.
	send   sync.RWMutex
	closed bool

	mu      sync.Mutex
	flushed sync.Cond
	queued  uint64 // screenings added
	written uint64 // screenings written (or failed)
}

// NewScreeningLog starts a ScreeningLog with a queue of size screenings
// (0 means 4096), writing at most size per transaction; onErr (nil:
// ignored) receives write errors. Close stops it.
func (c *Casework) NewScreeningLog(size int, onErr func(error)) *ScreeningLog {
	if size <= 0 {
		size = 4096
	}
	l := &ScreeningLog{c: c, ch: make(chan Screening, size), max: size, done: make(chan struct{}), onErr: onErr}
	l.flushed.L = &l.mu
	go l.loop()
	return l
}

// Add queues s; it blocks only while the queue is full. After Close it
// does nothing.
func (l *ScreeningLog) Add(s Screening) {
	l.send.RLock()
	defer l.send.RUnlock()
	if l.closed {
		return
	}
	l.mu.Lock()
	l.queued++
	l.mu.Unlock()
	l.ch <- s
}

func (l *ScreeningLog) loop() {
	defer close(l.done)
	batch := make([]Screening, 0, l.max)
	for s := range l.ch {
		batch = append(batch[:0], s)
	drain:
		for len(batch) < l.max {
			select {
			case s, ok := <-l.ch:
				if !ok {
					break drain
				}
				batch = append(batch, s)
			default:
				break drain
			}
		}
		if err := l.c.LogScreenings(batch); err != nil && l.onErr != nil {
			l.onErr(err)
		}
		l.mu.Lock()
		l.written += uint64(len(batch))
		l.flushed.Broadcast()
		l.mu.Unlock()
	}
}

// Flush waits until every screening added before it is written.
func (l *ScreeningLog) Flush() {
	l.mu.Lock()
	want := l.queued
	for l.written < want {
		l.flushed.Wait()
	}
	l.mu.Unlock()
}

// Close writes what is queued and stops the writer.
func (l *ScreeningLog) Close() {
	l.send.Lock()
	if l.closed {
		l.send.Unlock()
		return
	}
	l.closed = true
	close(l.ch)
	l.send.Unlock()
	<-l.done
}

// Screened logs the screening s and raises its hits as alerts (see Raise),
// in one transaction: the workbench's screening and the alerts it raised
// are in the store together, or neither is.
func (c *Casework) Screened(s Screening, hits []NewAlert) (RaiseResult, error) {
	if err := s.check(); err != nil {
		return RaiseResult{}, err
	}
	var res RaiseResult
	raise, err := raiser(s.Actor, hits, &res)
	if err != nil {
		return RaiseResult{}, err
	}
	err = c.update(func(tx *store.Tx, now time.Time, log *auditWriter) error {
		if err := log.add(Entry{Actor: s.Actor, Action: ActionScreening, Query: s.Query, Version: s.Version, IDs: s.IDs}); err != nil {
			return err
		}
		if len(hits) == 0 {
			return nil
		}
		return raise(tx, now, log)
	})
	if err != nil {
		return RaiseResult{}, fmt.Errorf("log the screening: %w", err)
	}
	return res, nil
}
