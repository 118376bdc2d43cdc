package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newStatusCmd) }

func newStatusCmd() *cobra.Command {
	var storePath, format string
	cmd := &cobra.Command{
		Use:   "status --store PATH [--format table|json]",
		Short: "Show the store's version, record counts, downloads used and size",
		Long: `Show what the store holds: its version and when it was applied, record counts
by source_type and entity_type, the downloads of getConsolidatedFile and
getConsolidatedDelta used today (UTC) against the daily limit, the last sync,
the source catalogue, the oldest version deltas can be exported from, and the
size of the file.

The store is opened read-only; status works while no sync or import holds it.

Exit codes: 0 shown, 1 failure (no such store, store locked), 2 bad flags.`,
		Example: `  amlscreen status --store aml.db
  amlscreen status --store aml.db --format json | jq .version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.OutOrStdout(), storePath, format, time.Now())
		},
	}
	cmd.Flags().StringVar(&storePath, "store", "", "store file (bbolt)")
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	return cmd
}

// statusReport is the JSON form of status; keys are snake_case like the
// API's.
type statusReport struct {
	Store          string         `json:"store"`
	SizeBytes      int64          `json:"size_bytes"`
	Version        string         `json:"version"`
	AppliedAt      *time.Time     `json:"applied_at,omitempty"`
	Full           bool           `json:"full_import"`
	Records        int            `json:"records"`
	BySourceType   map[string]int `json:"by_source_type"`
	ByEntityType   map[string]int `json:"by_entity_type"`
	DownloadsToday int            `json:"downloads_today"`
	DownloadLimit  int            `json:"download_limit"`
	Sources        int            `json:"sources_in_catalogue"`
	SourcesAt      *time.Time     `json:"sources_synced_at,omitempty"`
	DeltasFrom     string         `json:"deltas_from,omitempty"`
	LastSync       *lastSync      `json:"last_sync,omitempty"`
}

type lastSync struct {
	Upstream string     `json:"upstream,omitempty"`
	Includes string     `json:"includes,omitempty"`
	Attempt  *time.Time `json:"attempt,omitempty"`
	Success  *time.Time `json:"success,omitempty"`
	Error    string     `json:"error,omitempty"`
}

func runStatus(stdout io.Writer, storePath, format string, now time.Time) error {
	if storePath == "" {
		return usagef("--store: required")
	}
	if format != "table" && format != "json" {
		return usagef("--format: %q is not table or json", format)
	}
	db, err := store.Open(storePath, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Stats()
	if err != nil {
		return err
	}
	downloads, err := db.DownloadsToday(now)
	if err != nil {
		return err
	}
	ss, err := db.SyncState()
	if err != nil {
		return err
	}
	rep := statusReport{
		Store: storePath, SizeBytes: st.Size, Version: st.Version.ID, Full: st.Version.Full,
		Records: st.Records, BySourceType: st.BySourceType, ByEntityType: st.ByEntityType,
		DownloadsToday: downloads, DownloadLimit: store.DailyDownloadLimit,
		Sources: st.Sources, SourcesAt: timeOrNil(st.SourcesAt), DeltasFrom: st.DeltasFrom,
		AppliedAt: timeOrNil(st.Version.AppliedAt),
	}
	if ss != (store.SyncState{}) {
		rep.LastSync = &lastSync{Upstream: ss.Upstream, Includes: ss.Includes,
			Attempt: timeOrNil(ss.LastAttempt), Success: timeOrNil(ss.LastSuccess), Error: ss.LastError}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeStatusTable(stdout, &rep, now)
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
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
	fmt.Fprintf(tw, "Downloads today\t%d of %d (UTC day)\n", r.DownloadsToday, r.DownloadLimit)
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
