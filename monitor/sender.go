package monitor

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/tlsconf"
)

// Defaults of a Sender (docs/API.md "Monitoring and webhooks").
const (
	DefaultTimeout     = 30 * time.Second // a receiver answers within 30 s
	DefaultConcurrency = 8
	DefaultPoll        = time.Second
	DefaultInitial     = time.Second
	DefaultMaxBackoff  = time.Hour
	DefaultGiveUp      = 72 * time.Hour
	claimBatch         = 256
)

// Backoff is the retry schedule: the wait after the n-th failed attempt,
// counted from when it failed, is Initial·2ⁿ⁻¹, at most Max; a notification whose next attempt would fall
// more than GiveUp after it was queued becomes a dead letter instead.
type Backoff struct {
	Initial, Max, GiveUp time.Duration
}

func (b Backoff) withDefaults() Backoff {
	if b.Initial <= 0 {
		b.Initial = DefaultInitial
	}
	if b.Max <= 0 {
		b.Max = DefaultMaxBackoff
	}
	if b.GiveUp <= 0 {
		b.GiveUp = DefaultGiveUp
	}
	return b
}

// Delay returns the wait after the attempts-th failed attempt.
func (b Backoff) Delay(attempts int) time.Duration {
	b = b.withDefaults()
	d := b.Initial
	for i := 1; i < attempts && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Recipient is where an owner's notifications go: the key's webhook_url,
// and the key itself, sent as x-api-key so that the receiver can check
// where a notification comes from (docs/API.md "Monitoring and webhooks").
type Recipient struct {
	URL    string
	APIKey string
}

// ErrNoRecipient is returned by a Recipients function for an owner without
// a webhook URL: its notifications wait, with backoff, until one is
// configured or they are given up.
var ErrNoRecipient = errors.New("no webhook_url configured for the key")

// KeyRecipient returns where the notifications of the profiles of key id
// owner go: k's webhook_url, with k sent as x-api-key. k is the key of
// that id, nil when no key has it (a key removed from the keys file); a
// disabled key or one without a webhook_url is an error, so the
// notifications wait with backoff.
func KeyRecipient(k *access.Key, owner string) (Recipient, error) {
	switch {
	case k == nil:
		return Recipient{}, fmt.Errorf("%w: no API key has id %s", ErrNoRecipient, owner)
	case k.Disabled:
		return Recipient{}, fmt.Errorf("API key %q is disabled", k.Name)
	case k.WebhookURL == "":
		return Recipient{}, ErrNoRecipient
	}
	return Recipient{URL: k.WebhookURL, APIKey: k.Key}, nil
}

// Signer makes the x-service-signature header value of a body;
// *sign.Keyring is one.
type Signer interface {
	Sign(body []byte) (string, error)
}

// StoreFunc lends the sender the store for one short step (claiming due
// notifications or recording outcomes) and takes it back with release.
type StoreFunc func() (db *store.Store, release func(), err error)

// SharedStore lends a store the process keeps open (amlscreen serve).
func SharedStore(db *store.Store) StoreFunc {
	return func() (*store.Store, func(), error) { return db, func() {}, nil }
}

// StoreAt opens the store at path for each step and closes it afterwards,
// so that a standalone sender (amlscreen monitor send) holds bbolt's
// writer lock for milliseconds at a time and amlscreen apply, import and
// sync can run between its steps.
func StoreAt(path string) StoreFunc {
	return func() (*store.Store, func(), error) {
		db, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
}

// Attempt is the outcome of one delivery, for logs, metrics and tests.
type Attempt struct {
	Entry    *Entry // as claimed: Attempts counts this one
	Status   int    // HTTP status; 0 when there was no answer
	Err      error  // nil when delivered
	Duration time.Duration
}

// SenderStats counts what a sender did.
type SenderStats struct {
	Delivered, Failed, Dead int64
}

// Sender posts queued notifications to their owners' webhook URLs, signed,
// with up to Concurrency deliveries at once. Deliveries are claimed with a
// lease in the store before they start, so several senders on one store,
// or a sender restarted after a crash, never lose one; a delivery whose
// sender died is retried when its lease runs out. Set the fields, then
// call Run or RunOnce; the fields must not change afterwards.
type Sender struct {
	// Store lends the store; required.
	Store StoreFunc
	// Recipients returns where owner's notifications go; required. An
	// error (ErrNoRecipient) counts as a failed attempt.
	Recipients func(owner string) (Recipient, error)
	// Signer signs every body; required.
	Signer Signer
	// Client sends the requests; nil means a client with a connection
	// pool sized to Concurrency that trusts RootCAs. Redirects are not
	// followed: a receiver acknowledges with 2xx.
	Client *http.Client
	// RootCAs are the CAs trusted for HTTPS receivers when Client is nil;
	// nil means the system's (tlsconf.RootCAs adds a --ca-bundle to them).
	RootCAs *x509.CertPool
	// Timeout is how long a receiver has to answer; zero means 30 s.
	Timeout time.Duration
	// Concurrency bounds deliveries in flight; zero means 8.
	Concurrency int
	// Backoff is the retry schedule; zero fields take the defaults.
	Backoff Backoff
	// Lease is how long a claimed delivery is reserved before another
	// sender may retry it; zero means 2·Timeout + 30 s, room for waiting
	// behind the deliveries in flight.
	Lease time.Duration
	// Poll is how often Run looks for due notifications when nothing
	// wakes it; zero means 1 s.
	Poll time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives failures and dead letters; nil discards.
	Log *slog.Logger
	// OnAttempt, when set, is called after every attempt.
	OnAttempt func(Attempt)

	initOnce sync.Once
	wake     chan struct{}
	stats    struct{ delivered, failed, dead atomic.Int64 }
}

func (s *Sender) init() {
	s.initOnce.Do(func() {
		s.wake = make(chan struct{}, 1)
		if s.Timeout <= 0 {
			s.Timeout = DefaultTimeout
		}
		if s.Concurrency <= 0 {
			s.Concurrency = DefaultConcurrency
		}
		s.Backoff = s.Backoff.withDefaults()
		if s.Lease <= 0 {
			s.Lease = 2*s.Timeout + 30*time.Second
		}
		if s.Poll <= 0 {
			s.Poll = DefaultPoll
		}
		if s.Now == nil {
			s.Now = time.Now
		}
		if s.Log == nil {
			s.Log = slog.New(slog.DiscardHandler)
		}
		if s.Client == nil {
			tr := tlsconf.Transport(s.RootCAs)
			tr.MaxIdleConnsPerHost = s.Concurrency
			s.Client = &http.Client{Transport: tr}
		}
		c := *s.Client
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		s.Client = &c
	})
}

// Wake tells a running sender that notifications were queued, so that it
// looks now rather than at its next poll. It never blocks.
func (s *Sender) Wake() {
	s.init()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Stats returns what the sender did so far.
func (s *Sender) Stats() SenderStats {
	return SenderStats{Delivered: s.stats.delivered.Load(), Failed: s.stats.failed.Load(), Dead: s.stats.dead.Load()}
}

func (s *Sender) check() error {
	switch {
	case s.Store == nil:
		return errors.New("sender: no store")
	case s.Recipients == nil:
		return errors.New("sender: no recipients")
	case s.Signer == nil:
		return errors.New("sender: no signer")
	}
	return nil
}

// claimed is a delivery reserved by this sender: key is where the entry
// sits in the queue while leased.
type claimed struct {
	e   *Entry
	key []byte
}

type outcome struct {
	c      *claimed
	status int
	err    error
}

// Run delivers notifications until ctx ends, then lets the deliveries in
// flight finish (each within Timeout), records them and returns nil.
// Store errors (a store another process holds) are logged and retried at
// the next poll.
func (s *Sender) Run(ctx context.Context) error {
	return s.run(ctx, false)
}

// RunOnce delivers the notifications that are due, and returns once none
// is due and none is in flight (retries scheduled for later stay queued),
// or when ctx ends. Unlike Run it returns store errors. Tests drive it with
// a moving clock; amlscreen monitor send --once runs it from cron.
func (s *Sender) RunOnce(ctx context.Context) error {
	return s.run(ctx, true)
}

func (s *Sender) run(ctx context.Context, once bool) error {
	s.init()
	if err := s.check(); err != nil {
		return err
	}
	r := &sendRun{s: s, max: 2 * s.Concurrency}
	r.jobs = make(chan *claimed, r.max)
	r.results = make(chan outcome, r.max)
	r.freed = make(chan struct{}, 1)

	// Deliveries are not cut off when ctx ends: a request in flight gets
	// its Timeout, so that stopping does not turn an answered delivery
	// into a failure.
	reqCtx := context.WithoutCancel(ctx)
	var workers sync.WaitGroup
	for range s.Concurrency {
		workers.Go(func() { r.deliver(reqCtx) })
	}
	committerDone := make(chan struct{})
	go func() {
		defer close(committerDone)
		r.commit(ctx)
	}()

	runErr := r.dispatch(ctx, once)
	close(r.jobs)
	workers.Wait()
	close(r.results)
	<-committerDone
	return runErr
}

// sendRun is one Run or RunOnce: claimed notifications go from dispatch
// through jobs to the delivery workers, and their outcomes through results
// to the committer, which records them in batches and signals freed.
type sendRun struct {
	s        *Sender
	max      int // notifications in flight at most
	jobs     chan *claimed
	results  chan outcome
	freed    chan struct{}
	inflight atomic.Int64
}

// deliver posts the notifications of jobs until it is closed.
func (r *sendRun) deliver(ctx context.Context) {
	for c := range r.jobs {
		status, err := r.s.deliver(ctx, c.e)
		r.results <- outcome{c: c, status: status, err: err}
	}
}

// commit records the outcomes of results, as many at a time as have
// arrived (up to claimBatch, one transaction each), until it is closed.
func (r *sendRun) commit(ctx context.Context) {
	for o := range r.results {
		batch := []outcome{o}
	drain:
		for len(batch) < claimBatch {
			select {
			case o, ok := <-r.results:
				if !ok {
					break drain
				}
				batch = append(batch, o)
			default:
				break drain
			}
		}
		r.s.recordWithRetry(ctx, batch)
		r.inflight.Add(-int64(len(batch)))
		select {
		case r.freed <- struct{}{}:
		default:
		}
	}
}

// dispatch claims due notifications while there is room in flight and
// hands them to the workers, sleeping until the next falls due, a new one
// is queued or room frees up. It returns when ctx ends, or with once when
// nothing is due or in flight; with once a store error ends it too.
func (r *sendRun) dispatch(ctx context.Context, once bool) error {
	s := r.s
	for {
		free := r.max - int(r.inflight.Load())
		var got []*claimed
		var nextDue time.Time
		if free > 0 && ctx.Err() == nil {
			var err error
			got, nextDue, err = s.claim(min(free, claimBatch))
			if err != nil {
				if once {
					return err
				}
				s.Log.Error("webhook outbox not readable; trying again", "error", err.Error())
			}
		}
		if len(got) > 0 {
			r.inflight.Add(int64(len(got)))
			for _, c := range got {
				r.jobs <- c
			}
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		if once && r.inflight.Load() == 0 {
			if nextDue.IsZero() || nextDue.After(s.Now()) {
				return nil
			}
		}
		wait := s.Poll
		if !nextDue.IsZero() {
			wait = min(wait, max(nextDue.Sub(s.Now()), time.Millisecond))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-s.wake:
		case <-r.freed:
		case <-t.C:
		}
		t.Stop()
	}
}

// claim reserves up to n due notifications: each gets one more attempt
// counted and its next attempt moved to the end of a lease, in one
// transaction, before any is sent. It also returns when the first
// notification not yet due falls due (zero when the queue is empty).
func (s *Sender) claim(n int) ([]*claimed, time.Time, error) {
	db, release, err := s.Store()
	if err != nil {
		return nil, time.Time{}, err
	}
	defer release()
	now := s.Now().UTC()
	var out []*claimed
	var nextDue time.Time
	err = db.Write(func(tx *store.Tx) error {
		out, nextDue = out[:0], time.Time{}
		q := subBucket(tx, queueBucket)
		if q == nil {
			return nil
		}
		type move struct {
			old []byte
			c   *claimed
		}
		var moves []move
		c := q.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			due := time.Unix(0, int64(beUint64(k))).UTC()
			if due.After(now) {
				nextDue = due
				break
			}
			if len(moves) == n {
				nextDue = due
				break
			}
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("outbox entry %x: %w", k, err)
			}
			e.Attempts++
			e.Next = now.Add(s.Lease)
			moves = append(moves, move{old: bytes.Clone(k), c: &claimed{e: e, key: queueKey(e.Next, e.Seq)}})
		}
		// bbolt forbids changing a bucket under a live cursor: the moves
		// wait for the walk to end.
		for _, m := range moves {
			if err := q.Delete(m.old); err != nil {
				return err
			}
			if err := q.Put(m.c.key, m.c.e.encode()); err != nil {
				return err
			}
			out = append(out, m.c)
		}
		return nil
	})
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("claim notifications: %w", err)
	}
	return out, nextDue, nil
}

func beUint64(b []byte) uint64 {
	var n uint64
	for _, c := range b[:8] {
		n = n<<8 | uint64(c)
	}
	return n
}

// deliver posts e once and returns the status (0 without an answer) and
// nil when the receiver acknowledged it with 2xx.
func (s *Sender) deliver(ctx context.Context, e *Entry) (status int, err error) {
	start := time.Now()
	defer func() {
		if s.OnAttempt != nil {
			s.OnAttempt(Attempt{Entry: e, Status: status, Err: err, Duration: time.Since(start)})
		}
	}()
	rc, err := s.Recipients(e.Owner)
	if err != nil {
		return 0, err
	}
	if rc.URL == "" {
		return 0, ErrNoRecipient
	}
	sig, err := s.Signer.Sign(e.Body)
	if err != nil {
		return 0, fmt.Errorf("sign: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rc.URL, bytes.NewReader(e.Body))
	if err != nil {
		return 0, fmt.Errorf("webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "amlscreen-webhook/1")
	req.Header.Set("x-api-key", rc.APIKey)
	req.Header.Set(sign.HeaderName, sig)
	resp, err := s.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("no answer within %v", s.Timeout)
		}
		return 0, scrub(err, rc.APIKey)
	}
	// The receiver's body means nothing; reading a little of it lets
	// the connection be reused.
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// scrub keeps an API key out of error text (a URL error quotes the URL,
// which a careless webhook_url might carry it in).
func scrub(err error, key string) error {
	if key == "" || !bytes.Contains([]byte(err.Error()), []byte(key)) {
		return err
	}
	return errors.New(string(bytes.ReplaceAll([]byte(err.Error()), []byte(key), []byte("<api-key>"))))
}

// recordWithRetry records outcomes, retrying while the store is not
// available. If ctx has ended and recording still fails, the outcomes are
// dropped: their leases run out and they are delivered again, which
// receivers de-duplicate by event_id.
func (s *Sender) recordWithRetry(ctx context.Context, batch []outcome) {
	for {
		err := s.record(batch)
		if err == nil {
			return
		}
		s.Log.Error("webhook outcomes not recorded; trying again", "error", err.Error(), "deliveries", len(batch))
		if ctx.Err() != nil {
			return
		}
		t := time.NewTimer(s.Poll)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// record removes delivered notifications from the queue and reschedules
// failed ones, or moves them to the dead letters, in one transaction. An
// entry no longer at the key it was claimed under was taken over by
// another sender after the lease ran out, and is left to that one.
func (s *Sender) record(batch []outcome) error {
	db, release, err := s.Store()
	if err != nil {
		return err
	}
	defer release()
	now := s.Now().UTC()
	var delivered, failed, dead int64
	err = db.Write(func(tx *store.Tx) error {
		delivered, failed, dead = 0, 0, 0
		q := subBucket(tx, queueBucket)
		if q == nil {
			return nil
		}
		for _, o := range batch {
			v := q.Get(o.c.key)
			if v == nil {
				continue
			}
			if err := q.Delete(o.c.key); err != nil {
				return err
			}
			if o.err == nil {
				delivered++
				continue
			}
			failed++
			e, err := decodeEntry(v)
			if err != nil {
				return fmt.Errorf("outbox entry %x: %w", o.c.key, err)
			}
			e.LastStatus, e.LastError = o.status, o.err.Error()
			next := now.Add(s.Backoff.Delay(e.Attempts))
			if next.Sub(e.Queued) > s.Backoff.GiveUp {
				e.Dead = now
				d, err := store.Outbox.Bucket(tx).CreateBucketIfNotExists(deadBucket)
				if err != nil {
					return err
				}
				if err := d.Put(seqKey(e.Seq), e.encode()); err != nil {
					return err
				}
				dead++
				s.Log.Error("webhook given up: moved to the dead letters", "event_id", e.EventID,
					"profile_id", e.ProfileID, "attempts", e.Attempts, "error", e.LastError)
				continue
			}
			e.Next = next
			if err := q.Put(queueKey(next, e.Seq), e.encode()); err != nil {
				return err
			}
			s.Log.Warn("webhook not delivered; will retry", "event_id", e.EventID, "profile_id", e.ProfileID,
				"attempt", e.Attempts, "status", strconv.Itoa(o.status), "error", e.LastError, "next", next.Format(time.RFC3339))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record deliveries: %w", err)
	}
	s.stats.delivered.Add(delivered)
	s.stats.failed.Add(failed)
	s.stats.dead.Add(dead)
	return nil
}
