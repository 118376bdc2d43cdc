// Package server answers the service's /v1 API from the local database, so
// that a client written for the hosted service only changes its base URL,
// and so that replicas can sync from a primary with the same protocol they
// would use against the service.
//
// # Requests
//
// Every /v1 endpoint is a GET with the API key in the x-api-key header and
// its parameters in the query string. The rules of docs/API.md "Requests
// and errors" apply to all of them, in this order: a request URL longer
// than MaxURLBytes is 400, an unknown path 404, another method than GET
// 405, a missing or unknown key 401, a disabled key 403, a parameter given
// twice, not in UTF-8 or longer than its limit (limits.go) 400, then the
// endpoint's own parameter rules (400), then quotas (429 with
// Retry-After). Parameters an endpoint does not define are ignored and
// named in one Warning header (usage alone refuses them). Every error is
// JSON {"error_message": "..."}, which quotes at most a short prefix of a
// value and is never longer than 512 bytes.
//
// # Extending
//
// Endpoints are rows of a route table. A file of this package adds its own
// in an init function with register; a package outside passes them in
// Config.Endpoints. Billing, quotas, usage counting, metrics and errors come
// with the row, so an endpoint's handler only reads parameters and writes
// its answer.
//
// # Consistency
//
// Checks read the live index, which moves from one version to the next as
// whole change sets (see package screen). Apply is the one way to move it
// while the server runs: it makes the consolidated file, the source
// catalogue and the File-Version header agree on one version.
package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/api"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
)

// Config configures New. DB and one of KeysFile or Keys are required.
type Config struct {
	// DB is the database checks answer from.
	DB *screen.Database
	// Store keeps usage counters and the change log deltas are answered
	// from; it must be open for writing. Nil keeps usage in memory only and
	// answers getConsolidatedDelta with 503 (benchmarks, embedded use).
	Store *store.Store
	// KeysFile is the JSON file of API keys (see access.Parse); ReloadKeys
	// reads it again.
	KeysFile string
	// Keys are the API keys when there is no KeysFile.
	Keys []*access.Key
	// Signer signs getSourceList bodies and answers /v1/keys/{kid}; nil
	// sends them unsigned and answers keys with 404.
	Signer *sign.Keyring
	// Now is the clock for timestamps, usage days and quota windows; nil
	// means time.Now. Tests move it across month boundaries.
	Now func() time.Time
	// Log receives errors and key reloads; nil discards them.
	Log *slog.Logger
	// FlushEvery is how often usage counters are written to the store;
	// zero means every second, which is what "calls appear in the usage
	// after a few seconds" promises with room to spare. Close writes the
	// rest, so a graceful stop loses no count; a crash loses the calls of
	// the last FlushEvery, by which a quota can be exceeded once per crash.
	FlushEvery time.Duration
	// DailyDownloads is the limit on getConsolidatedFile and
	// getConsolidatedDelta calls per UTC day for keys without a
	// daily_download_limit of their own; zero means
	// store.DailyDownloadLimit (50, as the service).
	DailyDownloads int
	// ProfileCount returns the number of search profiles the key with this
	// ID (access.Key.ID) has registered, for the usage summary; nil reports
	// none. The monitoring package provides it.
	ProfileCount func(keyID string) (int, error)
	// Endpoints are added to the built-in ones; a path may not be taken
	// twice.
	Endpoints []Endpoint
	// Outbox reads the webhook outbox of monitoring for /metrics (its depth
	// and oldest entry); nil leaves those series out. monitor.Outbox.Stats
	// is one.
	Outbox func() (monitor.OutboxStats, error)
	// Sample reports whether the database at a File-Version is the sample
	// embedded in amlscreen (sampledata.Is): while it is, every answer
	// carries HeaderDatabase and reports the sample's watermark. Nil marks
	// nothing. It is a function of the version, not a flag, so that the
	// mark follows the database: a sync away from the sample drops it.
	Sample func(version string) bool
	// LogScreening, when set, receives every check answered
	// (checkIndividual, checkEntity, checkName) for the audit log, on
	// the request's goroutine: it must queue, not write
	// (casework.ScreeningLog does). Checks made under
	// WithoutScreeningLog are not passed.
	LogScreening func(Screening)
}

// HeaderDatabase is the response header that marks answers from the
// embedded sample with SampleDatabase: CheckResponse has no field for it,
// and a client or a proxy log must be able to tell a demo's answers from
// a screening.
const HeaderDatabase = "X-Amlscreen-Database"

// SampleDatabase is the value of HeaderDatabase on answers from the
// embedded sample.
const SampleDatabase = "embedded sample"

// Endpoint is one row of the route table.
type Endpoint struct {
	// Path is the full path, e.g. "/v1/checkIndividual". Usage reports
	// calls under it.
	Path string
	// Sub marks a path that takes one more element, as /v1/keys/{kid}:
	// requests to Path+"/anything" reach the handler with Call.Sub set.
	Sub bool
	// Billed calls count toward the monthly billed quota (docs/API.md "Usage").
	Billed bool
	// Download calls count toward the daily download limit.
	Download bool
	// Params are the query parameters the endpoint defines. Each may be
	// given once; others are ignored with a Warning header, unless Unknown
	// is set.
	Params []string
	// Unknown, when set, turns a parameter outside Params into the error
	// it returns (usage answers 400).
	Unknown func(name string) error
	// Handle answers the call. A returned *Error or *query.ParamError
	// becomes its status and message; any other error a 500.
	Handle func(s *Server, c *Call) error
}

// Error is an answer other than success, with the status it is sent with.
type Error struct {
	Status  int
	Message string
	// RetryAfter, when positive, is sent as the Retry-After header in
	// seconds (quotas).
	RetryAfter int64
}

// Error returns the status and message, for logs.
func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Message) }

// Errorf returns an *Error with a formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Server is the /v1 HTTP server. Its methods are safe for concurrent use.
type Server struct {
	db       *screen.Database
	st       *store.Store
	digests  digestCache // the last period getChangeDigest read
	signer   *sign.Keyring
	now      func() time.Time
	log      *slog.Logger
	keysFile string
	profiles func(string) (int, error)
	maxDL    int64
	sample   func(string) bool
	// screenLog is Config.LogScreening.
	screenLog func(Screening)

	keys    atomic.Pointer[access.Set]
	routes  map[string]*Endpoint
	subs    []*Endpoint
	billed  map[string]bool // paths of billed endpoints, for the usage summary
	dl      map[string]bool // paths of download endpoints, for the daily limit
	usage   *access.Book
	metrics *metrics

	// applyMu orders Apply against the consolidated-file snapshot, so the
	// records served and the File-Version header are one version.
	applyMu sync.RWMutex

	ready     atomic.Bool
	lists     listStates // the public lists serve fetches (lists.go)
	stop      chan struct{}
	flushDone chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// New returns a server over cfg. It starts the usage flusher; Close stops
// it and writes the last counts.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("server: no database")
	}
	s := &Server{
		db:        cfg.DB,
		st:        cfg.Store,
		signer:    cfg.Signer,
		now:       cfg.Now,
		log:       cfg.Log,
		keysFile:  cfg.KeysFile,
		profiles:  cfg.ProfileCount,
		maxDL:     int64(cfg.DailyDownloads),
		sample:    cfg.Sample,
		screenLog: cfg.LogScreening,
		routes:    map[string]*Endpoint{},
		billed:    map[string]bool{},
		dl:        map[string]bool{},
		stop:      make(chan struct{}),
		flushDone: make(chan struct{}),
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxDL <= 0 {
		s.maxDL = store.DailyDownloadLimit
	}
	// The summary counts every billed path of docs/API.md "Usage", also those
	// served by endpoints another package registers later.
	for _, p := range billedPaths {
		s.billed[p] = true
	}
	for _, e := range append(builtinEndpoints(), cfg.Endpoints...) {
		if e.Path == "" || e.Handle == nil || !strings.HasPrefix(e.Path, "/") {
			return nil, fmt.Errorf("server: endpoint %q: needs a path starting with / and a handler", e.Path)
		}
		if _, dup := s.routes[e.Path]; dup {
			return nil, fmt.Errorf("server: endpoint %s registered twice", e.Path)
		}
		ep := e
		s.routes[e.Path] = &ep
		if e.Sub {
			s.subs = append(s.subs, &ep)
		}
		if e.Billed {
			s.billed[e.Path] = true
		}
		if e.Download {
			s.dl[e.Path] = true
		}
	}
	switch {
	case cfg.KeysFile != "":
		if err := s.ReloadKeys(); err != nil {
			return nil, err
		}
	default:
		if err := s.SetKeys(cfg.Keys); err != nil {
			return nil, err
		}
	}
	s.metrics = newMetrics(s, cfg.Outbox)
	s.usage = access.NewBook(cfg.Store)
	every := cfg.FlushEvery
	if every <= 0 {
		every = time.Second
	}
	go s.flushLoop(every)
	s.ready.Store(true)
	return s, nil
}

// billedPaths are the billed calls of docs/API.md "Usage".
var billedPaths = []string{
	"/v1/checkIndividual", "/v1/checkEntity", "/v1/checkName",
	"/v1/generateIndividualReport", "/v1/generateEntityReport",
	"/v1/media/checkIndividual", "/v1/media/checkEntity", "/v1/media/search",
}

// Handler returns the HTTP handler of the server: /v1, /healthz, /readyz,
// /metrics and /openapi.json (the API's OpenAPI document, package api).
func (s *Server) Handler() http.Handler { return s }

// Sample reports whether the database is, at its current version, the
// embedded sample (Config.Sample).
func (s *Server) Sample() bool { return s.sampleAt(s.db.Version()) }

func (s *Server) sampleAt(version string) bool { return s.sample != nil && s.sample(version) }

// SetReady marks the server ready or not for /readyz. It starts ready;
// a graceful shutdown clears it first, so that load balancers stop sending
// requests before the listener closes.
func (s *Server) SetReady(ready bool) { s.ready.Store(ready) }

// Ready reports whether /readyz answers 200: ready, and the database has a
// version to answer from.
func (s *Server) Ready() bool { return s.ready.Load() && s.db.Version() != "" }

// Close stops the usage flusher and writes the counts it still holds. The
// server must not receive requests afterwards.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		<-s.flushDone
		s.closeErr = s.usage.Flush()
	})
	return s.closeErr
}

// Apply moves the database to the version st committed as a, as
// screen.Database.Apply does, and is how a server that syncs swaps changes in:
// while it runs, no consolidated file is cut, so that the records of a file
// and its File-Version are one version.
func (s *Server) Apply(st *store.Store, a *store.Applied) error {
	if a == nil {
		return nil
	}
	s.applyMu.Lock()
	err := s.db.Apply(st, a)
	s.applyMu.Unlock()
	s.metrics.applied(s.now().UTC(), err)
	if err != nil {
		return fmt.Errorf("apply %s: %w", a.Version, err)
	}
	return nil
}

// downloadLimit is k's daily download limit: its own, else the server's
// default; 0 for none.
func (s *Server) downloadLimit(k *access.Key) int64 {
	if k.DailyDownloadLimit != nil {
		return *k.DailyDownloadLimit
	}
	return s.maxDL
}

// NoteSync records the outcome of a sync from the upstream for /metrics.
func (s *Server) NoteSync(at time.Time, err error) { s.metrics.synced(at, err) }

// Call is one authenticated request to an endpoint.
type Call struct {
	// Key is the caller's API key.
	Key *access.Key
	// Now is when the request arrived: its timestamp, usage day and quota
	// window.
	Now time.Time
	// Sub is the path element after an Endpoint with Sub set (the kid of
	// /v1/keys/{kid}).
	Sub string
	// Request is the HTTP request.
	Request *http.Request

	ep     *Endpoint
	w      *responseWriter
	params url.Values
}

// Param returns the value of a query parameter the endpoint defines, ""
// when absent. Parameters it does not define read as absent: they are
// ignored, as the Warning header told the client.
func (c *Call) Param(name string) string {
	if v := c.params[name]; len(v) > 0 && slices.Contains(c.ep.Params, name) {
		return v[0]
	}
	return ""
}

// Has reports whether a parameter the endpoint defines was given, even
// empty.
func (c *Call) Has(name string) bool {
	return len(c.params[name]) > 0 && slices.Contains(c.ep.Params, name)
}

// Header returns the response header, to set before a reply.
func (c *Call) Header() http.Header { return c.w.Header() }

// Reply sends body with status 200 and the content type.
func (c *Call) Reply(contentType string, body []byte) error {
	h := c.w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(http.StatusOK)
	_, err := c.w.Write(body)
	return err
}

// JSON sends a JSON body with status 200.
func (c *Call) JSON(body []byte) error { return c.Reply("application/json", body) }

// Stream starts a 200 answer of unknown length and returns the writer of
// its body, for answers too large to hold in memory.
func (c *Call) Stream(contentType string) io.Writer {
	c.w.Header().Set("Content-Type", contentType)
	c.w.WriteHeader(http.StatusOK)
	return c.w
}

// responseWriter remembers the status sent, for metrics, and counts the
// call in the usage the moment a success begins: before any byte of the
// answer leaves, so a client that asks /v1/usage next always sees it.
type responseWriter struct {
	http.ResponseWriter
	status int

	book  *access.Book // nil until the caller is known
	key   string
	path  string
	calls time.Time
	dl    *downloads // set on download endpoints
}

// downloads is where a download call stands in its key's daily limit.
type downloads struct {
	limit    int64 // 0: none
	used     int64 // downloads in today's window, this one included when reserved
	reserved bool
}

// announce sets the headers that tell a replica its key's daily download
// limit and what is left of it after this answer: a refused call gives
// its place back.
func (d *downloads) announce(h http.Header, success bool) {
	h.Set(store.HeaderDownloadLimit, strconv.FormatInt(d.limit, 10))
	if d.limit == 0 {
		return
	}
	used := d.used
	if d.reserved && !success {
		used--
	}
	h.Set(store.HeaderDownloadsRemaining, strconv.FormatInt(max(d.limit-used, 0), 10))
}

// WriteHeader sends the status, counting the call when it is a success.
func (w *responseWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		success := code >= 200 && code < 300
		if w.book != nil && success {
			w.book.Count(w.key, w.path, w.calls)
		}
		if w.dl != nil {
			w.dl.announce(w.Header(), success)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write sends body bytes, with status 200 if none was sent.
func (w *responseWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// succeeded reports whether a 2xx answer began.
func (w *responseWriter) succeeded() bool { return w.status >= 200 && w.status < 300 }

// Flush lets streamed bodies reach slow clients before they are complete.
func (w *responseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &responseWriter{ResponseWriter: rw}
	if s.Sample() {
		w.Header().Set(HeaderDatabase, SampleDatabase)
	}
	switch r.URL.Path {
	case "/healthz", "/readyz", "/metrics", "/openapi.json":
		s.serveOps(w, r)
		return
	}
	ep, sub := s.lookup(r.URL.Path)
	defer func() {
		if p := recover(); p != nil {
			// A handler bug must cost one answer, not the process.
			s.log.Error("panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(p))
			if w.status == 0 {
				writeError(w, Errorf(http.StatusInternalServerError, "internal error"))
			}
		}
		s.metrics.observe(ep, w.status, time.Since(start))
	}()
	if err := checkURL(r); err != nil {
		writeError(w, err.(*Error))
		return
	}
	if ep == nil {
		writeError(w, Errorf(http.StatusNotFound, "unknown path %s", quote(r.URL.Path)))
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, Errorf(http.StatusMethodNotAllowed, "method %s not allowed: every /v1 endpoint is GET", r.Method))
		return
	}
	c := &Call{Now: s.now(), Sub: sub, Request: r, ep: ep, w: w}
	if err := s.serve(ep, c); err != nil {
		s.fail(w, ep, err)
	}
}

// serve authenticates c, checks its parameters and quotas and runs the
// handler.
func (s *Server) serve(ep *Endpoint, c *Call) error {
	key, err := s.authenticate(c.Request)
	if err != nil {
		return err
	}
	c.Key = key
	c.w.book, c.w.key, c.w.path, c.w.calls = s.usage, key.ID(), ep.Path, c.Now
	params, err := url.ParseQuery(c.Request.URL.RawQuery)
	if err != nil {
		return Errorf(http.StatusBadRequest, "malformed query string: %v", err)
	}
	c.params = params
	if err := s.checkParams(ep, c); err != nil {
		return err
	}
	var held []access.Reservation
	if ep.Billed && key.MonthlyQuota != nil {
		rv, _, err := s.usage.Reserve(key.ID(), access.Month, c.Now, *key.MonthlyQuota, s.billed)
		if err != nil {
			return quotaError(err)
		}
		held = append(held, rv)
	}
	if ep.Download {
		// The key's limit is announced on every answer, refusals
		// included, so that a replica follows it (syncer.Client).
		limit := s.downloadLimit(key)
		c.w.dl = &downloads{limit: limit}
		if limit > 0 {
			rv, used, err := s.usage.Reserve(key.ID(), access.Day, c.Now, limit, s.dl)
			c.w.dl.used = used
			if err != nil {
				for _, h := range held {
					s.usage.Release(h)
				}
				return quotaError(err)
			}
			c.w.dl.reserved = true
			held = append(held, rv)
		}
	}
	err = ep.Handle(s, c)
	if !c.w.succeeded() {
		// Only calls answered with success count; a refused one gives its
		// place back. One whose answer broke off after it began counts.
		for _, h := range held {
			s.usage.Release(h)
		}
	}
	return err
}

// quotaError answers a full quota window with 429 and Retry-After until
// the window renews; other errors pass through.
func quotaError(err error) error {
	var qe *access.QuotaError
	if errors.As(err, &qe) {
		return &Error{Status: http.StatusTooManyRequests, RetryAfter: qe.RetryAfter, Message: qe.Error()}
	}
	return err
}

// checkParams refuses parameters given twice or not in UTF-8 and handles
// the ones the endpoint does not define.
func (s *Server) checkParams(ep *Endpoint, c *Call) error {
	var unknown []string
	for name, vals := range c.params {
		if !slices.Contains(ep.Params, name) {
			unknown = append(unknown, name)
			continue
		}
		if len(vals) > 1 {
			return Errorf(http.StatusBadRequest, "parameter %s given %d times; give it once", name, len(vals))
		}
		// Names are matched, stored in profiles and printed in reports as
		// text; bytes that are not UTF-8 would be guessed at in each.
		if !utf8.ValidString(vals[0]) {
			return Errorf(http.StatusBadRequest, "parameter %s is not valid UTF-8 (percent-encode the UTF-8 bytes of the text)", name)
		}
		if err := checkValue(name, vals[0]); err != nil {
			return err
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 && ep.Unknown != nil {
		return ep.Unknown(unknown[0])
	}
	warnUnknown(c.w.Header(), unknown)
	return nil
}

// lookup finds the endpoint of path, and the element after it for Sub
// endpoints.
func (s *Server) lookup(path string) (*Endpoint, string) {
	if ep := s.routes[path]; ep != nil && !ep.Sub {
		return ep, ""
	}
	for _, ep := range s.subs {
		if rest, ok := strings.CutPrefix(path, ep.Path+"/"); ok {
			return ep, rest
		}
	}
	return nil, ""
}

// fail answers err, unless the answer has begun (a stream cut short).
func (s *Server) fail(w *responseWriter, ep *Endpoint, err error) {
	if w.status != 0 {
		s.log.Warn("answer cut short", "path", ep.Path, "error", err.Error())
		return
	}
	var e *Error
	var pe *query.ParamError
	switch {
	case errors.As(err, &e):
	case errors.As(err, &pe):
		e = &Error{Status: http.StatusBadRequest, Message: pe.Error()}
	default:
		s.log.Error("request failed", "path", ep.Path, "error", err.Error())
		e = Errorf(http.StatusInternalServerError, "internal error")
	}
	writeError(w, e)
}

// writeError sends e as {"error_message": ...}.
func writeError(w http.ResponseWriter, e *Error) {
	body, _ := json.Marshal(struct {
		Message string `json:"error_message"`
	}{capMessage(e.Message)})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.FormatInt(e.RetryAfter, 10))
	}
	w.WriteHeader(e.Status)
	w.Write(body)
}

// serveOps answers the operational endpoints, which need no API key:
// orchestrators and scrapers have none.
func (s *Server) serveOps(w *responseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, Errorf(http.StatusMethodNotAllowed, "method %s not allowed", r.Method))
		return
	}
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"ok"}`))
	case "/readyz":
		if !s.Ready() {
			writeError(w, Errorf(http.StatusServiceUnavailable, "not ready: no database version loaded, or shutting down"))
			return
		}
		ready := map[string]any{"status": "ready", "version": s.db.Version()}
		if failing := s.failingLists(); failing != nil {
			ready["lists_failing"] = failing
		}
		body, _ := json.Marshal(ready)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	case "/metrics":
		s.metrics.handler.ServeHTTP(w, r)
	case "/openapi.json":
		// The API's description is public, like the service's: clients
		// are generated from it before anyone has a key.
		doc, err := api.JSON()
		if err != nil {
			s.log.Error("openapi document", "error", err.Error())
			writeError(w, Errorf(http.StatusInternalServerError, "internal error"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
		w.Write(doc)
	}
}

// flushLoop writes usage counters to the store until Close.
func (s *Server) flushLoop(every time.Duration) {
	defer close(s.flushDone)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if err := s.usage.Flush(); err != nil {
				s.log.Error("usage counters not written; keeping them for the next try", "error", err.Error())
			}
		}
	}
}
