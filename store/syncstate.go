package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DailyDownloadLimit is the service's limit on getConsolidatedFile and
// getConsolidatedDelta calls together, per UTC day (docs/API.md "Deltas").
const DailyDownloadLimit = 50

// Response headers by which an amlscreen primary announces the daily
// download limit of the calling key on getConsolidatedFile and
// getConsolidatedDelta, so that its replicas follow it instead of
// assuming DailyDownloadLimit. A limit of 0 means none; the remaining
// count is absent then.
const (
	HeaderDownloadLimit      = "X-Daily-Download-Limit"
	HeaderDownloadsRemaining = "X-Daily-Downloads-Remaining"
)

// Download counters live in the sync bucket under "downloads/" and the
// UTC day; days older than a month are dropped as new ones are counted.
const (
	downloadPrefix = "downloads/"
	downloadKeep   = 31 * 24 * time.Hour
)

var syncStateKey = []byte("state")

// DownloadLimitError is returned by CountDownload when the day's downloads
// are used up.
type DownloadLimitError struct {
	Used, Limit int // downloads made today, and allowed per day
	// Reset is when the next download is allowed: the next midnight UTC.
	Reset time.Time
}

// Error says how many downloads were used and when the next is allowed.
func (e *DownloadLimitError) Error() string {
	return fmt.Sprintf("daily download limit reached: %d of %d downloads used today (UTC); the next is allowed after %s",
		e.Used, e.Limit, e.Reset.Format(time.RFC3339))
}

// ErrDownloadLimit matches a *DownloadLimitError with errors.Is.
var ErrDownloadLimit = errors.New("daily download limit reached")

// Is lets errors.Is(err, ErrDownloadLimit) match.
func (e *DownloadLimitError) Is(target error) bool { return target == ErrDownloadLimit }

func dayKey(now time.Time) []byte {
	return []byte(downloadPrefix + now.UTC().Format(time.DateOnly))
}

// DownloadsToday returns the downloads counted on now's UTC day.
func (db *Store) DownloadsToday(now time.Time) (int, error) {
	var n uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		n = getUint(tx.Bucket(bucketSync), dayKey(now))
		return nil
	})
	return int(n), err
}

// CountDownload counts one download on now's UTC day in a transaction of
// its own and returns the day's count, or a *DownloadLimitError without
// counting when limit downloads were already made. A client calls it
// before each request, so that even a crash between request and import
// never lets it exceed the limit.
func (db *Store) CountDownload(now time.Time, limit int) (int, error) {
	if db.readOnly {
		return 0, ErrReadOnly
	}
	var n int
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		n, err = countDownloadTx(tx, now, limit)
		return err
	})
	return n, err
}

// countDownloadTx is CountDownload inside a transaction of the store.
func countDownloadTx(tx *bolt.Tx, now time.Time, limit int) (int, error) {
	b := tx.Bucket(bucketSync)
	key := dayKey(now)
	used := int(getUint(b, key))
	if used >= limit {
		y, m, d := now.UTC().Date()
		return used, &DownloadLimitError{Used: used, Limit: limit, Reset: time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)}
	}
	if err := putUint(b, key, uint64(used+1)); err != nil {
		return used, err
	}
	// Forget old days.
	cutoff := string(dayKey(now.Add(-downloadKeep)))
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.Seek([]byte(downloadPrefix)); k != nil && strings.HasPrefix(string(k), downloadPrefix) && string(k) < cutoff; k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return used, err
		}
	}
	return used + 1, nil
}

// UncountDownload takes back a download counted on now's UTC day, for a
// request that provably never reached the upstream (the connection could
// not be opened): an upstream that is down must not use up the day's
// downloads.
func (db *Store) UncountDownload(now time.Time) error {
	if db.readOnly {
		return ErrReadOnly
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSync)
		key := dayKey(now)
		if used := getUint(b, key); used > 0 {
			return putUint(b, key, used-1)
		}
		return nil
	})
}

// SyncState is what the sync client remembers between runs, beyond the
// version: where it synced from, with which includes, and how the last run
// went.
type SyncState struct {
	Upstream    string    `json:"upstream,omitempty"`    // base URL last synced from
	Includes    string    `json:"includes,omitempty"`    // includes of the last successful sync
	LastAttempt time.Time `json:"last_attempt,omitzero"` // start of the last sync
	LastSuccess time.Time `json:"last_success,omitzero"` // end of the last successful sync
	LastError   string    `json:"last_error,omitempty"`  // why the last sync failed; "" after a success
	// DownloadLimit is the daily download limit Upstream announced
	// (HeaderDownloadLimit) with its last download, 0 for none; nil when it
	// announced none, and DailyDownloadLimit applies.
	DownloadLimit *int `json:"download_limit,omitempty"`
}

// SyncState returns the stored sync state; the zero value when none.
func (db *Store) SyncState() (SyncState, error) {
	var s SyncState
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSync)
		if b == nil {
			return nil
		}
		if v := b.Get(syncStateKey); v != nil {
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("sync state: %w", err)
			}
		}
		return nil
	})
	return s, err
}

// PutSyncState stores s.
func (db *Store) PutSyncState(s SyncState) error {
	if db.readOnly {
		return ErrReadOnly
	}
	v, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSync).Put(syncStateKey, v)
	})
}
