package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/store"
	bolt "go.etcd.io/bbolt"
)

func init() {
	register(Endpoint{
		Path:   "/v1/usage",
		Params: []string{"month"},
		// SERVICE.md §4.16 and §7: usage alone refuses other parameters,
		// with the message about the month format.
		Unknown: func(name string) error {
			return Errorf(http.StatusBadRequest, "unsupported parameter %s: usage takes only month, and month must use the yyyy-MM format", quote(name))
		},
		Handle: usageReport,
	})
}

// Usage is the answer of /v1/usage (SERVICE.md §2.6).
type Usage struct {
	Month     string          `json:"month"`
	Timezone  string          `json:"timezone"`
	Summary   UsageSummary    `json:"summary"`
	Endpoints []EndpointUsage `json:"endpoints"`
}

// UsageSummary is the summary object of Usage; the optional numbers are
// absent when the key has no such limit or nothing registered.
type UsageSummary struct {
	BilledUsed         int64  `json:"billed_requests_monthly_used"`
	BilledQuota        *int64 `json:"billed_requests_quota,omitempty"`
	ProfilesRegistered *int64 `json:"ongoing_monitoring_profiles_registered,omitempty"`
	ProfilesQuota      *int64 `json:"ongoing_monitoring_profiles_quota,omitempty"`
}

// EndpointUsage is the use of one endpoint in the month.
type EndpointUsage struct {
	Path        string     `json:"path"`
	MonthlyUsed int64      `json:"monthly_used"`
	Daily       []DayUsage `json:"daily"`
}

// DayUsage is the use of one endpoint on one UTC day.
type DayUsage struct {
	Date string `json:"date"`
	Used int64  `json:"used"`
}

// usageReport answers /v1/usage for the calling key.
func usageReport(s *Server, c *Call) error {
	month := c.Param("month")
	if month == "" {
		month = c.Now.UTC().Format("2006-01")
	} else if !validMonth(month) {
		return Errorf(http.StatusBadRequest, "month %s: month must use the yyyy-MM format, e.g. %s", quote(month), c.Now.UTC().Format("2006-01"))
	}
	counts, err := s.usage.month(c.Key.id, month)
	if err != nil {
		return err
	}
	u := Usage{Month: month, Timezone: "UTC", Endpoints: []EndpointUsage{}}
	u.Summary.BilledQuota = c.Key.MonthlyQuota
	u.Summary.ProfilesQuota = c.Key.ProfileQuota
	if s.profiles != nil {
		n, err := s.profiles(c.Key.id)
		if err != nil {
			return fmt.Errorf("count search profiles: %w", err)
		}
		if n > 0 {
			v := int64(n)
			u.Summary.ProfilesRegistered = &v
		}
	}
	for _, path := range slices.Sorted(maps.Keys(counts)) {
		days := counts[path]
		eu := EndpointUsage{Path: path}
		for _, day := range slices.Sorted(maps.Keys(days)) {
			n := days[day]
			eu.Daily = append(eu.Daily, DayUsage{Date: day, Used: n})
			eu.MonthlyUsed += n
		}
		if s.billed[path] {
			u.Summary.BilledUsed += eu.MonthlyUsed
		}
		u.Endpoints = append(u.Endpoints, eu)
	}
	body, err := json.Marshal(u)
	if err != nil {
		return err
	}
	return c.JSON(body)
}

// validMonth accepts yyyy-mm with a month from 01 to 12.
func validMonth(s string) bool {
	if len(s) != 7 || s[4] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && (c < '0' || c > '9') {
			return false
		}
	}
	m := (s[5]-'0')*10 + s[6] - '0'
	return m >= 1 && m <= 12
}

// usageBook counts calls per key, endpoint and UTC day. Counts gather in
// memory and are added to the store's usage bucket by flush, once a second,
// so that a call costs a map increment, not a disk write. Readers add what
// is pending to what is stored, so they see every answered call at once.
//
// It also enforces the quotas: a quota window (a key's billed calls in a
// month, its downloads on a day) is summed from the counts once, then kept
// in memory, and a call reserves its place in the window before it runs,
// so concurrent calls can never overrun a quota.
//
// Stored layout: key "<key id>/<yyyy-mm-dd>/<path>", value the count as 8
// bytes big-endian. A month is one prefix scan.
type usageBook struct {
	st *store.DB

	mu      sync.Mutex
	pending map[usageKey]int64
	windows map[windowKey]*int64

	// flushMu is held while counts travel from pending to the store, so
	// that a reader never sees them in neither place.
	flushMu sync.Mutex
}

type usageKey struct{ key, day, path string }

type windowKind uint8

const (
	windowMonth windowKind = iota // billed calls in a UTC calendar month
	windowDay                     // downloads on a UTC day
)

type windowKey struct {
	key    string
	kind   windowKind
	period string // yyyy-mm or yyyy-mm-dd
}

// reservation is a place taken in a quota window by a call in flight.
type reservation struct{ w windowKey }

func newUsageBook(st *store.DB) *usageBook {
	return &usageBook{st: st, pending: map[usageKey]int64{}, windows: map[windowKey]*int64{}}
}

// count adds one answered call.
func (u *usageBook) count(key, path string, now time.Time) {
	day := now.UTC().Format(time.DateOnly)
	u.mu.Lock()
	u.pending[usageKey{key, day, path}]++
	u.mu.Unlock()
}

// reserve takes a place in the key's window of kind at now and returns the
// calls in the window with it, or answers 429 with Retry-After until the
// window ends when limit calls of paths are already in it (and returns
// them).
func (u *usageBook) reserve(key string, kind windowKind, now time.Time, limit int64, paths map[string]bool) (reservation, int64, error) {
	now = now.UTC()
	wk := windowKey{key: key, kind: kind, period: now.Format("2006-01")}
	y, m, d := now.Date()
	end := time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
	if kind == windowDay {
		wk.period = now.Format(time.DateOnly)
		end = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
	}
	used, err := u.window(wk, paths)
	if err != nil {
		return reservation{}, 0, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if *used >= limit {
		retry := int64(end.Sub(now).Seconds() + 0.999)
		if kind == windowDay {
			return reservation{}, *used, &Error{Status: http.StatusTooManyRequests, RetryAfter: retry,
				Message: fmt.Sprintf("daily download limit reached: %d of %d getConsolidatedFile and getConsolidatedDelta calls used today (UTC); the next is allowed from %s", *used, limit, end.Format(time.RFC3339))}
		}
		return reservation{}, *used, &Error{Status: http.StatusTooManyRequests, RetryAfter: retry,
			Message: fmt.Sprintf("monthly quota reached: %d of %d billed requests used this month (UTC); it renews on %s", *used, limit, end.Format(time.RFC3339))}
	}
	*used++
	return reservation{w: wk}, *used, nil
}

// release gives a reserved place back, for a call that was not answered.
func (u *usageBook) release(r reservation) {
	u.mu.Lock()
	if n := u.windows[r.w]; n != nil && *n > 0 {
		*n--
	}
	u.mu.Unlock()
}

// window returns the counter of wk, summing it from the counts the first
// time. Windows of the same key and kind for other periods are dropped.
func (u *usageBook) window(wk windowKey, paths map[string]bool) (*int64, error) {
	u.mu.Lock()
	n := u.windows[wk]
	u.mu.Unlock()
	if n != nil {
		return n, nil
	}
	u.flushMu.Lock()
	defer u.flushMu.Unlock()
	prefix := wk.period
	if wk.kind == windowMonth {
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

// month returns the key's counts in month (yyyy-mm) by path and day,
// stored and pending together.
func (u *usageBook) month(key, month string) (map[string]map[string]int64, error) {
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

// scan calls fn for every stored count of key on days starting with
// prefix. The caller holds flushMu.
func (u *usageBook) scan(key, prefix string, fn func(day, path string, c int64)) error {
	if u.st == nil {
		return nil
	}
	p := []byte(key + "/" + prefix)
	err := u.st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(store.BucketUsage)
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

// flush adds the pending counts to the store in one transaction. On
// failure they go back to pending for the next try.
func (u *usageBook) flush() error {
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
	err := u.st.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(store.BucketUsage)
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
