package syncer

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/tlsconf"
	"github.com/klauspost/compress/gzip"
)

// previousUnknownMessage is the service's answer to a delta from a version
// it does not keep (docs/API.md "Deltas"). Its status code is not documented,
// so the message decides.
const previousUnknownMessage = "Provided previous version does not exist."

var errPreviousUnknown = errors.New("upstream does not know the previous version")

// HTTPError is an answer of the upstream other than 200.
type HTTPError struct {
	Endpoint   string // getConsolidatedFile, getConsolidatedDelta, getSourceList
	Status     int    // HTTP status code
	Message    string // the error_message of the body, or the start of a body that is not JSON
	RetryAfter string // the Retry-After header, when given
}

// Error gives the status, the upstream's message and, for the statuses
// that stop a sync, what they mean.
func (e *HTTPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: upstream answered %d %s", e.Endpoint, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	switch e.Status {
	case http.StatusNotFound:
		if e.Endpoint != "getSourceList" {
			b.WriteString(" (the upstream has no such endpoint: --upstream must be the base URL of the service or of a primary amlscreen serve, without /v1)")
		}
	case http.StatusUnauthorized:
		b.WriteString(" (the API key is missing or unknown: check --api-key or AMLSCREEN_API_KEY)")
	case http.StatusForbidden:
		b.WriteString(" (the API key is not allowed this call, or is disabled)")
	case http.StatusTooManyRequests:
		b.WriteString(" (a quota of the API key is used up")
		if e.RetryAfter != "" {
			fmt.Fprintf(&b, "; retry after %s s", e.RetryAfter)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Permanent reports whether err will not go away by trying again later: a
// rejected API key. A sync run with --every stops on it; on other errors it
// tries again at the next interval.
func Permanent(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && (he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden)
}

// ErrUnreachable matches the error of a sync whose first request could
// not connect: the connection was refused or the host name does not
// exist. It is not retried (a wrong --upstream would cost a minute of
// retries to report); a sync run with --every tries again at the next
// interval.
var ErrUnreachable = errors.New("cannot reach the upstream")

// refused reports whether err shows that nothing listens at the address,
// or that the name does not resolve.
func refused(err error) bool {
	var de *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &de) && de.IsNotFound
}

// transientError marks a failure worth retrying.
type transientError struct {
	err        error
	retryAfter time.Duration
}

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

var defaultHTTP = sync.OnceValue(func() *http.Client { return NewHTTPClient(nil) })

// NewHTTPClient returns the client a Client uses when its HTTP is nil,
// trusting roots for HTTPS (nil: the system's CAs; see tlsconf.RootCAs for
// a --ca-bundle): connect and response-header timeouts, no overall limit,
// since a full file can take minutes.
func NewHTTPClient(roots *x509.CertPool) *http.Client {
	t := tlsconf.Transport(roots)
	t.ResponseHeaderTimeout = 2 * time.Minute
	return &http.Client{Transport: t}
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP()
}

func (c *Client) endpoint(name string, q url.Values) string {
	base, err := NormalizeUpstream(c.Upstream)
	if err != nil {
		base = c.Upstream // Sync refuses it first; kept for the message
	}
	u := base + "/v1/" + name
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// retry runs attempt until it succeeds, fails for good, or the attempts
// are used up; only *transientError failures are retried.
func (c *Client) retry(ctx context.Context, what string, attempt func() error) error {
	r := c.Retry
	attempts, wait, maxWait := r.Attempts, r.Base, r.Max
	if attempts <= 0 {
		attempts = 5
	}
	if wait <= 0 {
		wait = 2 * time.Second
	}
	if maxWait <= 0 {
		maxWait = time.Minute
	}
	sleep := r.Sleep
	if sleep == nil {
		sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	for i := 1; ; i++ {
		err := attempt()
		var te *transientError
		if err == nil || !errors.As(err, &te) {
			return err
		}
		if i >= attempts {
			return fmt.Errorf("%w (gave up after %d attempts)", err, attempts)
		}
		d := min(wait, maxWait)
		if te.retryAfter > d {
			d = min(te.retryAfter, maxWait)
		}
		// Jitter keeps many replicas of one primary from retrying in step.
		d += time.Duration(rand.Int64N(int64(d)/5 + 1))
		c.log().Warn("transient failure, retrying", "call", what, "error", c.redact(err).Error(), "attempt", i, "wait", d.Round(time.Millisecond).String())
		if err := sleep(ctx, d); err != nil {
			return err
		}
		wait *= 2
	}
}

func (c *Client) newRequest(ctx context.Context, u string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", c.APIKey)
	// Set by hand, Go's transport leaves the body compressed, so the
	// temporary file stays small; it is decoded while imported.
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("User-Agent", "amlscreen")
	return req, nil
}

// answerError turns a non-200 answer into an error: transient for 5xx,
// errPreviousUnknown for the service's message, an *HTTPError otherwise.
func answerError(endpoint string, resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if r, err := decodeBody(strings.NewReader(string(body)), resp.Header.Get("Content-Encoding")); err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	he := &HTTPError{Endpoint: endpoint, Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	var eb struct {
		ErrorMessage string `json:"error_message"`
	}
	if json.Unmarshal(body, &eb) == nil && eb.ErrorMessage != "" {
		he.Message = eb.ErrorMessage
	} else {
		he.Message = strings.TrimSpace(string(body))
		if len(he.Message) > 200 {
			he.Message = he.Message[:200] + "…"
		}
	}
	if strings.EqualFold(strings.TrimSpace(he.Message), previousUnknownMessage) {
		return errPreviousUnknown
	}
	if resp.StatusCode >= 500 {
		te := &transientError{err: he}
		if s, err := strconv.Atoi(he.RetryAfter); err == nil && s > 0 {
			te.retryAfter = time.Duration(s) * time.Second
		}
		return te
	}
	return he
}

// ErrUntrusted matches the error of a request whose upstream presented a
// TLS certificate this machine does not trust (an unknown authority, a
// wrong host name, an expired certificate). It is not retried: trying again
// changes nothing until the CA is given (--ca-bundle) or the certificate
// fixed.
var ErrUntrusted = errors.New("the upstream's TLS certificate is not trusted")

// untrusted reports whether err is a failed verification of the
// upstream's certificate.
func untrusted(err error) bool {
	var ve *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &ve) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

// transport classifies an error of the request itself: connection
// failures and timeouts are transient, a cancelled context and an
// untrusted certificate are not.
func transport(ctx context.Context, endpoint string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if untrusted(err) {
		return fmt.Errorf("%s: %w: %w (give the CA that issued it with --ca-bundle)", endpoint, ErrUntrusted, err)
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, errStalled) || strings.Contains(err.Error(), "connection reset") {
		return &transientError{err: fmt.Errorf("%s: %w", endpoint, err)}
	}
	return fmt.Errorf("%s: %w", endpoint, err)
}

var errStalled = errors.New("download stalled")

// notSent reports whether err shows that a request never left this
// machine: the connection could not be opened, or the name not resolved.
func notSent(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de)
}

// download fetches a consolidated file or delta into a temporary file,
// counting each attempt against the daily limit first.
func (c *Client) download(ctx context.Context, db *store.Store, endpoint, previous string, res *Result) (*downloaded, error) {
	q := url.Values{}
	if previous != "" {
		q.Set("previous", previous)
	}
	if c.Includes != "" {
		q.Set("includes", c.Includes)
	}
	u := c.endpoint(endpoint, q)
	var d *downloaded
	err := c.retry(ctx, endpoint, func() error {
		// Counted before the request, so that no crash can let a download
		// go uncounted; taken back only when the request provably never
		// reached the upstream. The limit is the latest the upstream
		// announced, which an earlier answer of this sync may have changed.
		now := c.now()
		limit := c.dailyLimit(res)
		used, err := db.CountDownload(now, limit)
		if err != nil {
			return fmt.Errorf("%s: %w", endpoint, err)
		}
		of := fmt.Sprintf("%d of %d today", used, limit)
		if limit == math.MaxInt32 {
			of = fmt.Sprintf("%d today, no daily limit announced", used)
		}
		c.log().Info("downloading", "call", endpoint, "previous", previous, "download", of)
		d, err = c.fetch(ctx, db, endpoint, u, res)
		if notSent(err) {
			if uerr := db.UncountDownload(now); uerr != nil {
				return errors.Join(err, uerr)
			}
			return err
		}
		res.Downloads++
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func (c *Client) fetch(ctx context.Context, db *store.Store, endpoint, u string, res *Result) (*downloaded, error) {
	// The attempt's own context, which the stall watchdog cancels; ctx
	// itself ends only when the caller gives up.
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := c.newRequest(actx, u)
	if err != nil {
		return nil, err
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, transport(ctx, endpoint, err)
	}
	defer resp.Body.Close()
	c.noteLimit(resp, res)
	if resp.StatusCode != http.StatusOK {
		return nil, answerError(endpoint, resp)
	}
	version := resp.Header.Get("File-Version")
	if version == "" {
		return nil, fmt.Errorf("%s: the answer carries no File-Version header: is --upstream the base URL of the service?", endpoint)
	}
	if !delimited(resp) {
		return nil, fmt.Errorf("%s: the answer has neither a Content-Length nor chunked encoding, so a connection closed early could not be told from the end of the file; refused (a proxy between here and the upstream may strip both)", endpoint)
	}
	f, err := os.CreateTemp(c.tempDir(db), partPrefix(db, endpoint)+"*.part")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", endpoint, err)
	}
	d := &downloaded{path: f.Name(), version: version, encoding: resp.Header.Get("Content-Encoding")}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			d.remove()
		}
	}()
	stall := c.StallTimeout
	if stall <= 0 {
		stall = defaultStallTimeout
	}
	watchdog := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer watchdog.Stop()
	bar := c.bar(endpoint, resp.ContentLength)
	n, err := io.Copy(f, &progressReader{r: resp.Body, bar: bar, onRead: func() { watchdog.Reset(stall) }})
	bar.Finish()
	res.Bytes += n
	if err != nil {
		if cause := context.Cause(actx); errors.Is(cause, errStalled) {
			err = fmt.Errorf("%w: nothing received for %v", errStalled, stall)
		}
		return nil, transport(ctx, endpoint, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return nil, &transientError{err: fmt.Errorf("%s: body ended after %d of %d bytes", endpoint, n, resp.ContentLength)}
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", endpoint, err)
	}
	d.size = n
	ok = true
	return d, nil
}

// delimited reports whether the end of resp's body can be told from a
// connection that closed early: it has a Content-Length (checked after
// the copy), chunked encoding (whose last chunk Go's client requires), or
// comes over HTTP/2 or later (frames end the stream). A body delimited by
// closing the connection alone, cut at a line boundary, would read as a
// whole file of fewer records; the protocol carries no record count to
// check it against.
func delimited(resp *http.Response) bool {
	return resp.ContentLength >= 0 || resp.ProtoMajor >= 2 || slices.Contains(resp.TransferEncoding, "chunked")
}

// noteLimit follows the daily download limit the upstream announces in
// resp (store.HeaderDownloadLimit, 0 for none). A successful download
// without the header means the upstream announces none, and the service's
// limit applies again; other answers without it (a proxy's error page)
// change nothing.
func (c *Client) noteLimit(resp *http.Response, res *Result) {
	v := resp.Header.Get(store.HeaderDownloadLimit)
	if v == "" {
		if resp.StatusCode == http.StatusOK {
			res.DownloadLimit = nil
		}
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		c.log().Warn("ignoring a daily download limit the upstream announces that is not a count", "header", store.HeaderDownloadLimit, "value", v)
		return
	}
	if res.DownloadLimit == nil || *res.DownloadLimit != n {
		c.log().Info("the upstream announces a daily download limit for this key", "limit", n, "none", n == 0)
	}
	res.DownloadLimit = &n
}

// decodeBody undoes a Content-Encoding.
func decodeBody(r io.Reader, encoding string) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		return gz, nil
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q", encoding)
	}
}

// syncSources stores the upstream's source catalogue. A missing catalogue
// (404) or a failure to fetch it is logged and the sync goes on, since the
// records matter more; a rejected key stops it.
func (c *Client) syncSources(ctx context.Context, db *store.Store) (int, error) {
	const endpoint = "getSourceList"
	var sources []record.Source
	err := c.retry(ctx, endpoint, func() error {
		req, err := c.newRequest(ctx, c.endpoint(endpoint, url.Values{"scope": {"all"}}))
		if err != nil {
			return err
		}
		resp, err := c.http().Do(req)
		if refused(err) && ctx.Err() == nil {
			// The first request of a sync: a wrong --upstream or a
			// stopped upstream, which retrying for a minute would only
			// hide.
			return fmt.Errorf("%w at %s: %w (check --upstream: scheme, host and port; and that the upstream is running)", ErrUnreachable, c.Upstream, err)
		}
		if err != nil {
			return transport(ctx, endpoint, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return answerError(endpoint, resp)
		}
		body, err := decodeBody(resp.Body, resp.Header.Get("Content-Encoding"))
		if err != nil {
			return fmt.Errorf("%s: %w", endpoint, err)
		}
		raw, err := io.ReadAll(body)
		if err != nil {
			return transport(ctx, endpoint, err)
		}
		sources, err = parseSources(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", endpoint, err)
		}
		return nil
	})
	if err != nil {
		if Permanent(err) || ctx.Err() != nil || errors.Is(err, ErrUnreachable) || errors.Is(err, ErrUntrusted) {
			return -1, err
		}
		var he *HTTPError
		if errors.As(err, &he) && he.Status == http.StatusNotFound {
			c.log().Info("upstream has no source catalogue (404); keeping the stored one", "url", c.endpoint(endpoint, nil))
		} else {
			c.log().Warn("source catalogue not updated", "call", endpoint, "error", c.redact(err).Error())
		}
		return -1, nil
	}
	if err := db.PutSources(sources); err != nil {
		return -1, err
	}
	c.log().Info("stored source catalogue", "sources", len(sources))
	return len(sources), nil
}

// parseSources reads getSourceList's answer: a JSON array of sources, or,
// since the service's interface leaves the envelope open, an object holding one.
func parseSources(raw []byte) ([]record.Source, error) {
	var list []record.Source
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("answer is neither a list of sources nor an object holding one: %w", err)
	}
	for _, k := range []string{"sources", "data", "items", "results"} {
		if v, ok := env[k]; ok && json.Unmarshal(v, &list) == nil {
			return list, nil
		}
	}
	return nil, errors.New("answer object holds no list of sources")
}
