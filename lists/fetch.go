package lists

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/convert"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
	"github.com/amlscreen/amlscreen/tlsconf"
)

// MaxFileBytes bounds one downloaded file: the converters read at most
// convert.MaxInputBytes anyway, and a larger body is not a list.
const MaxFileBytes = convert.MaxInputBytes

// Fetcher downloads lists, converts them and applies them to a store.
// The zero value works: the system's CAs and proxy from the environment,
// five attempts per file with backoff from two seconds.
type Fetcher struct {
	// HTTP is the client of downloads; nil means NewHTTPClient(nil).
	HTTP *http.Client
	// URLs overrides addresses (ParseURL): by list name (a file's URL for
	// a list of one file, or a directory that holds the list's files
	// under their names when it ends in "/" or the list has several) or
	// by file name.
	URLs map[string]string
	// Attempts per file (default 5) and the first wait between them
	// (default 2 s, doubled each time, at most a minute): 5xx answers,
	// dropped connections, truncated bodies and stalls are retried.
	Attempts int
	Backoff  time.Duration
	// StallTimeout ends an attempt that receives nothing for this long
	// (default 2 minutes).
	StallTimeout time.Duration
	// AllowShrink lets an edition delete more than store.ShrinkShare of
	// the list's records; an edition without records is refused always.
	AllowShrink bool
	// Log receives one line per list and per retry; nil discards them.
	Log *slog.Logger
	// Progress draws a bar per download (bytes); nil draws nothing.
	Progress syncer.ProgressFunc
	// Now stamps the state; nil means time.Now.
	Now func() time.Time
}

// NewHTTPClient returns a client of the list downloads that trusts roots
// (nil: the system's CAs) and takes its proxy from the environment, as
// sync does: see tlsconf.Transport.
func NewHTTPClient(roots *x509.CertPool) *http.Client {
	t := tlsconf.Transport(roots)
	t.ResponseHeaderTimeout = 2 * time.Minute
	return &http.Client{Transport: t}
}

// Result is what one fetch did to one list.
type Result struct {
	List string
	// Unchanged is set when every file was as the store holds it (304,
	// or the same checksum): nothing was converted.
	Unchanged bool
	// Converted is set when the files were converted.
	Converted bool
	Requests  int   // HTTP requests made, retries included
	Bytes     int64 // bytes received
	Records   int   // records of the edition
	// Added, Updated and Deleted count the change set applied, and
	// Version is the store version it made ("" when nothing changed).
	Added, Updated, Deleted int
	Version                 string
	// Changes are the changes applied, as the store applied them.
	Changes []store.AppliedChange
	// Applied is the committed change set, nil when nothing changed: a
	// server swaps it in as it does a sync's.
	Applied *store.Applied
	Err     error
}

// ShrinkError refuses an edition that would delete more than
// store.ShrinkShare of a list's records, or that holds none.
type ShrinkError struct {
	List            string
	Before, Deleted int
}

// Error says what the edition would have done and how to allow it.
func (e *ShrinkError) Error() string {
	if e.Before == e.Deleted {
		return fmt.Sprintf("list %s: the new edition holds no records; the store keeps the %d of the previous one", e.List, e.Before)
	}
	return fmt.Sprintf("list %s: the new edition would delete %d of its %d records (more than %.0f%%); the store keeps the previous one (check the file, or pass --allow-shrink if the list really shrank)",
		e.List, e.Deleted, e.Before, 100*store.ShrinkShare)
}

func (f *Fetcher) log() *slog.Logger {
	if f.Log != nil {
		return f.Log
	}
	return slog.New(slog.DiscardHandler)
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Fetcher) client() *http.Client {
	if f.HTTP != nil {
		return f.HTTP
	}
	return defaultHTTP()
}

var defaultHTTP = sync.OnceValue(func() *http.Client { return NewHTTPClient(nil) })

// URL returns the address file f of list l is downloaded from.
func (f *Fetcher) URL(l List, file File) string {
	if u, ok := f.URLs[file.Name]; ok {
		return u
	}
	if u, ok := f.URLs[l.Name]; ok {
		if len(l.Files) == 1 && !strings.HasSuffix(u, "/") {
			return u
		}
		return strings.TrimRight(u, "/") + "/" + file.Name
	}
	return file.URL
}

// Fetch fetches each list in turn and applies it to db. One list's
// failure leaves that list's previous edition whole, is written to its
// state, and does not stop the others.
func (f *Fetcher) Fetch(ctx context.Context, db *store.Store, ls []List) []Result {
	var out []Result
	for _, l := range ls {
		res := f.fetchOne(ctx, db, l)
		f.report(res)
		out = append(out, res)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

func (f *Fetcher) report(res Result) {
	switch {
	case res.Err != nil:
		f.log().Error("list not updated; the store keeps its previous edition", "list", res.List, "error", res.Err.Error())
	case res.Unchanged:
		f.log().Info("list unchanged", "list", res.List, "requests", res.Requests)
	default:
		f.log().Info("list applied", "list", res.List, "records", res.Records, "added", res.Added,
			"updated", res.Updated, "deleted", res.Deleted, "version", res.Version, "bytes", res.Bytes)
	}
}

// fetchOne downloads list l into a temporary directory and applies it.
func (f *Fetcher) fetchOne(ctx context.Context, db *store.Store, l List) Result {
	res := Result{List: l.Name}
	st, err := LoadState(db, l.Name)
	if err != nil {
		res.Err = err
		return res
	}
	dir, err := os.MkdirTemp(workDir(db), ".amlscreen-list-"+l.Name+"-")
	if err != nil {
		res.Err = fmt.Errorf("list %s: %w", l.Name, err)
		return res
	}
	defer os.RemoveAll(dir)
	files, changed, notModified, err := f.download(ctx, l, st, dir, &res)
	if err == nil && changed {
		// A file the issuer answered 304 for is needed all the same to
		// convert the list: fetch it whole.
		for _, i := range notModified {
			fs := &files[i]
			var got FileState
			if got, err = f.get(ctx, fs.URL, nil, filepath.Join(dir, fs.Name), &res, l.Name+" "+fs.Name); err != nil {
				err = fmt.Errorf("%s: %w", fs.Name, err)
				break
			}
			got.Name, got.URL = fs.Name, fs.URL
			*fs = got
		}
	}
	if err != nil {
		res.Err = fmt.Errorf("list %s: %w", l.Name, err)
		f.fail(db, &st, res.Err)
		return res
	}
	if !changed {
		res.Unchanged = true
		res.Records = st.Records
		st.LastFetch, st.LastSuccess, st.LastError, st.Failures = f.now(), f.now(), "", 0
		if err := saveState(db, st); err != nil {
			res.Err = err
		}
		return res
	}
	f.apply(db, l, st, dir, files, &res)
	return res
}

// workDir is where a list's files wait for their conversion: beside the
// store, whose file system has room for it, rather than a /tmp that may be
// small (OpenSanctions' stream is gigabytes).
func workDir(db *store.Store) string {
	if p := db.Path(); p != "" {
		return filepath.Dir(p)
	}
	return ""
}

// fail writes the error of a fetch to the list's state.
func (f *Fetcher) fail(db *store.Store, st *State, err error) {
	st.LastFetch, st.LastError = f.now(), err.Error()
	st.Failures++
	if serr := saveState(db, *st); serr != nil {
		f.log().Error("list state not saved", "list", st.Name, "error", serr.Error())
	}
}

// download fetches every file of l into dir, asking with the validators
// of the edition the store holds; a file the issuer answers 304 for keeps
// the state it had. changed reports whether any file differs
// from that edition; notModified are the indexes in files of those the
// issuer answered 304 for, which are not in dir.
func (f *Fetcher) download(ctx context.Context, l List, st State, dir string, res *Result) (files []FileState, changed bool, notModified []int, err error) {
	if len(st.Files) != len(l.Files) {
		changed = true
	}
	for _, file := range l.Files {
		u := f.URL(l, file)
		prev := st.file(file.Name)
		var have *FileState
		if prev != nil && prev.URL == u && !prev.Missing {
			have = prev
		}
		fs, err := f.get(ctx, u, have, filepath.Join(dir, file.Name), res, l.Name+" "+file.Name)
		if errors.Is(err, errNotFound) && file.Optional {
			fs, err = FileState{Missing: true}, nil
		}
		if err != nil {
			return nil, false, nil, fmt.Errorf("%s: %w", file.Name, err)
		}
		fs.Name, fs.URL = file.Name, u
		switch {
		case fs.Size < 0:
			fs = *prev
			notModified = append(notModified, len(files))
		case prev == nil || prev.SHA256 != fs.SHA256 || prev.Missing != fs.Missing:
			changed = true
		}
		files = append(files, fs)
	}
	return files, changed, notModified, nil
}

// apply converts the files of l in dir and merges the records into db as
// one change set: added, updated and deleted against the records of the
// list's sources the store holds.
func (f *Fetcher) apply(db *store.Store, l List, st State, dir string, files []FileState, res *Result) {
	fail := func(err error) {
		res.Err = fmt.Errorf("list %s: %w", l.Name, err)
		f.fail(db, &st, res.Err)
	}
	recs, err := Convert(l, dir)
	res.Converted = true
	if err != nil {
		fail(err)
		return
	}
	res.Records = len(recs)
	if len(recs) == 0 {
		fail(&ShrinkError{List: l.Name, Before: st.Records, Deleted: st.Records})
		return
	}
	sources := map[string]bool{}
	for _, s := range l.Sources {
		sources[s] = true
	}
	for _, s := range st.Sources {
		sources[s] = true
	}
	held := map[string]bool{}
	for _, r := range recs {
		sources[r.SourceID] = true
		held[r.SourceID] = true
	}
	version, err := db.NextVersion()
	if err != nil {
		fail(err)
		return
	}
	next := store.Slice(recs)
	guard := func(_ *store.Tx, a *store.Applied) error {
		before := len(recs) - a.Added + a.Deleted
		if !f.AllowShrink && before > 0 && float64(a.Deleted) > store.ShrinkShare*float64(before) {
			return &ShrinkError{List: l.Name, Before: before, Deleted: a.Deleted}
		}
		return nil
	}
	a, err := db.MergeSources(version, next, store.MergeOptions{Sources: sortedSet(sources), AllowShrink: f.AllowShrink}, guard)
	var whole *store.ShrinkError
	if errors.As(err, &whole) {
		// The store's own guard (a share of every record it holds) can
		// refuse before the list's does; the refusal is the list's.
		err = &ShrinkError{List: l.Name, Before: max(st.Records, whole.Removed), Deleted: whole.Removed}
	}
	if err != nil {
		fail(err)
		return
	}
	now := f.now()
	st.LastFetch, st.LastSuccess, st.LastError, st.Failures = now, now, "", 0
	st.Records, st.Files, st.Sources = len(recs), files, sortedSet(held)
	if len(a.Changes) > 0 {
		st.LastChange, st.Version = now, a.Version
		st.Added, st.Updated, st.Deleted = a.Added, a.Updated, a.Deleted
		res.Version, res.Added, res.Updated, res.Deleted, res.Changes = a.Version, a.Added, a.Updated, a.Deleted, a.Changes
		res.Applied = a
	}
	if err := saveState(db, st); err != nil {
		res.Err = err
	}
}

// Convert converts the files of l in dir into records, each checked as
// convert.WriteJSONL checks them (CheckRecord, no id twice).
func Convert(l List, dir string) ([]*record.Record, error) {
	if l.Convert == nil {
		return nil, fmt.Errorf("list %s has no converter", l.Name)
	}
	var recs []*record.Record
	seen := map[string]bool{}
	err := l.Convert(dir, func(r *record.Record) error {
		if err := convert.CheckRecord(r); err != nil {
			return err
		}
		if seen[r.ID] {
			return fmt.Errorf("record id %s comes twice: ids must be unique", r.ID)
		}
		seen[r.ID] = true
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	return recs, nil
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// errNotFound is a 404 answer: an optional file the issuer does not serve.
var errNotFound = errors.New("not found (404)")

// transient marks a failure worth another attempt.
type transient struct{ err error }

func (e *transient) Error() string { return e.err.Error() }
func (e *transient) Unwrap() error { return e.err }

// get downloads u into path with retries. With have, it sends have's
// validators and returns Size -1 on 304 Not Modified.
func (f *Fetcher) get(ctx context.Context, u string, have *FileState, path string, res *Result, stage string) (FileState, error) {
	attempts, wait := f.Attempts, f.Backoff
	if attempts <= 0 {
		attempts = 5
	}
	if wait <= 0 {
		wait = 2 * time.Second
	}
	for i := 1; ; i++ {
		fs, err := f.getOnce(ctx, u, have, path, res, stage)
		var te *transient
		if err == nil || !errors.As(err, &te) {
			return fs, err
		}
		if i >= attempts {
			return fs, fmt.Errorf("%w (gave up after %d attempts)", err, attempts)
		}
		d := min(wait, time.Minute)
		d += time.Duration(rand.Int64N(int64(d)/5 + 1))
		f.log().Warn("transient failure, retrying", "url", u, "error", err.Error(), "attempt", i, "wait", d.Round(time.Millisecond).String())
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fs, ctx.Err()
		case <-t.C:
		}
		wait *= 2
	}
}

var errStalled = errors.New("download stalled")

func (f *Fetcher) getOnce(ctx context.Context, u string, have *FileState, path string, res *Result, stage string) (FileState, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(actx, http.MethodGet, u, nil)
	if err != nil {
		return FileState{}, fmt.Errorf("%s: %w", u, err)
	}
	req.Header.Set("User-Agent", "amlscreen")
	if have != nil {
		if have.ETag != "" {
			req.Header.Set("If-None-Match", have.ETag)
		}
		if have.LastModified != "" {
			req.Header.Set("If-Modified-Since", have.LastModified)
		}
	}
	res.Requests++
	stall := f.StallTimeout
	if stall <= 0 {
		stall = 2 * time.Minute
	}
	watchdog := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer watchdog.Stop()
	resp, err := f.client().Do(req)
	if err != nil {
		return FileState{}, classify(ctx, actx, u, err, stall)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && have != nil:
		return FileState{Size: -1}, nil
	case resp.StatusCode == http.StatusNotFound:
		return FileState{}, fmt.Errorf("%s: %w", u, errNotFound)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return FileState{}, &transient{fmt.Errorf("%s: answered %s", u, resp.Status)}
	case resp.StatusCode != http.StatusOK:
		return FileState{}, fmt.Errorf("%s: answered %s", u, resp.Status)
	}
	if resp.ContentLength > MaxFileBytes {
		return FileState{}, fmt.Errorf("%s: %d bytes, more than the %d a list file may hold", u, resp.ContentLength, int64(MaxFileBytes))
	}
	out, err := os.Create(path)
	if err != nil {
		return FileState{}, err
	}
	defer out.Close()
	h := sha256.New()
	bar := f.bar(stage, resp.ContentLength)
	n, err := io.Copy(io.MultiWriter(out, h), &watchReader{r: io.LimitReader(resp.Body, MaxFileBytes+1), bar: bar, reset: func() { watchdog.Reset(stall) }})
	bar.Finish()
	res.Bytes += n
	if err != nil {
		return FileState{}, classify(ctx, actx, u, err, stall)
	}
	if n > MaxFileBytes {
		return FileState{}, fmt.Errorf("%s: more than the %d bytes a list file may hold", u, int64(MaxFileBytes))
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return FileState{}, &transient{fmt.Errorf("%s: body ended after %d of %d bytes", u, n, resp.ContentLength)}
	}
	if err := out.Close(); err != nil {
		return FileState{}, err
	}
	return FileState{
		ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		SHA256: hex.EncodeToString(h.Sum(nil)), Size: n,
	}, nil
}

// classify turns a transport error into a transient one, unless the
// caller gave up or the certificate is not trusted.
func classify(ctx, actx context.Context, u string, err error, stall time.Duration) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(context.Cause(actx), errStalled) {
		return &transient{fmt.Errorf("%s: %w: nothing received for %v", u, errStalled, stall)}
	}
	if untrusted(err) {
		return fmt.Errorf("%s: %w (give the CA that issued the certificate with --ca-bundle)", u, err)
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "connection reset") {
		return &transient{fmt.Errorf("%s: %w", u, err)}
	}
	return fmt.Errorf("%s: %w", u, err)
}

type noBar struct{}

func (noBar) Add64(int64) error { return nil }
func (noBar) Finish() error     { return nil }

func (f *Fetcher) bar(stage string, total int64) syncer.ProgressBar {
	if f.Progress != nil {
		if b := f.Progress(stage, total); b != nil {
			return b
		}
	}
	return noBar{}
}

// watchReader reports reads to a bar and a stall watchdog.
type watchReader struct {
	r     io.Reader
	bar   syncer.ProgressBar
	reset func()
}

func (w *watchReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 {
		w.bar.Add64(int64(n))
		w.reset()
	}
	return n, err
}

// untrusted reports whether err is a failed verification of the server's
// certificate, which trying again does not mend.
func untrusted(err error) bool {
	var ve *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &ve) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}
