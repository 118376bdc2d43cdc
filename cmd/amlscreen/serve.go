package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/live"
	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newServeCmd) }

type serveFlags struct {
	store       string
	listen      string
	keys        string
	signingKeys string
	upstream    string
	apiKey      string
	every       time.Duration
	drainDelay  time.Duration
	allowShrink bool
	// ready, when set, receives the listener's address once the server
	// accepts connections (tests).
	ready func(addr string)
}

// shutdownGrace is how long a graceful shutdown lets requests in flight
// finish: under the 30 s a Kubernetes pod gets by default.
const shutdownGrace = 25 * time.Second

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve --store PATH --keys KEYS.json [flags]",
		Short: "Answer the service's /v1 API from the local database",
		Long: `Serve the /v1 API of the hosted service from the store, so that clients only
change their base URL: checkIndividual, checkEntity, checkName, the report
endpoints, getSourceList (signed), getConsolidatedFile and getConsolidatedDelta
(so replicas can sync from this server), usage and keys/{kid}. /healthz,
/readyz and /metrics (Prometheus) need no key.

API keys, their quotas, sources and features come from the --keys file (see
the README); serve refuses to start when it holds no enabled key. SIGHUP
reloads it; a file that does not load, or holds no enabled key, keeps the keys
in force and is logged at ERROR. Usage counters are kept in the store, written
every second and at shutdown.
Responses of getSourceList are signed with the keyring in --signing-keys,
created on first start; rotate it with amlscreen keys rotate while serving.

With --upstream, serve also syncs the store from the hosted service or from a
primary amlscreen serve every --every, and swaps each change in without a
restart. Every poll is one of the upstream's daily downloads (the service's 50,
or what a primary announces for the key): an --every the limit cannot fit is
stretched, with a warning. Give a replica's key "daily_download_limit": 0 in
the primary's keys file to poll more often. serve holds the store open for writing, so amlscreen sync and import
cannot run on the same store meanwhile; give serve --upstream instead.

SIGTERM or SIGINT stops it gracefully: /readyz turns 503 at once, requests
are still answered for --drain-delay (5 s) so that load balancers notice and
stop sending any, then the listener closes, requests in flight get up to 25 s,
and usage counters are written. A second signal ends the delay early.

Exit codes: 0 stopped by a signal, 1 failure, 2 bad flags.`,
		Example: `  amlscreen serve --store aml.db --keys keys.json --listen :8080
  AMLSCREEN_API_KEY=... amlscreen serve --store aml.db --keys keys.json --upstream https://api.example.com --every 1h
  AMLSCREEN_API_KEY=replica-key amlscreen serve --store replica.db --keys keys.json --upstream http://primary:8080 --every 10m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.store, "store", "", "store file (bbolt); required")
	fl.StringVar(&f.listen, "listen", "localhost:8080", "address to listen on, e.g. :8080 for every interface")
	fl.StringVar(&f.keys, "keys", "", "API keys file (JSON, see the README); required")
	fl.StringVar(&f.signingKeys, "signing-keys", "", "signing keyring directory (default: signing-keys next to the store)")
	fl.StringVar(&f.upstream, "upstream", "", "sync from this service or primary amlscreen serve (base URL; a trailing /v1 is taken off)")
	fl.StringVar(&f.apiKey, "api-key", "", "API key for --upstream (default: $"+apiKeyEnv+")")
	fl.DurationVar(&f.every, "every", time.Hour, "with --upstream, sync at this interval (stretched to fit the upstream's daily download limit)")
	fl.DurationVar(&f.drainDelay, "drain-delay", 5*time.Second, "on SIGTERM, keep answering this long with /readyz at 503 before closing the listener (0: close at once)")
	fl.BoolVar(&f.allowShrink, "allow-shrink", false, "with --upstream, let a full file remove more than half of the store's records (every sync while serve runs)")
	return cmd
}

func runServe(ctx context.Context, stderr io.Writer, f *serveFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	if f.keys == "" {
		return usagef("--keys: required: the API keys file")
	}
	if _, err := os.Stat(f.keys); err != nil {
		return usagef("--keys: %v", err)
	}
	upstreamKey := f.apiKey
	if upstreamKey == "" {
		upstreamKey = os.Getenv(apiKeyEnv)
	}
	if f.upstream != "" && upstreamKey == "" {
		return usagef("--api-key: --upstream needs an API key, and %s is not set", apiKeyEnv)
	}
	if f.upstream == "" && f.apiKey != "" {
		return usagef("--api-key: only with --upstream")
	}
	var upstream string
	if f.upstream != "" {
		var err error
		if upstream, err = checkUpstream(f.upstream); err != nil {
			return err
		}
	}
	if f.every <= 0 {
		return usagef("--every: %v is not a positive interval", f.every)
	}
	if f.drainDelay < 0 {
		return usagef("--drain-delay: %v is negative", f.drainDelay)
	}
	if f.upstream == "" {
		if _, err := os.Stat(f.store); err != nil {
			return usagef("--store: %v; import data first (amlscreen import) or give --upstream", err)
		}
	}
	if f.signingKeys == "" {
		f.signingKeys = filepath.Join(filepath.Dir(f.store), "signing-keys")
	}
	log := cliLogger(stderr)
	if upstream != "" {
		noteUpstream(log, f.upstream, upstream)
	}
	if fi, err := os.Stat(f.keys); err == nil && fi.Mode().Perm()&0o004 != 0 {
		log.Warn("the keys file is readable by every user; chmod 600 it", "file", f.keys)
	}

	st, err := store.Open(f.store, store.Options{AllowShrink: f.allowShrink, Log: log})
	if err != nil {
		return err
	}
	defer st.Close()
	// Partial downloads of a serve killed while it synced.
	syncer.RemoveLeftovers(st, filepath.Dir(f.store), log)
	start := time.Now()
	db, err := live.Load(st)
	if err != nil {
		return fmt.Errorf("store %s: %w", f.store, err)
	}
	if db.Version() == "" && f.upstream == "" {
		return fmt.Errorf("store %s is empty: import data first (amlscreen import) or give --upstream", f.store)
	}
	ring, err := sign.OpenKeyring(f.signingKeys)
	if err != nil {
		return fmt.Errorf("--signing-keys: %w", err)
	}
	// Monitoring: profiles are matched inside every change set the sync
	// loop commits, and a sender delivers the outbox.
	mon := monitor.New(st, monitor.Options{Log: log})
	if err := mon.Preload(); err != nil {
		return fmt.Errorf("monitoring: %w", err)
	}
	// Adverse media: the corpus imported into the store (amlscreen media
	// import). An empty store answers with no articles, never with the
	// embedded sample: synthetic news has no place in production answers.
	corpus, err := media.Load(st, media.Options{})
	if err != nil {
		return fmt.Errorf("media corpus: %w", err)
	}
	if corpus.Len() == 0 {
		log.Info("no media articles in the store; media checks answer with 0 hits (amlscreen media import adds them)")
	}
	srv, err := server.New(server.Config{
		DB: db, Store: st, KeysFile: f.keys, Signer: ring, Log: log,
		Endpoints:    append(server.MonitorEndpoints(mon), server.MediaEndpoints(corpus)...),
		ProfileCount: mon.Count,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	sender := &monitor.Sender{Store: monitor.SharedStore(st), Recipients: srv.WebhookRecipient, Signer: ring, Log: log}
	mon.OnQueued(sender.Wake)
	sendCtx, stopSend := context.WithCancel(context.Background())
	defer stopSend()
	sent := make(chan error, 1)
	go func() { sent <- sender.Run(sendCtx) }()

	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    server.MaxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		// No write timeout: a consolidated file takes as long as the
		// client needs to read it.
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Info("serving", "listen", ln.Addr().String(), "version", db.Version(), "records", db.Index().Len(),
		"loaded_in", time.Since(start).Round(time.Millisecond).String(), "signing_keys", f.signingKeys)
	if f.ready != nil {
		f.ready(ln.Addr().String())
	}

	syncCtx, stopSync := context.WithCancel(ctx)
	synced := make(chan struct{})
	if f.upstream != "" {
		c := &syncer.Client{Upstream: upstream, APIKey: upstreamKey, Log: log, Hook: mon.Hook()}
		go func() {
			defer close(synced)
			syncLoop(syncCtx, c, st, srv, f.every, log)
		}()
	} else {
		close(synced)
	}

	var serveErr error
	for running := true; running; {
		select {
		case <-hup:
			if err := srv.ReloadKeys(); err != nil {
				log.Error("keys file not reloaded; the previous keys stay in force", "error", err.Error())
			}
		case serveErr = <-served:
			running = false
		case <-ctx.Done():
			running = false
		}
	}
	// Readiness goes first: load balancers take a probe period or two to
	// notice, and send requests meanwhile, which are answered. Connections
	// close after their next answer, so that clients come back through the
	// balancer, which by then sends them elsewhere.
	srv.SetReady(false)
	stopSync()
	if serveErr == nil && f.drainDelay > 0 {
		log.Info("shutting down: /readyz answers 503; still answering requests until the drain delay ends", "drain_delay", f.drainDelay.String())
		hs.SetKeepAlivesEnabled(false)
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		select {
		case <-time.After(f.drainDelay):
		case <-again:
			log.Info("second signal: ending the drain delay now")
		}
		signal.Stop(again)
	}
	log.Info("shutting down: listener closed; requests in flight get up to " + shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("requests still running at the end of the grace period were cut", "error", err.Error())
	}
	<-synced
	// The sender finishes the deliveries in flight, each within its timeout.
	stopSend()
	<-sent
	if err := srv.Close(); err != nil {
		return err
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	log.Info("stopped")
	return nil
}

// syncLoop syncs st from the upstream now and then every interval
// (stretched to fit the upstream's daily download limit) until ctx ends,
// and swaps every committed change into the server. Failures are logged
// and retried at the next interval, a rejected key included: the server
// keeps answering from what it has.
func syncLoop(ctx context.Context, c *syncer.Client, st *store.DB, srv *server.Server, every time.Duration, log *slog.Logger) {
	sched := &syncer.Schedule{Every: every, Log: log}
	for {
		res, err := c.Sync(ctx, st)
		if ctx.Err() != nil {
			return
		}
		srv.NoteSync(time.Now(), err)
		// A change can be committed even when the sync reports an error
		// afterwards (recording its state), so apply whatever was applied.
		if res != nil && res.Applied != nil {
			if aerr := srv.Apply(st, res.Applied); aerr != nil {
				log.Error("change committed to the store but not swapped in; restart serve", "version", res.Applied.Version, "error", aerr.Error())
			}
		}
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
