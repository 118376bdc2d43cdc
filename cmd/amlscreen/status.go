package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newStatusCmd) }

type statusFlags struct {
	store    string
	server   string
	apiKey   string
	format   string
	caBundle string
}

func newStatusCmd() *cobra.Command {
	var f statusFlags
	cmd := &cobra.Command{
		Use:   "status (--store PATH | --server URL) [--format table|json]",
		Short: "Show the store's version, record counts, downloads used and size",
		Long: `Show what the store holds: its version and when it was applied, record counts
by source_type and entity_type, the downloads of getConsolidatedFile and
getConsolidatedDelta used today (UTC) against the daily limit, the last sync,
the source catalogue, the oldest version deltas can be exported from, and the
size of the file.

The store is opened read-only; that works while no other process holds it for
writing. amlscreen serve does, for as long as it runs: ask it with --server URL
instead (GET /v1/status, free of charge; the API key from --api-key or
AMLSCREEN_API_KEY, as sync takes it). The answer is the same, with the
server's URL as the store.

Exit codes: 0 shown, 1 failure (no such store, store locked, server
unreachable or refusing the key), 2 bad flags.`,
		Example: `  amlscreen status --store aml.db
  amlscreen status --store aml.db --format json | jq .version
  AMLSCREEN_API_KEY=... amlscreen status --server http://localhost:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), cmd.OutOrStdout(), &f, time.Now())
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.server, "server", "", "ask a running amlscreen serve at this base URL instead of opening the store")
	fl.StringVar(&f.apiKey, "api-key", "", "with --server, an API key of its keys file (default: $"+apiKeyEnv+")")
	addCABundleFlag(fl, &f.caBundle)
	addFormatFlag(fl, &f.format)
	return cmd
}

// statusReport is the JSON form of status: the store's Status, which
// GET /v1/status answers.
type statusReport = store.Status

func runStatus(ctx context.Context, stdout io.Writer, f *statusFlags, now time.Time) error {
	switch {
	case f.store == "" && f.server == "":
		return usagef("--store: required (or --server URL to ask a running amlscreen serve)")
	case f.store != "" && f.server != "":
		return usagef("--store and --server exclude each other")
	case f.apiKey != "" && f.server == "":
		return usagef("--api-key: only with --server")
	case f.caBundle != "" && f.server == "":
		return usagef("--ca-bundle: only with --server")
	}
	if err := checkFormat(f.format); err != nil {
		return err
	}
	var rep *statusReport
	var err error
	if f.server != "" {
		rep, err = remoteStatus(ctx, f)
	} else {
		rep, err = localStatus(f.store, now)
	}
	if err != nil {
		return err
	}
	if f.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeStatusTable(stdout, rep, now)
}

func localStatus(path string, now time.Time) (*statusReport, error) {
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		return nil, lockHint(err)
	}
	defer db.Close()
	rep, err := db.Status(now)
	if err != nil {
		return nil, err
	}
	rep.Store = path
	rep.Index = screen.InspectChecked(db) // checksums verified: status is run by hand
	return rep, nil
}

func remoteStatus(ctx context.Context, f *statusFlags) (*statusReport, error) {
	r, err := newRemote(f.server, f.apiKey, f.caBundle)
	if err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	body, err := r.get(ctx, "status", nil)
	if err != nil {
		return nil, err
	}
	var rep statusReport
	if err := json.Unmarshal(body, &rep); err != nil {
		return nil, fmt.Errorf("server %s: /v1/status is not a status: %w", r.base, err)
	}
	rep.Store = r.base
	return &rep, nil
}

func writeStatusTable(w io.Writer, r *statusReport, now time.Time) error {
	tw := newTable(w)
	when := func(t *time.Time) string {
		if t == nil {
			return "never"
		}
		return fmt.Sprintf("%s (%s ago)", t.Format(time.RFC3339), now.Sub(*t).Round(time.Minute))
	}
	version := r.Version
	if version == "" {
		version = "(empty store: run sync or import)"
	}
	fmt.Fprintf(tw, "Store\t%s (%s)\n", r.Store, humanBytes(r.SizeBytes))
	fmt.Fprintf(tw, "Version\t%s\n", version)
	if r.AppliedAt != nil {
		how := "delta"
		if r.Full {
			how = "full import"
		}
		fmt.Fprintf(tw, "Applied\t%s, %s\n", when(r.AppliedAt), how)
	}
	fmt.Fprintf(tw, "Records\t%d\n", r.Records)
	if r.DownloadLimit == 0 {
		fmt.Fprintf(tw, "Downloads today\t%d (UTC day; the upstream announces no daily limit)\n", r.DownloadsToday)
	} else {
		fmt.Fprintf(tw, "Downloads today\t%d of %d (UTC day)\n", r.DownloadsToday, r.DownloadLimit)
	}
	if s := r.LastSync; s != nil {
		fmt.Fprintf(tw, "Upstream\t%s\n", s.Upstream)
		if s.Includes != "" {
			fmt.Fprintf(tw, "Includes\t%s\n", s.Includes)
		}
		fmt.Fprintf(tw, "Last sync\t%s\n", when(s.Attempt))
		if s.Error != "" {
			fmt.Fprintf(tw, "Last error\t%s\n", s.Error)
		}
		fmt.Fprintf(tw, "Last success\t%s\n", when(s.Success))
	}
	if len(r.LocalSources) > 0 {
		var parts []string
		for _, id := range slices.Sorted(maps.Keys(r.LocalSources)) {
			parts = append(parts, fmt.Sprintf("%s (%d records)", id, r.LocalSources[id]))
		}
		fmt.Fprintf(tw, "Local sources\t%s, kept by full imports\n", strings.Join(parts, ", "))
	}
	if ix := r.Index; ix != nil {
		line := fmt.Sprintf("%s: %d segments, %d records, %d tombstones, %s", ix.State, ix.Segments, ix.Records, ix.Tombstones, humanBytes(ix.Bytes))
		if ix.State == "missing" {
			line = "missing: the next check, serve or write builds it"
		} else if ix.State == "stale" {
			line += "; the next open catches it up"
		} else if ix.State != "current" {
			line += "; WARNING: " + ix.Reason + "; the next open rebuilds it"
		}
		fmt.Fprintf(tw, "Screening index\t%s\n", line)
	}
	if r.Sources > 0 {
		fmt.Fprintf(tw, "Source catalogue\t%d sources, synced %s\n", r.Sources, when(r.SourcesAt))
	}
	if r.DeltasFrom != "" {
		fmt.Fprintf(tw, "Deltas from\t%s\n", r.DeltasFrom)
	}
	for _, t := range []struct {
		title  string
		counts map[string]int
	}{{"Source type", r.BySourceType}, {"Entity type", r.ByEntityType}} {
		if len(t.counts) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n%s\tRecords\n", t.title)
		keys := make([]string, 0, len(t.counts))
		for k := range t.counts {
			keys = append(keys, k)
		}
		// Largest first: the lists that matter most lead.
		slices.SortFunc(keys, func(a, b string) int {
			if t.counts[a] != t.counts[b] {
				return t.counts[b] - t.counts[a]
			}
			return cmp.Compare(a, b)
		})
		for _, k := range keys {
			name := k
			if name == "" {
				name = "(none)"
			}
			fmt.Fprintf(tw, "  %s\t%d\n", name, t.counts[k])
		}
	}
	return tw.Flush()
}
