package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/monitor"
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
}

func newSyncCmd() *cobra.Command {
	var f syncFlags
	cmd := &cobra.Command{
		Use:   "sync --store PATH --upstream URL [flags]",
		Short: "Bring the store up to date from the hosted service or a primary amlscreen",
		Long: `Download the consolidated database into the store, then keep it current.

The first run downloads getConsolidatedFile; later runs ask for the delta from
the stored version with getConsolidatedDelta and apply it. The full file is
downloaded again when the stored version is older than 14 days, when the
upstream no longer knows it, or when --includes changed. Each import or delta
is one transaction: an interrupted sync leaves the previous version whole.

Downloads are counted in the store and never exceed 50 per UTC day, the
service's limit. Transient failures (5xx, dropped connections) are retried
with backoff; a rejected key (401, 403) or a used-up quota (429) stops the
run. With --every, sync keeps running and syncs on that interval; it stops
on a rejected key and retries other failures at the next interval.

The API key is read from --api-key or, better, from AMLSCREEN_API_KEY, which
keeps it out of the process list. It is never printed or logged.

Exit codes: 0 synced (or up to date), 1 failure, 2 bad flags.`,
		Example: `  export AMLSCREEN_API_KEY=...
  amlscreen sync --store aml.db --upstream https://api.example.com
  amlscreen sync --store aml.db --upstream https://api.example.com --includes included,un_sc --every 1h
  amlscreen sync --store replica.db --upstream http://primary:8080    # a replica of a primary amlscreen serve`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSync(cmd.Context(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.store, "store", "", "store file (bbolt); created when absent")
	fl.StringVar(&f.upstream, "upstream", "", "base URL of the service, without /v1")
	fl.StringVar(&f.apiKey, "api-key", "", "API key (default: $"+apiKeyEnv+")")
	fl.StringVar(&f.includes, "includes", "", "comma-separated source ids and/or 'included', passed to the service (default: the key's sources)")
	fl.DurationVar(&f.every, "every", 0, "keep running and sync at this interval, e.g. 1h")
	fl.BoolVar(&f.allowShrink, "allow-shrink", false, "let a full file remove more than half of the store's records (an empty one never replaces it)")
	return cmd
}

func runSync(ctx context.Context, stderr io.Writer, f *syncFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	if f.upstream == "" {
		return usagef("--upstream: required")
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
	log := cliLogger(stderr)
	if f.every > 0 && f.every < 24*time.Hour/store.DailyDownloadLimit {
		log.Warn("--every is shorter than the daily download limit allows; some runs will be refused", "every", f.every.String(), "limit_per_day", store.DailyDownloadLimit)
	}
	c := &syncer.Client{
		Upstream: f.upstream,
		APIKey:   key,
		Includes: f.includes,
		Log:      log,
		Progress: cliProgress(stderr),
		Hook:     monitor.Hook(monitor.Options{}),
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	for {
		err := syncOnce(ctx, c, f.store, f.allowShrink)
		if f.every == 0 {
			return err
		}
		if err != nil {
			if syncer.Permanent(err) || ctx.Err() != nil {
				return err
			}
			log.Error("sync failed; trying again at the next interval", "error", err.Error())
		}
		log.Info("next sync", "at", time.Now().Add(f.every).UTC().Format(time.RFC3339))
		select {
		case <-ctx.Done():
			log.Info("stopped")
			return nil
		case <-time.After(f.every):
		}
	}
}

// syncOnce opens the store only for the time of one sync, so that status
// and export can read it between runs of sync --every.
func syncOnce(ctx context.Context, c *syncer.Client, path string, allowShrink bool) error {
	db, err := store.Open(path, store.Options{AllowShrink: allowShrink, Log: c.Log})
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := c.Sync(ctx, db)
	if err != nil {
		var le *store.DownloadLimitError
		if errors.As(err, &le) {
			return fmt.Errorf("sync stopped: %w", err)
		}
		return err
	}
	if res.UpToDate {
		return nil
	}
	c.Log.Info("store updated", "version", res.Version, "records", res.Applied.Records, "downloads", res.Downloads)
	return nil
}

// cliLogger writes one structured line per event to stderr.
func cliLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
