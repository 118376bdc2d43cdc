package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newSyncCmd) }

// apiKeyEnv names the environment variable that holds the API key, the
// way to pass it without it showing in the process list.
const apiKeyEnv = "AMLSCREEN_API_KEY"

type syncFlags struct {
	store    string
	upstream string
	apiKey   string
	includes string
	every    time.Duration
	// allowShrink lets a full file remove more than half of the records.
	allowShrink bool
	caBundle    string
	// lists are public lists fetched after each sync (lists.go); without
	// --upstream, the only thing sync does.
	lists []string
	listsSource
}

func newSyncCmd() *cobra.Command {
	var f syncFlags
	cmd := &cobra.Command{
		Use:   "sync --store PATH --upstream URL [flags]",
		Short: "Bring the store up to date from the hosted service or a primary amlscreen",
		Long: `Download the consolidated database into the store (created when absent), then
keep it current.

The first run downloads getConsolidatedFile; later runs ask for the delta from
the stored version with getConsolidatedDelta and apply it. The full file is
downloaded again when the stored version is older than 14 days, when the
upstream no longer knows it, or when --includes changed. Each import or delta
is one transaction: an interrupted sync leaves the previous version whole.

Every poll is a download, also one that finds nothing new. Downloads are
counted in the store and never exceed the daily limit: the service's 50 per
UTC day, or the limit a primary amlscreen serve announces for the key (none
for a key with "daily_download_limit": 0). An --every that would poll more
often than the limit allows (45 polls, leaving room for retries and full
downloads: every 32m for 50) is stretched to fit, with a warning. A refused
connection, a wrong --upstream or an upstream certificate this machine does
not trust fails at once; give an internal CA with --ca-bundle. Transient failures (5xx, dropped connections) are retried
with backoff; a rejected key (401, 403) or a used-up quota (429) stops the
run. With --every, sync keeps running and syncs on that interval; it stops
on a rejected key and retries other failures at the next interval.

The API key is read from --api-key or, better, from AMLSCREEN_API_KEY, which
keeps it out of the process list. It is never printed or logged.

Exit codes: 0 synced (or up to date), 1 failure, 2 bad flags.`,
		Example: `  export AMLSCREEN_API_KEY=...
  amlscreen sync --store aml.db --upstream https://api.example.com
  amlscreen sync --store aml.db --upstream https://api.example.com --includes included,un_sc --every 1h
  amlscreen sync --store replica.db --upstream http://primary:8080    # a replica of a primary amlscreen serve
  amlscreen sync --store replica.db --upstream https://primary.bank.internal:8443 --ca-bundle /etc/amlscreen/bank-ca.pem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSync(cmd.Context(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.upstream, "upstream", "", upstreamUsage)
	fl.StringVar(&f.apiKey, "api-key", "", "API key (default: $"+apiKeyEnv+")")
	fl.StringVar(&f.includes, "includes", "", "comma-separated source ids and/or 'included', passed to the service (default: the key's sources)")
	fl.DurationVar(&f.every, "every", 0, "keep running and sync at this interval, e.g. 1h")
	fl.BoolVar(&f.allowShrink, "allow-shrink", false, "let a full file or a delta remove more than half of the store's records (an empty store never results)")
	addCABundleFlag(fl, &f.caBundle)
	addSyncListsFlags(cmd, &f)
	return cmd
}

func runSync(ctx context.Context, stderr io.Writer, f *syncFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	fetchLists, err := syncListsStep(stderr, f)
	if err != nil {
		return err
	}
	if fetchLists != nil && f.upstream == "" {
		return runListsLoop(ctx, cliLogger(stderr), f.every, fetchLists)
	}
	upstream, err := checkUpstream(f.upstream)
	if err != nil {
		return err
	}
	key := f.apiKey
	if key == "" {
		key = os.Getenv(apiKeyEnv)
	}
	if key == "" {
		return usagef("--api-key: not given, and %s is not set", apiKeyEnv)
	}
	if f.every < 0 {
		return usagef("--every: %v is negative", f.every)
	}
	roots, err := rootCAs(f.caBundle)
	if err != nil {
		return err
	}
	log := cliLogger(stderr)
	noteUpstream(log, f.upstream, upstream)
	c := &syncer.Client{
		Upstream: upstream,
		APIKey:   key,
		Includes: f.includes,
		Log:      log,
		Progress: cliProgress(stderr),
	}
	if roots != nil {
		c.HTTP = syncer.NewHTTPClient(roots)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sched := &syncer.Schedule{Every: f.every, Log: log}
	for {
		res, err := syncOnce(ctx, c, f.store, f.allowShrink)
		if fetchLists != nil && ctx.Err() == nil {
			err = errors.Join(err, fetchLists(ctx))
		}
		if f.every == 0 {
			return err
		}
		if err != nil {
			if syncer.Permanent(err) || ctx.Err() != nil {
				return err
			}
			log.Error("sync failed; trying again at the next interval", "error", err.Error())
		}
		wait := sched.Next(res)
		log.Info("next sync", "at", time.Now().Add(wait).UTC().Format(time.RFC3339))
		select {
		case <-ctx.Done():
			log.Info("stopped")
			return nil
		case <-time.After(wait):
		}
	}
}

// checkUpstream checks --upstream and returns the base URL the client
// uses (without a trailing /v1).
func checkUpstream(raw string) (string, error) {
	if raw == "" {
		return "", usagef("--upstream: required")
	}
	base, err := syncer.NormalizeUpstream(raw)
	if err != nil {
		return "", usagef("--upstream: %v", err)
	}
	return base, nil
}

// noteUpstream logs the base URL used when it differs from the one given
// by more than a trailing slash: a /v1 the client adds itself.
func noteUpstream(log *slog.Logger, given, base string) {
	if strings.TrimRight(given, "/") != base {
		log.Info("--upstream: using the base URL without /v1; the client adds /v1/... itself", "upstream", base)
	}
}

// syncOnce opens the store only for the time of one sync, so that status
// and export can read it between runs of sync --every. The result is nil
// when the store could not be opened.
func syncOnce(ctx context.Context, c *syncer.Client, path string, allowShrink bool) (*syncer.Result, error) {
	db, err := openStoreToWrite(path, store.Options{AllowShrink: allowShrink, Log: c.Log})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	res, err := c.Sync(ctx, db)
	if err != nil {
		var le *store.DownloadLimitError
		if errors.As(err, &le) {
			return res, fmt.Errorf("sync stopped: %w", err)
		}
		return res, err
	}
	if res.UpToDate {
		return res, nil
	}
	c.Log.Info("store updated", "version", res.Version, "records", res.Applied.Records, "downloads", res.Downloads)
	return res, nil
}

// cliLogger writes one structured line per event to stderr.
func cliLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
