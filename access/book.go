package access

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Book counts calls per key, endpoint path and UTC day, and enforces the
// quotas counted from them. Counts gather in memory and are added to the
// store's usage bucket by Flush, so that a call costs a map increment, not
// a disk write. Readers add what is pending to what is stored, so they see
// every counted call at once.
//
// A quota window (a key's billed calls in a month, its downloads on a day)
// is summed from the counts once, then kept in memory, and a call reserves
// its place in the window before it runs, so concurrent calls can never
// overrun a quota.
//
// Stored layout, in store.Usage: key "<key id>/<yyyy-mm-dd>/<path>",
// value the count as 8 bytes big-endian. A month is one prefix scan.
// Book's methods are safe for concurrent use.
type Book struct {
	st *store.Store

	mu      sync.Mutex
	pending map[usageKey]int64
	windows map[windowKey]*int64

	// flushMu is held while counts travel from pending to the store, so
	// that a reader never sees them in neither place.
	flushMu sync.Mutex
}

type usageKey struct{ key, day, path string }

// Window is the kind of period a quota counts calls in.
type Window uint8

const (
	// Month is a UTC calendar month: the billed quota.
	Month Window = iota
	// Day is a UTC day: the daily download limit.
	Day
)

type windowKey struct {
	key    string
	kind   Window
	period string // yyyy-mm or yyyy-mm-dd
}

// Reservation is a place taken in a quota window by a call in flight.
type Reservation struct{ w windowKey }

// QuotaError is a call refused because its window is full.
type QuotaError struct {
	Window Window
	// Used and Limit are the calls in the window and the quota.
	Used, Limit int64
	// Renews is when the window ends; RetryAfter the whole seconds until
	// then, rounded up.
	Renews     time.Time
	RetryAfter int64
}

// Error says which quota, how much of it is used and when it renews.
func (e *QuotaError) Error() string {
	if e.Window == Day {
		return fmt.Sprintf("daily download limit reached: %d of %d getConsolidatedFile and getConsolidatedDelta calls used today (UTC); the next is allowed from %s", e.Used, e.Limit, e.Renews.Format(time.RFC3339))
	}
	return fmt.Sprintf("monthly quota reached: %d of %d billed requests used this month (UTC); it renews on %s", e.Used, e.Limit, e.Renews.Format(time.RFC3339))
}

// NewBook returns a book over the usage bucket of st; a nil st keeps the
// counts in memory only.
func NewBook(st *store.Store) *Book {
	return &Book{st: st, pending: map[usageKey]int64{}, windows: map[windowKey]*int64{}}
}

// Count adds one answered call of key id to path at now.
func (u *Book) Count(key, path string, now time.Time) {
	day := now.UTC().Format(time.DateOnly)
	u.mu.Lock()
	u.pending[usageKey{key, day, path}]++
	u.mu.Unlock()
}

// Reserve takes a place in the key's window of kind at now and returns the
// calls in the window with it, or a *QuotaError when limit calls of paths
// are already in it (and returns them).
func (u *Book) Reserve(key string, kind Window, now time.Time, limit int64, paths map[string]bool) (Reservation, int64, error) {
	now = now.UTC()
	wk := windowKey{key: key, kind: kind, period: now.Format("2006-01")}
	y, m, d := now.Date()
	end := time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
	if kind == Day {
		wk.period = now.Format(time.DateOnly)
		end = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
	}
	used, err := u.window(wk, paths)
	if err != nil {
		return Reservation{}, 0, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if *used >= limit {
		retry := int64(end.Sub(now).Seconds() + 0.999)
		return Reservation{}, *used, &QuotaError{Window: kind, Used: *used, Limit: limit, Renews: end, RetryAfter: retry}
	}
	*used++
	return Reservation{w: wk}, *used, nil
}

// Release gives a reserved place back, for a call that was not answered.
func (u *Book) Release(r Reservation) {
	u.mu.Lock()
	if n := u.windows[r.w]; n != nil && *n > 0 {
		*n--
	}
	u.mu.Unlock()
}

// window returns the counter of wk, summing it from the counts the first
// time. Windows of the same key and kind for other periods are dropped.
func (u *Book) window(wk windowKey, paths map[string]bool) (*int64, error) {
	u.mu.Lock()
	n := u.windows[wk]
	u.mu.Unlock()
	if n != nil {
		return n, nil
	}
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	prefix := wk.period
	if wk.kind == Month {
		prefix += "-"
	}
	var sum int64
	err := u.scan(wk.key, prefix, func(_, path string, c int64) {
		if paths[path] {
			sum += c
		}
	})
	if err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if n := u.windows[wk]; n != nil {
		return n, nil
	}
	for k, c := range u.pending {
		if k.key == wk.key && strings.HasPrefix(k.day, prefix) && paths[k.path] {
			sum += c
		}
	}
	for k := range u.windows {
		if k.key == wk.key && k.kind == wk.kind {
			delete(u.windows, k)
		}
	}
	u.windows[wk] = &sum
	return &sum, nil
}

// Month returns the key's counts in month (yyyy-mm) by path and day,
// stored and pending together.
func (u *Book) Month(key, month string) (map[string]map[string]int64, error) {
	out := map[string]map[string]int64{}
	add := func(day, path string, c int64) {
		if out[path] == nil {
			out[path] = map[string]int64{}
		}
		out[path][day] += c
	}
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	if err := u.scan(key, month+"-", add); err != nil {
		return nil, err
	}
	u.mu.Lock()
	for k, c := range u.pending {
		if k.key == key && strings.HasPrefix(k.day, month+"-") {
			add(k.day, k.path, c)
		}
	}
	u.mu.Unlock()
	return out, nil
}

// Pending returns the number of counters not yet flushed.
func (u *Book) Pending() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.pending)
}

// scan calls fn for every stored count of key on days starting with
// prefix. The caller holds flushMu.
func (u *Book) scan(key, prefix string, fn func(day, path string, c int64)) error {
	if u.st == nil {
		return nil
	}
	p := []byte(key + "/" + prefix)
	err := u.st.Read(func(tx *store.Tx) error {
		b := store.Usage.Bucket(tx)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			rest := string(k[len(key)+1:])
			day, path, ok := strings.Cut(rest, "/")
			if !ok || len(v) != 8 {
				continue
			}
			fn(day, "/"+path, int64(binary.BigEndian.Uint64(v)))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read usage: %w", err)
	}
	return nil
}

// Flush adds the pending counts to the store in one transaction. On
// failure they go back to pending for the next try.
func (u *Book) Flush() error {
	if u.st == nil {
		return nil
	}
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	u.mu.Lock()
	p := u.pending
	if len(p) == 0 {
		u.mu.Unlock()
		return nil
	}
	u.pending = map[usageKey]int64{}
	u.mu.Unlock()
	err := u.st.Write(func(tx *store.Tx) error {
		b, err := store.Usage.Create(tx)
		if err != nil {
			return err
		}
		for k, c := range p {
			// Paths start with "/", which the key's own separator supplies.
			sk := []byte(k.key + "/" + k.day + k.path)
			var n uint64
			if v := b.Get(sk); len(v) == 8 {
				n = binary.BigEndian.Uint64(v)
			}
			if err := b.Put(sk, binary.BigEndian.AppendUint64(nil, n+uint64(c))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		u.mu.Lock()
		for k, c := range p {
			u.pending[k] += c
		}
		u.mu.Unlock()
		return fmt.Errorf("write usage: %w", err)
	}
	return nil
}
