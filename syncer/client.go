// Package syncer keeps a store current from an upstream that speaks the
// service's consolidated-database protocol (the hosted service, or a
// primary amlscreen server), and moves consolidated files in and out of a
// store for air-gapped sites.
//
// A sync downloads getConsolidatedFile the first time and
// getConsolidatedDelta?previous=V afterwards, always to a temporary file
// first, so that a broken connection never reaches the store; the file is
// then imported or applied in one store transaction. It falls back to the
// full file when the store's version is older than the service keeps
// deltas for (14 days), when the upstream no longer knows the version, or
// when the selection of sources (includes) changed. It counts every
// download against the service's 50 per UTC day in the store, before
// making it, and stops with a *store.DownloadLimitError when they are used
// up.
//
// The package is named syncer so that it does not shadow the standard
// library's sync.
package syncer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Client syncs stores from one upstream. Set the fields before the first
// Sync; a Client is not meant to change while it syncs.
type Client struct {
	// Upstream is the base URL; the client appends /v1/getConsolidatedFile
	// and so on.
	Upstream string
	// APIKey is sent as the x-api-key header. It is never logged, and is
	// cut out of any error message that would show it.
	APIKey string
	// Includes is passed as the includes parameter when not empty.
	Includes string

	// HTTP is the client for requests; nil means one with connect and
	// response-header timeouts but no overall limit, since a full file can
	// take minutes.
	HTTP *http.Client
	// Retry governs retries of transient failures.
	Retry Retry
	// DailyLimit is the number of downloads allowed per UTC day; zero
	// means store.DailyDownloadLimit.
	DailyLimit int
	// MaxAge is the age of the store's version beyond which a delta is not
	// asked for; zero means 14 days.
	MaxAge time.Duration
	// StallTimeout aborts a download that receives nothing for this long
	// (the attempt is then retried); zero means two minutes.
	StallTimeout time.Duration
	// TempDir holds downloads until they are imported; "" means the
	// store's directory, which has room for the store anyway.
	TempDir string

	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives one line per step; nil discards them.
	Log *slog.Logger
	// Progress, when set, is told the progress of downloads and imports.
	Progress ProgressFunc
	// Hook runs inside the store transaction of every import and change
	// set (for the monitoring outbox).
	Hook store.TxHook
}

// Retry governs how transient failures (5xx answers, connection errors, a
// stalled download) are retried: Attempts tries in all, waiting Base, then
// twice as long each time, up to Max, between them.
type Retry struct {
	Attempts int           // zero means 5
	Base     time.Duration // zero means 2 s
	Max      time.Duration // zero means 1 min
	// Sleep waits d or until ctx ends; nil means a timer. Tests make it
	// return at once.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Result tells what a Sync did.
type Result struct {
	Previous string // version before, "" for an empty store
	Version  string // version after
	// Full is set when the full file was imported.
	Full bool
	// Fallback says why a full file was downloaded although the store had
	// a version; "" otherwise.
	Fallback string
	// UpToDate is set when the upstream had nothing newer.
	UpToDate bool
	// Applied is what the store applied; nil when up to date.
	Applied *store.Applied
	// Downloads counts the download requests this sync made (each counts
	// against the daily limit); Bytes the bytes they received.
	Downloads int
	Bytes     int64 // bytes received, compressed as sent
	// Sources is the number of catalogue entries stored, -1 when the
	// upstream has no catalogue or it could not be fetched.
	Sources int
}

const (
	defaultMaxAge       = 14 * 24 * time.Hour
	defaultStallTimeout = 2 * time.Minute
)

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) log() *slog.Logger {
	if c.Log != nil {
		return c.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Sync brings db to the upstream's current version. db must be open for
// writing. The sync state in the store records how the run went, for
// status.
func (c *Client) Sync(ctx context.Context, db *store.DB) (res *Result, err error) {
	if c.Upstream == "" {
		return nil, errors.New("sync: no upstream URL")
	}
	if c.APIKey == "" {
		return nil, errors.New("sync: no API key")
	}
	state, err := db.SyncState()
	if err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	state.LastAttempt = c.now().UTC()
	state.Upstream = c.Upstream
	defer func() {
		if err != nil {
			err = c.redact(err)
			state.LastError = err.Error()
		} else {
			state.LastError = ""
			state.LastSuccess = c.now().UTC()
			state.Includes = c.Includes
		}
		if perr := db.PutSyncState(state); perr != nil && err == nil {
			err = fmt.Errorf("sync: %w", perr)
		}
	}()

	res = &Result{Sources: -1}
	if res.Sources, err = c.syncSources(ctx, db); err != nil {
		return res, err
	}
	cur, err := db.Version()
	if err != nil {
		return res, fmt.Errorf("sync: %w", err)
	}
	res.Previous, res.Version = cur.ID, cur.ID
	maxAge := c.MaxAge
	if maxAge <= 0 {
		maxAge = defaultMaxAge
	}
	switch {
	case cur.ID == "":
	case c.now().Sub(cur.AppliedAt) > maxAge:
		res.Fallback = fmt.Sprintf("version %s was applied %s ago, longer than deltas are kept", cur.ID, c.now().Sub(cur.AppliedAt).Round(time.Hour))
	case !state.LastSuccess.IsZero() && state.Includes != c.Includes:
		res.Fallback = fmt.Sprintf("includes changed from %q to %q", state.Includes, c.Includes)
	default:
		err := c.syncDelta(ctx, db, cur.ID, res)
		if !errors.Is(err, errPreviousUnknown) {
			return res, err
		}
		res.Fallback = fmt.Sprintf("upstream no longer knows version %s", cur.ID)
	}
	if res.Fallback != "" {
		c.log().Info("downloading the full file", "reason", res.Fallback)
	}
	return res, c.syncFull(ctx, db, res)
}

func (c *Client) syncDelta(ctx context.Context, db *store.DB, previous string, res *Result) error {
	d, err := c.download(ctx, db, "getConsolidatedDelta", previous, res)
	if err != nil {
		return err
	}
	defer d.remove()
	if d.version == previous {
		// The delta from the newest version is empty and carries the same
		// version (SEMANTICS.md); anything else would be a confused
		// upstream, and applying it would make one version name two states.
		changes, err := d.readChanges()
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			return fmt.Errorf("getConsolidatedDelta: %d changes that lead to the version they apply to (%s)", len(changes), previous)
		}
		res.UpToDate = true
		c.log().Info("up to date", "version", previous)
		return nil
	}
	changes, err := d.readChanges()
	if err != nil {
		return err
	}
	a, err := db.ApplyDelta(previous, d.version, changes, c.Hook)
	if err != nil {
		return fmt.Errorf("getConsolidatedDelta: %w", err)
	}
	res.Version, res.Applied = d.version, a
	c.log().Info("applied delta", "previous", previous, "version", d.version,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted, "ignored", a.Ignored, "records", a.Records)
	return nil
}

func (c *Client) syncFull(ctx context.Context, db *store.DB, res *Result) error {
	d, err := c.download(ctx, db, "getConsolidatedFile", "", res)
	if err != nil {
		return err
	}
	defer d.remove()
	bar := c.bar("import", d.size)
	f, body, err := d.open(bar)
	if err != nil {
		return err
	}
	defer f.Close()
	a, err := ImportFile(db, body, d.version, c.Hook)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("getConsolidatedFile: %w", err)
	}
	res.Full, res.Version, res.Applied = true, d.version, a
	c.log().Info("imported full file", "version", d.version, "records", a.Records,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted)
	return nil
}

// redact removes the API key from err's message, in case an upstream
// echoes it or a URL carries it.
func (c *Client) redact(err error) error {
	if err == nil || c.APIKey == "" || !strings.Contains(err.Error(), c.APIKey) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), c.APIKey, "[api key]"), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func (c *Client) tempDir(db *store.DB) string {
	if c.TempDir != "" {
		return c.TempDir
	}
	return filepath.Dir(db.Path())
}

// downloaded is a response body saved to a temporary file.
type downloaded struct {
	path     string
	version  string
	encoding string // Content-Encoding of the body
	size     int64
}

func (d *downloaded) remove() { os.Remove(d.path) }

// open returns the file and a reader of its decoded body: the
// Content-Encoding is undone here, while a file that is itself gzip is
// recognised by the record reader. bar, when set, follows the file's
// bytes.
func (d *downloaded) open(bar ProgressBar) (*os.File, io.Reader, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, nil, err
	}
	var raw io.Reader = f
	if bar != nil {
		raw = &progressReader{r: f, bar: bar}
	}
	r, err := decodeBody(raw, d.encoding)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, r, nil
}

func (d *downloaded) readChanges() ([]record.Change, error) {
	f, body, err := d.open(nil)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	changes, err := ReadChanges(body)
	if err != nil {
		return nil, fmt.Errorf("getConsolidatedDelta %s: %w", d.version, err)
	}
	return changes, nil
}
