package access

import (
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var billed = map[string]bool{"/v1/checkName": true}

func TestBookQuotaWindows(t *testing.T) {
	st := openStore(t)
	b := NewBook(st)
	now := time.Date(2026, 3, 31, 23, 59, 30, 0, time.UTC)
	for range 2 {
		if _, _, err := b.Reserve("k", Month, now, 2, billed); err != nil {
			t.Fatal(err)
		}
		b.Count("k", "/v1/checkName", now)
	}
	_, used, err := b.Reserve("k", Month, now, 2, billed)
	var qe *QuotaError
	if !errors.As(err, &qe) || used != 2 || qe.RetryAfter != 30 || qe.Window != Month {
		t.Fatalf("third call: used %d, %v", used, err)
	}
	const msg = "monthly quota reached: 2 of 2 billed requests used this month (UTC); it renews on 2026-04-01T00:00:00Z"
	if qe.Error() != msg {
		t.Errorf("message %q", qe.Error())
	}
	// The counts reach the store; a new book sums the window from there.
	if err := b.Flush(); err != nil || b.Pending() != 0 {
		t.Fatalf("flush: %v, %d pending", err, b.Pending())
	}
	again := NewBook(st)
	if _, _, err := again.Reserve("k", Month, now, 2, billed); !errors.As(err, &qe) {
		t.Errorf("a new book over the same store lets a third call in: %v", err)
	}
	// April is a new window; another key has its own.
	if _, used, err := again.Reserve("k", Month, now.Add(time.Minute), 2, billed); err != nil || used != 1 {
		t.Errorf("new month: used %d, %v", used, err)
	}
	if _, _, err := again.Reserve("other", Month, now, 2, billed); err != nil {
		t.Errorf("other key: %v", err)
	}
	// A window counts the calls of its paths only: one /v1/usage call,
	// and the one reserving.
	b.Count("k", "/v1/usage", now)
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, used, err := NewBook(st).Reserve("k", Day, now, 10, map[string]bool{"/v1/usage": true}); err != nil || used != 2 {
		t.Errorf("day window of /v1/usage: used %d, %v", used, err)
	}

	m, err := b.Month("k", "2026-03")
	if err != nil || m["/v1/checkName"]["2026-03-31"] != 2 || m["/v1/usage"]["2026-03-31"] != 1 {
		t.Errorf("month: %v, %v", m, err)
	}
}

func TestBookDayMessageAndRelease(t *testing.T) {
	b := NewBook(nil)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	dl := map[string]bool{"/v1/getConsolidatedFile": true}
	rv, _, err := b.Reserve("k", Day, now, 1, dl)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = b.Reserve("k", Day, now, 1, dl)
	var qe *QuotaError
	if !errors.As(err, &qe) || qe.RetryAfter != 12*3600 ||
		qe.Error() != "daily download limit reached: 1 of 1 getConsolidatedFile and getConsolidatedDelta calls used today (UTC); the next is allowed from 2026-05-02T00:00:00Z" {
		t.Fatalf("second download: %v", err)
	}
	b.Release(rv)
	if _, _, err := b.Reserve("k", Day, now, 1, dl); err != nil {
		t.Errorf("after release: %v", err)
	}
}

// TestBookConcurrentReserve: concurrent calls never overrun a quota.
func TestBookConcurrentReserve(t *testing.T) {
	b := NewBook(openStore(t))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var granted atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if _, _, err := b.Reserve("k", Month, now, 100, billed); err == nil {
					granted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if granted.Load() != 100 {
		t.Errorf("%d calls granted of a quota of 100", granted.Load())
	}
}
