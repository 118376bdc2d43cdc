// Package service assembles amlscreen serve: the store, the live index
// over it, the API keys, the signing keyring, monitoring (its matching hook
// and webhook sender), the adverse-media corpus, the sync loop of a
// replica and the HTTP server, with the order they start and stop in.
//
// The command line only turns flags into a Config; tests and programs that
// embed the server use the same three calls:
//
//	svc, err := service.Open(cfg) // opens and loads everything, listens
//	err = svc.Run(ctx)            // serves until ctx ends
//	err = svc.Shutdown(ctx)       // readiness off, drain delay, drain, close
//
// # Shutting down
//
// Shutdown turns /readyz to 503 at once and stops the sync loop, then
// keeps answering for Config.DrainDelay, so that load balancers notice
// and stop sending requests (connections close after their next answer,
// so clients come back through the balancer). Then the listener closes,
// requests in flight get Config.ShutdownGrace, the webhook sender finishes
// the deliveries in flight, usage counters are written and the store is
// closed.
package service

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/lists"
	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
	"github.com/amlscreen/amlscreen/tlsconf"
	"github.com/amlscreen/amlscreen/ui"
)

// Defaults of Config.
const (
	DefaultListen = "localhost:8080"
	DefaultEvery  = time.Hour
	// DefaultShutdownGrace is how long requests in flight may finish once
	// the listener closes: under the 30 s a Kubernetes pod gets by default.
	DefaultShutdownGrace = 25 * time.Second
)

// Config configures Open. Store and KeysFile are required.
type Config struct {
	// Store is the store file (bbolt). Without Upstream it must exist and
	// hold a version; with Upstream it is created when absent.
	Store string
	// KeysFile is the API keys file (see package access); it must hold an
	// enabled key. ReloadKeys reads it again.
	KeysFile string
	// Listen is the TCP address to listen on; "" means DefaultListen, and
	// port 0 picks a free port (Addr tells which).
	Listen string
	// Listener, when set, is served instead of listening on Listen (serve
	// --demo opens it first, to name its address in the demo key). The
	// service closes it.
	Listener net.Listener
	// Demo also answers POSTs to DemoWebhookPath, so that a demo shows
	// monitoring notifications delivered without a receiver of its own.
	Demo bool
	// SigningKeys is the keyring directory getSourceList bodies and
	// webhooks are signed with, created on first start; "" means
	// signing-keys beside the store.
	SigningKeys string
	// Upstream, when set, is the service or primary amlscreen serve the
	// store syncs from every Every (stretched to the upstream's daily
	// download limit, see syncer.Schedule), with UpstreamKey.
	Upstream    string
	UpstreamKey string
	Every       time.Duration
	// AllowShrink lets a full file from the upstream remove more than half
	// of the store's records.
	AllowShrink bool
	// LogChecks writes every /v1 check (who, the query, the database
	// version, the ids returned) to the audit log of casework, batched in
	// the background. It costs about 14 % more CPU per strict check, so
	// it is a choice (docs/WORKBENCH.md, "Audit log").
	LogChecks bool
	// DrainDelay is how long Shutdown keeps answering with /readyz at 503
	// before the listener closes; ShutdownGrace how long requests in
	// flight get after that (0: DefaultShutdownGrace).
	DrainDelay    time.Duration
	ShutdownGrace time.Duration
	// TLSCert and TLSKey, both or neither, are PEM files of the server
	// certificate (chain) and its key: the service then answers HTTPS only
	// (TLS 1.2 at least, AEAD suites, HTTP/2; see package tlsconf), and
	// ReloadCertificate reads them again.
	TLSCert string
	TLSKey  string
	// CABundle is a PEM file of CA certificates trusted, besides the
	// system's, by the service's outgoing connections: the upstream it
	// syncs from and the webhook receivers.
	CABundle string
	// Lists are public lists (package lists) fetched into the store at
	// start and every ListsEvery (0: DefaultListsEvery) with ListsFetcher
	// (nil: the issuers' addresses, CABundle's roots); each change is
	// swapped in as a sync's is, and a list that fails keeps its previous
	// edition.
	Lists        []lists.List
	ListsFetcher *lists.Fetcher
	ListsEvery   time.Duration
	// BookShard is the part of the book this service screens on every
	// change set (serve --book-shard): replicas holding the same book, one
	// per shard, share the work and raise each alert once between them.
	// The zero value screens the whole book.
	BookShard book.Shard
	// Log receives what the service does; nil discards it.
	Log *slog.Logger
	// Admission bounds the heavy queries that run at once (checks, long
	// reports and media calls share its slots); the zero value is
	// engine's defaults.
	Admission engine.Admission
	// WorkbenchKey names the enabled key of KeysFile that people signed
	// in to the workbench screen, decide and monitor with; "": people
	// only work alerts. ReloadKeys finds it again.
	WorkbenchKey string
	// OIDC signs people in to the workbench through an identity
	// provider; nil: none. Its requests trust CABundle's roots.
	OIDC *ui.OIDC
}

// ConfigError is a Config value Open refuses before it opens anything:
// Field names the Config field, so that the command line can name its
// flag.
type ConfigError struct {
	Field string
	Err   error
}

// Error names the field and the reason.
func (e *ConfigError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *ConfigError) Unwrap() error { return e.Err }

func configErrorf(field, format string, args ...any) error {
	return &ConfigError{Field: field, Err: fmt.Errorf(format, args...)}
}

// Service is a running amlscreen serve: everything Open assembled. Its
// methods are safe for concurrent use.
type Service struct {
	cfg      Config
	upstream string // normalised base URL
	log      *slog.Logger

	st     *store.Store
	db     *screen.Database
	ring   *sign.Keyring
	mon    *monitor.Monitor
	srv    *server.Server
	sender *monitor.Sender
	// checks logs /v1 checks with LogChecks; nil without.
	checks *casework.ScreeningLog
	hs     *http.Server
	ln     net.Listener
	loaded time.Duration
	cert   *tlsconf.Certificate // nil: plain HTTP
	roots  *x509.CertPool       // nil: the system's CAs

	// stopSync ends the sync loop, stopSend the sender; the WaitGroups
	// tell when they have.
	runOnce  sync.Once
	syncCtx  context.Context
	stopSync context.CancelFunc
	syncs    sync.WaitGroup
	sendCtx  context.Context
	stopSend context.CancelFunc
	sends    sync.WaitGroup
	served   chan error // the HTTP server's end, once Run started it
	running  bool

	serveFailed  bool
	shutdownOnce sync.Once
	shutdownErr  error
	mu           sync.Mutex

	// applyMu makes the sync loop's and the lists loop's commit and swap
	// one at a time, so that the server takes change sets in order.
	applyMu sync.Mutex

	// peopleKey is the secret of Config.WorkbenchKey ("" when it is gone).
	peopleKey atomic.Pointer[string]
}

// Open checks cfg, opens the store, loads the index, the keys, the
// keyring, monitoring and the media corpus, and listens. Nothing is
// served until Run. On error everything opened is closed again.
func Open(cfg Config) (*Service, error) {
	s := &Service{cfg: cfg, log: cfg.Log}
	if err := s.checkConfig(); err != nil {
		return nil, err
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if err := s.open(); err != nil {
		s.closeOpened()
		return nil, err
	}
	return s, nil
}

// checkConfig refuses a Config before anything is opened, and fills in
// the defaults.
func (s *Service) checkConfig() error {
	c := &s.cfg
	if c.Store == "" {
		return configErrorf("Store", "required")
	}
	if c.KeysFile == "" {
		return configErrorf("KeysFile", "required: the API keys file")
	}
	if err := c.BookShard.Validate(); err != nil {
		return &ConfigError{Field: "BookShard", Err: err}
	}
	if _, err := os.Stat(c.KeysFile); err != nil {
		return &ConfigError{Field: "KeysFile", Err: err}
	}
	if c.WorkbenchKey != "" {
		if err := s.loadPeopleKey(); err != nil {
			return &ConfigError{Field: "WorkbenchKey", Err: err}
		}
	}
	if c.Upstream != "" {
		base, err := syncer.NormalizeUpstream(c.Upstream)
		if err != nil {
			return &ConfigError{Field: "Upstream", Err: err}
		}
		s.upstream = base
		if c.UpstreamKey == "" {
			return configErrorf("UpstreamKey", "an upstream needs an API key")
		}
	} else if c.UpstreamKey != "" {
		return configErrorf("UpstreamKey", "only with an upstream")
	}
	if c.Every == 0 {
		c.Every = DefaultEvery
	}
	if c.Every < 0 {
		return configErrorf("Every", "%v is not a positive interval", c.Every)
	}
	switch {
	case c.TLSCert != "" && c.TLSKey == "":
		return configErrorf("TLSKey", "required with a TLS certificate: the file of its private key")
	case c.TLSKey != "" && c.TLSCert == "":
		return configErrorf("TLSCert", "required with a TLS key: the file of the certificate")
	}
	if c.DrainDelay < 0 {
		return configErrorf("DrainDelay", "%v is negative", c.DrainDelay)
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = DefaultShutdownGrace
	}
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.Upstream == "" {
		if _, err := os.Stat(c.Store); err != nil {
			return configErrorf("Store", "%v; import data first (amlscreen import) or give an upstream", err)
		}
	}
	if c.SigningKeys == "" {
		c.SigningKeys = filepath.Join(filepath.Dir(c.Store), "signing-keys")
	}
	return nil
}

// open builds the parts in the order they depend on each other; on a
// failure, closeOpened closes those already built.
func (s *Service) open() error {
	c := &s.cfg
	log := s.log
	if err := s.openData(); err != nil {
		return err
	}
	// Monitoring: profiles are matched inside every change set the sync
	// loop commits, and a sender delivers the outbox.
	index := func() (*engine.Index, error) { return s.db.Index(), nil }
	s.mon = monitor.New(s.st, MonitorOptions(s.st, index, log))
	if err := s.mon.Preload(); err != nil {
		return fmt.Errorf("monitoring: %w", err)
	}
	// Every change set of the store, whoever applies it, writes its
	// notifications, reopens and raises alerts and screens the book in its
	// own transaction.
	Watch{Index: index, Monitor: s.mon, Shard: c.BookShard, Log: log}.Register(s.st)
	if c.BookShard.Count > 1 {
		log.Info("book watch: screening one shard of the book's customers", "shard", c.BookShard.String())
	}
	// Adverse media: the corpus imported into the store (amlscreen media
	// import). An empty store answers with no articles, never with the
	// embedded sample: synthetic news has no place in production answers.
	corpus, err := media.Load(s.st, media.Options{Admitter: s.db.Admitter()})
	if err != nil {
		return fmt.Errorf("media corpus: %w", err)
	}
	if corpus.Len() == 0 {
		log.Info("no media articles in the store; media checks answer with 0 hits (amlscreen media import adds them)")
	}
	var logChecks func(server.Screening)
	if c.LogChecks {
		s.checks = casework.New(s.st, casework.Options{}).NewScreeningLog(0, func(err error) {
			log.Error("checks not written to the audit log", "error", err.Error())
		})
		logChecks = func(sc server.Screening) {
			s.checks.Add(casework.Screening{Actor: "key:" + sc.Key, Query: sc.Query, Version: sc.Version, IDs: sc.IDs})
		}
	}
	s.srv, err = server.New(server.Config{
		DB: s.db, Store: s.st, KeysFile: c.KeysFile, Signer: s.ring, Log: log,
		Endpoints:    append(server.MonitorEndpoints(s.mon), server.MediaEndpoints(corpus)...),
		ProfileCount: s.mon.Count,
		Outbox:       monitor.NewOutbox(s.st).Stats,
		Sample:       sampledata.Is,
		LogScreening: logChecks,
	})
	if err != nil {
		return err
	}
	if s.srv.Sample() {
		log.Warn("the store holds the embedded sample: answers are generated records, not a screening; they carry "+server.HeaderDatabase+": "+server.SampleDatabase, "version", s.db.Version())
	}
	deliveries := ui.NewDeliveryLog()
	s.sender = &monitor.Sender{Store: monitor.SharedStore(s.st), Recipients: s.srv.WebhookRecipient, Signer: s.ring, Log: log, OnAttempt: deliveries.Note, RootCAs: s.roots}
	s.mon.OnQueued(s.sender.Wake)
	if err := s.listen(deliveries); err != nil {
		return err
	}
	s.syncCtx, s.stopSync = context.WithCancel(context.Background())
	s.sendCtx, s.stopSend = context.WithCancel(context.Background())
	return nil
}

// openData opens what the service answers from, the slow parts last: the
// TLS files first, so that a wrong path fails before the store is opened
// and the index loaded, then the store, its index and the signing keys.
func (s *Service) openData() error {
	c := &s.cfg
	log := s.log
	if fi, err := os.Stat(c.KeysFile); err == nil && fi.Mode().Perm()&0o004 != 0 {
		log.Warn("the keys file is readable by every user; chmod 600 it", "file", c.KeysFile)
	}
	var err error
	if c.TLSCert != "" {
		if s.cert, err = tlsconf.LoadCertificate(c.TLSCert, c.TLSKey); err != nil {
			return err
		}
	}
	if s.roots, err = tlsconf.RootCAs(c.CABundle); err != nil {
		return fmt.Errorf("CA bundle: %w", err)
	}
	if s.st, err = store.Open(c.Store, store.Options{AllowShrink: c.AllowShrink, Log: log}); err != nil {
		return err
	}
	// Partial downloads of a serve killed while it synced.
	syncer.RemoveLeftovers(s.st, filepath.Dir(c.Store), log)
	start := time.Now()
	adm := engine.DefaultAdmitter()
	if c.Admission != (engine.Admission{}) {
		adm = engine.NewAdmitter(c.Admission)
	}
	if s.db, err = screen.Open(s.st, screen.Options{Log: log, Admitter: adm}); err != nil {
		return fmt.Errorf("store %s: %w", c.Store, err)
	}
	s.loaded = time.Since(start)
	if s.db.Version() == "" && c.Upstream == "" {
		return fmt.Errorf("store %s is empty: import data first (amlscreen import) or give --upstream", c.Store)
	}
	if s.ring, err = sign.OpenKeyring(c.SigningKeys); err != nil {
		return fmt.Errorf("signing keys: %w", err)
	}
	return nil
}

// listen opens the listener (Config.Listener, else Config.Listen) and the
// HTTP server over the service's handler.
func (s *Service) listen(deliveries *ui.DeliveryLog) error {
	c := &s.cfg
	var err error
	if s.ln = c.Listener; s.ln == nil {
		if s.ln, err = net.Listen("tcp", c.Listen); err != nil {
			return fmt.Errorf("listen: %w", err)
		}
	}
	s.hs = &http.Server{
		Handler:           s.handler(deliveries),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    server.MaxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		// No write timeout: a consolidated file takes as long as the
		// client needs to read it.
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if s.cert != nil {
		s.hs.TLSConfig = tlsconf.Server(s.cert)
	}
	return nil
}

// closeOpened closes what open got to, after a failure.
func (s *Service) closeOpened() {
	if s.ln != nil {
		s.ln.Close()
	}
	if s.srv != nil {
		s.srv.Close()
	}
	if s.checks != nil {
		s.checks.Close()
	}
	if s.db != nil {
		s.db.Close()
	}
	if s.st != nil {
		s.st.Close()
	}
}

// Addr returns the address the service listens on.
func (s *Service) Addr() string { return s.ln.Addr().String() }

// ReloadKeys reads the keys file again (on SIGHUP): a file that does not
// load, or holds no enabled key, keeps the keys in force and is returned
// as the error.
func (s *Service) ReloadKeys() error {
	if err := s.srv.ReloadKeys(); err != nil {
		return err
	}
	if s.cfg.WorkbenchKey != "" {
		if err := s.loadPeopleKey(); err != nil {
			s.log.Warn("the workbench's key for people is gone: people only work alerts until it is back", "error", err.Error())
		}
	}
	return nil
}

// ReloadCertificate reads the TLS certificate and key files again (on
// SIGHUP); new connections get the new certificate, connections open keep
// theirs. A pair that does not load keeps the certificate in force and is
// returned as the error. Without TLS it does nothing.
func (s *Service) ReloadCertificate() error {
	if s.cert == nil {
		return nil
	}
	if err := s.cert.Reload(); err != nil {
		return err
	}
	s.log.Info("TLS certificate loaded", "file", s.cfg.TLSCert, "not_after", s.cert.NotAfter().UTC().Format(time.RFC3339))
	return nil
}

// Run serves: it starts the HTTP server, the webhook sender and, with an
// upstream, the sync loop, and returns when ctx ends (the service goes on
// answering until Shutdown) or when serving fails. Call it once.
func (s *Service) Run(ctx context.Context) error {
	started := false
	s.runOnce.Do(func() {
		started = true
		s.mu.Lock()
		s.running = true
		s.served = make(chan error, 1)
		s.mu.Unlock()
		s.sends.Go(func() {
			if err := s.sender.Run(s.sendCtx); err != nil && !errors.Is(err, context.Canceled) {
				s.log.Error("webhook sender stopped", "error", err.Error())
			}
		})
		go func() {
			if s.cert != nil {
				// The certificate comes from TLSConfig.GetCertificate.
				s.served <- s.hs.ServeTLS(s.ln, "", "")
				return
			}
			s.served <- s.hs.Serve(s.ln)
		}()
		s.log.Info("serving", "listen", s.Addr(), "https", s.cert != nil, "version", s.db.Version(), "records", s.db.Index().Len(),
			"loaded_in", s.loaded.Round(time.Millisecond).String(), "signing_keys", s.cfg.SigningKeys)
		if s.upstream != "" {
			c := &syncer.Client{Upstream: s.upstream, APIKey: s.cfg.UpstreamKey, Log: s.log}
			if s.roots != nil {
				c.HTTP = syncer.NewHTTPClient(s.roots)
			}
			s.syncs.Go(func() { s.syncLoop(s.syncCtx, c) })
		}
		if len(s.cfg.Lists) > 0 {
			s.syncs.Go(func() { s.listsLoop(s.syncCtx) })
		}
	})
	if !started {
		return errors.New("service: Run called twice")
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-s.served:
		s.mu.Lock()
		s.serveFailed = true
		s.mu.Unlock()
		s.served <- err // for Shutdown
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve: %w", err)
	}
}

// Shutdown stops the service gracefully (see the package doc): /readyz
// answers 503 at once, requests are answered for Config.DrainDelay, then
// the listener closes and requests in flight get Config.ShutdownGrace. An
// ending ctx cuts the drain delay short (a second signal), not the grace.
// It waits for the sync loop and the sender, writes the usage counters and
// closes the store. It may be called without Run, and more than once.
func (s *Service) Shutdown(ctx context.Context) error {
	s.shutdownOnce.Do(func() { s.shutdownErr = s.shutdown(ctx) })
	return s.shutdownErr
}

func (s *Service) shutdown(ctx context.Context) error {
	log := s.log
	s.mu.Lock()
	running, failed := s.running, s.serveFailed
	s.mu.Unlock()
	// Readiness goes first: load balancers take a probe period or two to
	// notice, and send requests meanwhile, which are answered. Connections
	// close after their next answer, so that clients come back through the
	// balancer, which by then sends them elsewhere.
	s.srv.SetReady(false)
	s.stopSync()
	// A ctx already done (an interactive Ctrl-C) skips the delay.
	if running && !failed && s.cfg.DrainDelay > 0 && ctx.Err() == nil {
		log.Info("shutting down: /readyz answers 503; still answering requests until the drain delay ends", "drain_delay", s.cfg.DrainDelay.String())
		s.hs.SetKeepAlivesEnabled(false)
		t := time.NewTimer(s.cfg.DrainDelay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			log.Info("second signal: ending the drain delay now")
		}
	}
	log.Info("shutting down: listener closed; requests in flight get up to " + s.cfg.ShutdownGrace.String())
	gctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	if err := s.hs.Shutdown(gctx); err != nil {
		log.Warn("requests still running at the end of the grace period were cut", "error", err.Error())
	}
	var serveErr error
	if running {
		serveErr = <-s.served
	} else {
		s.ln.Close()
	}
	s.syncs.Wait()
	// The sender finishes the deliveries in flight, each within its timeout.
	s.stopSend()
	s.sends.Wait()
	err := s.srv.Close()
	if s.checks != nil {
		// The checks answered are in the audit log before the store closes.
		s.checks.Close()
	}
	// A merge of the index's segments under way ends before the store
	// closes; one not started waits for the next change set.
	s.db.Close()
	if cerr := s.st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) && !failed {
		// Serving failed after Run returned; Run reports its own.
		return fmt.Errorf("serve: %w", serveErr)
	}
	log.Info("stopped")
	return nil
}

// syncLoop syncs the store from the upstream now and then every interval
// (stretched to fit the upstream's daily download limit) until ctx ends,
// and swaps every committed change into the server. Failures are logged
// and retried at the next interval, a rejected key included: the server
// keeps answering from what it has.
func (s *Service) syncLoop(ctx context.Context, c *syncer.Client) {
	log := s.log
	sched := &syncer.Schedule{Every: s.cfg.Every, Log: log}
	for {
		s.applyMu.Lock()
		res, err := c.Sync(ctx, s.st)
		if ctx.Err() != nil {
			s.applyMu.Unlock()
			return
		}
		s.srv.NoteSync(time.Now(), err)
		// A change can be committed even when the sync reports an error
		// afterwards (recording its state), so apply whatever was applied.
		if res != nil && res.Applied != nil {
			if aerr := s.srv.Apply(s.st, res.Applied); aerr != nil {
				log.Error("change committed to the store but not swapped in; restart serve", "version", res.Applied.Version, "error", aerr.Error())
			}
		}
		s.applyMu.Unlock()
		switch {
		case err != nil && syncer.Permanent(err):
			log.Error("upstream rejected the API key; serving the stored data and trying again at the next interval", "error", err.Error())
		case err != nil:
			log.Error("sync failed; serving the stored data and trying again at the next interval", "error", err.Error())
		case res.UpToDate:
			log.Info("up to date", "version", res.Version)
		default:
			log.Info("synced", "version", res.Version, "full", res.Full, "records", res.Applied.Records)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(sched.Next(res)):
		}
	}
}
