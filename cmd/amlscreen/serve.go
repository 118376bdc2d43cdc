package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/service"
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
	logChecks   bool // every /v1 check into the audit log
	demo        bool
	tlsCert     string
	tlsKey      string
	caBundle    string
	bookShard   string // I/N: the book's part this replica screens
	// lists are public lists fetched every listsEvery (lists.go).
	lists      []string
	listsEvery time.Duration
	listsSource
	// servePeopleFlags sign people in to the workbench (serve_people.go).
	servePeopleFlags
	// listener, when set, is listened on instead of --listen (--demo
	// opens it first, to put its address in the demo key's webhook URL).
	listener net.Listener
	// ready, when set, receives the listener's address once the server
	// accepts connections (tests).
	ready func(addr string)
}

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
docs/OPERATIONS.md, "Keys file"); serve refuses to start when it holds no enabled key. SIGHUP
reloads it (and the --tls-cert and --tls-key files); a file that does not load, or holds no enabled key, keeps the keys
in force and is logged at ERROR. Usage counters are kept in the store, written
every second and at shutdown.
Responses of getSourceList are signed with the keyring in --signing-keys
(default: signing-keys next to the store), created on first start; rotate it
with amlscreen keys rotate while serving.

With --upstream, serve also syncs the store from the hosted service or from a
primary amlscreen serve every --every, and swaps each change in without a
restart. Every poll is one of the upstream's daily downloads (the service's 50,
or what a primary announces for the key): an --every the limit cannot fit is
stretched, with a warning. Give a replica's key "daily_download_limit": 0 in
the primary's keys file to poll more often. serve holds the store open for writing, so amlscreen sync and import
cannot run on the same store meanwhile; give serve --upstream instead.

With --tls-cert and --tls-key, serve answers HTTPS only: TLS 1.2 at least,
forward-secret AEAD ciphers only, HTTP/2. A renewed certificate is picked up
on SIGHUP without dropping connections; a pair that does not load keeps the
previous one and is logged at ERROR. --ca-bundle adds the CAs of a PEM file
to the system's for the connections serve makes: the --upstream and the
webhook receivers (an internal PKI, without touching the system store).

Every change set serve applies is screened against the customer book in
the store (amlscreen book import), its matches raised as alerts. With
--book-shard I/N, N replicas holding the same book share that work: this one
screens only the customers whose id hashes to shard I (docs/OPERATIONS.md,
"Daily cycle").

The API is described in OpenAPI 3.1 at /openapi.json (no key needed).

The analyst workbench is at /ui/ on the same address: sign in with a key of
--keys to screen, read records, download reports, record decisions and
manage monitoring (see docs/WORKBENCH.md). People sign in as the store's
users (amlscreen users add) or through an OpenID Connect provider
(--oidc-issuer); --workbench-key names the key they screen with.
--demo serves it on the embedded sample from a throw-away store with a
generated key, printed on start, listening on this machine only.

SIGTERM stops it gracefully: /readyz turns 503 at once, requests
are still answered for --drain-delay (5 s) so that load balancers notice and
stop sending any, then the listener closes, requests in flight get up to 25 s,
and usage counters are written. A second signal ends the delay early. SIGINT
(Ctrl-C) skips the delay, so the store is free for the next command at once.

Exit codes: 0 stopped by a signal, 1 failure, 2 bad flags.`,
		Example: `  amlscreen serve --demo
  amlscreen serve --store aml.db --keys keys.json --listen :8080
  AMLSCREEN_API_KEY=... amlscreen serve --store aml.db --keys keys.json --upstream https://api.example.com --every 1h
  AMLSCREEN_API_KEY=replica-key amlscreen serve --store replica.db --keys keys.json --upstream http://primary:8080 --every 10m
  amlscreen serve --store aml.db --keys keys.json --listen :8443 --tls-cert /etc/amlscreen/tls.crt --tls-key /etc/amlscreen/tls.key --ca-bundle /etc/amlscreen/bank-ca.pem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.listen, "listen", "localhost:8080", "address to listen on, e.g. :8080 for every interface")
	fl.StringVar(&f.keys, "keys", "", keysUsage)
	fl.StringVar(&f.signingKeys, "signing-keys", "", signingKeysUsage)
	fl.StringVar(&f.upstream, "upstream", "", upstreamUsage)
	fl.StringVar(&f.apiKey, "api-key", "", "API key for --upstream (default: $"+apiKeyEnv+")")
	fl.DurationVar(&f.every, "every", time.Hour, "with --upstream, sync at this interval (stretched to fit the upstream's daily download limit)")
	fl.DurationVar(&f.drainDelay, "drain-delay", 5*time.Second, "on SIGTERM, keep answering this long with /readyz at 503 before closing the listener (0: close at once)")
	fl.BoolVar(&f.logChecks, "log-checks", false, "write every /v1 check (key, query, database version, ids returned) to the casework audit log; costs about 14% CPU a check")
	fl.BoolVar(&f.allowShrink, "allow-shrink", false, "with --upstream, let a full file or a delta remove more than half of the store's records (every sync while serve runs)")
	fl.StringVar(&f.tlsCert, "tls-cert", "", "PEM file of the server certificate (chain): answer HTTPS only; with --tls-key; SIGHUP reloads both")
	fl.StringVar(&f.tlsKey, "tls-key", "", "PEM file of the private key of --tls-cert")
	addCABundleFlag(fl, &f.caBundle)
	fl.BoolVar(&f.demo, "demo", false, "serve the embedded sample from a throw-away store with a generated key, on localhost only: try the workbench at /ui/")
	fl.StringVar(&f.bookShard, "book-shard", "", "I/N: screen only shard I of N (from 0) of the customer book on each change set; one replica per shard (docs/OPERATIONS.md)")
	addServeListsFlags(cmd, &f)
	addServePeopleFlags(cmd, &f.servePeopleFlags)
	return cmd
}

func runServe(ctx context.Context, stderr io.Writer, f *serveFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	// A signal during the start (the demo's import, the index build) is
	// caught from here on, so the deferred clean-up runs: the default
	// action would end the process and leave the demo's directory behind.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Flags that need no demo are checked before the demo imports its
	// sample.
	if f.every <= 0 {
		return usagef("--every: %v is not a positive interval", f.every)
	}
	if f.demo && f.tlsCert != "" {
		return usagef("--tls-cert: not with --demo, which listens on this machine only")
	}
	shard, err := book.ParseShard(f.bookShard)
	if err != nil {
		return usagef("--book-shard: %v", err)
	}
	if f.demo {
		cleanup, err := setupDemo(stderr, f)
		if err != nil {
			return err
		}
		defer cleanup()
	}
	if f.store == "" {
		return usagef("--store: required")
	}
	if f.keys == "" {
		return usagef("--keys: required: the API keys file")
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
	log := cliLogger(stderr)
	if f.upstream != "" {
		upstream, err := checkUpstream(f.upstream)
		if err != nil {
			return err
		}
		noteUpstream(log, f.upstream, upstream)
	}
	ls, fetcher, err := serveLists(log, f)
	if err != nil {
		return err
	}
	oidc, err := f.oidcConfig()
	if err != nil {
		return err
	}
	svc, err := service.Open(service.Config{
		Lists: ls, ListsFetcher: fetcher, ListsEvery: f.listsEvery,
		Store: f.store, KeysFile: f.keys, Listen: f.listen, SigningKeys: f.signingKeys,
		Upstream: f.upstream, UpstreamKey: upstreamKey, Every: f.every, AllowShrink: f.allowShrink, LogChecks: f.logChecks,
		DrainDelay: f.drainDelay, Log: log, Listener: f.listener, Demo: f.demo,
		TLSCert: f.tlsCert, TLSKey: f.tlsKey, CABundle: f.caBundle, BookShard: shard,
		WorkbenchKey: f.workbenchKey, OIDC: oidc,
	})
	if err != nil {
		return serveConfigError(err)
	}
	if ctx.Err() != nil {
		return errors.Join(errors.New("stopped by a signal before serving"), svc.Shutdown(context.Background()))
	}
	if f.ready != nil {
		f.ready(svc.Addr())
	}
	return runUntilSignal(ctx, svc, log)
}

// serveFlagOf names the flag of each field of service.Config.
var serveFlagOf = map[string]string{
	"Store": "--store", "KeysFile": "--keys", "Listen": "--listen", "SigningKeys": "--signing-keys",
	"Upstream": "--upstream", "UpstreamKey": "--api-key", "Every": "--every", "DrainDelay": "--drain-delay",
	"TLSCert": "--tls-cert", "TLSKey": "--tls-key", "CABundle": "--ca-bundle", "BookShard": "--book-shard",
	"WorkbenchKey": "--workbench-key",
}

// serveConfigError turns a Config the service refuses into a usage error
// naming the flag.
func serveConfigError(err error) error {
	var ce *service.ConfigError
	if errors.As(err, &ce) {
		return usagef("%s: %v", serveFlagOf[ce.Field], ce.Err)
	}
	return err
}

// runUntilSignal runs svc until SIGTERM or SIGINT (or ctx ends), reloading
// the keys and the TLS certificate on SIGHUP, then shuts it down gracefully; a second SIGTERM or
// SIGINT ends the drain delay early.
func runUntilSignal(ctx context.Context, svc *service.Service, log *slog.Logger) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Which signal stopped it: SIGINT is a person at a terminal, with no
	// load balancer to wait for.
	got := make(chan os.Signal, 1)
	signal.Notify(got, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(got)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				if err := svc.ReloadKeys(); err != nil {
					log.Error("keys file not reloaded; the previous keys stay in force", "error", err.Error())
				}
				if err := svc.ReloadCertificate(); err != nil {
					log.Error("TLS certificate not reloaded; the previous one stays in force", "error", err.Error())
				}
			}
		}
	}()
	runErr := svc.Run(ctx)
	stop()
	again, stopAgain := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopAgain()
	select {
	case sig := <-got:
		if sig == os.Interrupt {
			// The store is released at once, so that the next command
			// on it does not find it locked for the drain delay.
			log.Info("interrupted: stopping without the drain delay (SIGTERM keeps it, for load balancers)")
			stopAgain()
		}
	default:
	}
	return errors.Join(runErr, svc.Shutdown(again))
}
