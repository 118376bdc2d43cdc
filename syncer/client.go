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
// deltas for (14 days), when the upstream no longer knows the version
// (its message "Provided previous version does not exist.", with 400 as
// the service's clients expect, or 404 as older amlscreen primaries sent), or
// when the selection of sources (includes) changed. It counts every
// download against the daily limit in the store, before making it, and
// stops with a *store.DownloadLimitError when they are used up: the
// service's 50 per UTC day, or the limit an amlscreen primary announces
// for the key (store.HeaderDownloadLimit; 0 for none).
//
// Temporary files are named after the store, and a sync first removes
// those an interrupted sync of the same store left behind.
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
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Client syncs stores from one upstream. Set the fields before the first
// Sync; a Client is not meant to change while it syncs.
type Client struct {
	// Upstream is the base URL; the client appends /v1/getConsolidatedFile
	// and so on. A trailing /v1 is taken off (see NormalizeUpstream).
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
	// means the limit the upstream announces, or store.DailyDownloadLimit
	// when it announces none.
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
	// The store's change hooks (store.Store.OnApply: the monitoring
	// outbox) run inside the transaction of every import and change set
	// the client makes.
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
	// DownloadLimit is the daily download limit of this upstream after
	// the sync, as it announced it (0 for none); nil when it announced
	// none, and store.DailyDownloadLimit applies. Kept in the store's sync
	// state for the next run.
	DownloadLimit *int
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
func (c *Client) Sync(ctx context.Context, db *store.Store) (res *Result, err error) {
	base, err := NormalizeUpstream(c.Upstream)
	if err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	if c.APIKey == "" {
		return nil, errors.New("sync: no API key")
	}
	state, err := db.SyncState()
	if err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	res = &Result{Sources: -1}
	// A limit announced by another upstream says nothing of this one.
	if state.Upstream == base {
		res.DownloadLimit = state.DownloadLimit
	}
	state.LastAttempt = c.now().UTC()
	state.Upstream = base
	c.removeLeftovers(db)
	defer func() {
		state.DownloadLimit = res.DownloadLimit
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

func (c *Client) syncDelta(ctx context.Context, db *store.Store, previous string, res *Result) error {
	d, err := c.download(ctx, db, "getConsolidatedDelta", previous, res)
	if err != nil {
		return err
	}
	defer d.remove()
	if d.version == previous {
		// The delta from the newest version is empty and carries the same
		// version (docs/API.md "Deltas"); anything else would be a confused
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
	a, err := db.ApplyDelta(previous, d.version, changes, nil)
	if err != nil {
		return fmt.Errorf("getConsolidatedDelta: %w", err)
	}
	res.Version, res.Applied = d.version, a
	c.log().Info("applied delta", "previous", previous, "version", d.version,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted, "ignored", a.Ignored, "records", a.Records)
	return nil
}

func (c *Client) syncFull(ctx context.Context, db *store.Store, res *Result) error {
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
	a, err := ImportFile(db, body, d.version, nil)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("getConsolidatedFile: %w", err)
	}
	res.Full, res.Version, res.Applied = true, d.version, a
	c.log().Info("imported full file", "version", d.version, "records", a.Records,
		"added", a.Added, "updated", a.Updated, "deleted", a.Deleted)
	return nil
}

// redact removes the API key from err's message where it stands as a
// credential, in case an upstream echoes it or a URL carries it: the value
// after a word such as key, api_key, x-api-key, token, Authorization or
// Bearer (with the usual quotes, colons and equals signs between), or the
// value of a URL query parameter, and only as a whole value. Elsewhere the
// key's text is left alone, so that a short key does not mangle ordinary
// words of the message.
func (c *Client) redact(err error) error {
	if err == nil || c.APIKey == "" || !strings.Contains(err.Error(), c.APIKey) {
		return err
	}
	msg := redactKey(err.Error(), c.APIKey)
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// redactKey replaces key in msg by "[api key]" where it stands as a
// credential (Client.redact).
func redactKey(msg, key string) string {
	re := regexp.MustCompile(`(?i)((?:key|token|authorization|bearer)["']?\s*[:=]?\s*["']?(?:bearer\s+)?|[?&][^=&\s]*=)` +
		regexp.QuoteMeta(key) + `([^A-Za-z0-9._~+/=-]|$)`)
	return re.ReplaceAllString(msg, "${1}[api key]${2}")
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func (c *Client) tempDir(db *store.Store) string {
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

// NormalizeUpstream checks an upstream base URL and returns it as the
// client uses it: http or https with a host, no query or fragment, without
// a trailing slash or /v1 (the client adds /v1/... itself; a base that
// ended in /v1 asked for /v1/v1/...).
func NormalizeUpstream(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("no upstream URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("upstream %q is not a URL: %w", raw, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("upstream %q: want an http:// or https:// base URL, e.g. https://api.example.com", raw)
	case u.Host == "":
		return "", fmt.Errorf("upstream %q has no host", raw)
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("upstream %q: give the base URL without a query or fragment", raw)
	case u.User != nil:
		return "", fmt.Errorf("upstream %s: give the base URL without a user or password; the API key goes in AMLSCREEN_API_KEY", u.Redacted())
	}
	path := strings.TrimRight(u.Path, "/")
	path = strings.TrimSuffix(path, "/v1")
	u.Path, u.RawPath = strings.TrimRight(path, "/"), ""
	return u.String(), nil
}

// MinInterval is the shortest interval between syncs that fits a daily
// download limit (nil: the service's store.DailyDownloadLimit; 0: none,
// and any interval fits): a tenth of the day's downloads is left for the
// retries and fallbacks to the full file that a poll sometimes needs.
// With the service's 50, it is 32 minutes (45 polls a day).
func MinInterval(limit *int) time.Duration {
	n := store.DailyDownloadLimit
	if limit != nil {
		n = *limit
	}
	if n <= 0 {
		return 0
	}
	polls := max(n-n/10, 1)
	return (24*time.Hour/time.Duration(polls) + time.Minute - 1).Truncate(time.Minute)
}

// dailyLimit is the limit downloads are counted against: DailyLimit when
// set, else the one the upstream announced (none: no limit), else the
// service's.
func (c *Client) dailyLimit(res *Result) int {
	switch {
	case c.DailyLimit > 0:
		return c.DailyLimit
	case res.DownloadLimit == nil:
		return store.DailyDownloadLimit
	case *res.DownloadLimit == 0:
		return math.MaxInt32
	}
	return *res.DownloadLimit
}

// Endpoints whose answers are downloaded to temporary files.
var downloadEndpoints = []string{"getConsolidatedFile", "getConsolidatedDelta"}

// partPrefix starts the names of the temporary files of db's downloads
// from endpoint; the store's file name in it keeps the syncs of two stores
// in one directory from removing each other's downloads.
func partPrefix(db *store.Store, endpoint string) string {
	return "amlscreen-" + filepath.Base(db.Path()) + "-" + endpoint + "-"
}

// legacyPartAge is how old a temporary file named the way earlier versions
// named them (without the store) must be to be removed: no sync takes an
// hour between writing its file and importing it.
const legacyPartAge = time.Hour

// removeLeftovers removes what an interrupted sync of db left in the
// client's temporary directory.
func (c *Client) removeLeftovers(db *store.Store) {
	RemoveLeftovers(db, c.tempDir(db), c.log())
}

// RemoveLeftovers removes from dir the temporary files of db's downloads
// that an interrupted sync left behind (a serve killed during a full
// download left one of the file's size each time), and those of earlier
// versions, which named them without the store, once they are an hour
// old. The caller holds db open for writing, so no other process is
// downloading for it. Sync calls it first; serve at start. It returns the
// number of files removed.
func RemoveLeftovers(db *store.Store, dir string, log *slog.Logger) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Warn("cannot look for partial downloads to remove", "dir", dir, "error", err.Error())
		return 0
	}
	var removed int
	var size int64
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".part") {
			continue
		}
		mine, legacy := false, false
		for _, ep := range downloadEndpoints {
			mine = mine || strings.HasPrefix(name, partPrefix(db, ep))
			legacy = legacy || strings.HasPrefix(name, "amlscreen-"+ep+"-")
		}
		info, err := e.Info()
		if err != nil || !mine && !(legacy && time.Since(info.ModTime()) > legacyPartAge) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			log.Warn("cannot remove a partial download", "file", name, "error", err.Error())
			continue
		}
		removed++
		size += info.Size()
	}
	if removed > 0 {
		log.Info("removed partial downloads an interrupted sync left", "dir", dir, "files", removed, "bytes", size)
	}
	return removed
}
