package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/bench"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

func init() { register(newBenchCmd) }

// benchCommands holds the constructors of bench's subcommands; each file
// adds its own in an init function.
var benchCommands = []func() *cobra.Command{newBenchSpeedCmd}

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the engine's speed (and match quality)",
	}
	for _, c := range benchCommands {
		cmd.AddCommand(c())
	}
	return cmd
}

// newBenchSpeedCmd defines bench speed; the measuring is bench.Speed's.
func newBenchSpeedCmd() *cobra.Command {
	var cfg bench.SpeedConfig
	var asJSON bool
	var format string
	var data []string
	var storePath string
	var match string
	var minScore float64
	cmd := &cobra.Command{
		Use:   "speed [flags]",
		Short: "Build the index over generated (or given) records and time checks against brute force",
		Long:  benchSpeedLong,
		Example: `  amlscreen bench speed --records 100000 --queries 2000 --format json
  amlscreen bench speed --records 1000000 --queries 5000 --brute 3 --seed 7
  amlscreen bench speed --records 1000000 --match scored --brute 3
  amlscreen bench speed --data ofac.jsonl.gz
  amlscreen bench speed --store aml.db --queries 2000 --brute 3
  amlscreen bench speed --records 1000000 --match scored --brute 0 --slowest 20`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.Records < 1 && len(data) == 0 {
				return usagef("--records: must be at least 1")
			}
			if cfg.Queries < 1 {
				return usagef("--queries: must be at least 1")
			}
			if cfg.Brute < 0 {
				return usagef("--brute: must not be negative")
			}
			if cfg.Slowest < 0 || cfg.Slowest > cfg.Queries {
				return usagef("--slowest: must be between 0 and --queries (%d)", cfg.Queries)
			}
			m, err := query.ParseMatch(match)
			if err != nil {
				return usagef("--match: %q is not strict or scored", match)
			}
			cfg.Match = m
			if cmd.Flags().Changed("min-score") {
				if m != query.Scored {
					return usagef("--min-score: applies only with --match scored")
				}
				if minScore <= 0 || minScore > 1 {
					return usagef("--min-score: %v is not in (0, 1]", minScore)
				}
				cfg.MinScore = minScore
			}
			jsonAlias(asJSON, &format, cmd.ErrOrStderr())
			if err := checkFormat(format); err != nil {
				return err
			}
			if cfg.Data, err = readSpeedData(data); err != nil {
				return err
			}
			if storePath != "" {
				if len(data) > 0 || cmd.Flags().Changed("records") {
					return usagef("--store excludes --data and --records")
				}
				closeStore, err := speedFromStore(&cfg, storePath)
				if err != nil {
					return err
				}
				defer closeStore()
			}
			cfg.Progress = func(s string) { fmt.Fprintln(os.Stderr, "bench:", s) }
			// A copy, so that Speed alone holds the records and can let
			// them go (cfg lives on with the flags).
			run := cfg
			cfg.Data = nil
			rep, err := bench.Speed(run)
			if err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			return writeSpeedTable(cmd.OutOrStdout(), rep)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&cfg.Records, "records", 100000, "number of generated records to index")
	fl.IntVar(&cfg.Queries, "queries", 2000, "queries per fuzzy level through the index")
	fl.Int64Var(&cfg.Seed, "seed", 1, "generator seed (records and queries)")
	fl.IntVar(&cfg.Brute, "brute", 20, "queries per fuzzy level also run through the brute-force matcher")
	fl.StringArrayVar(&data, "data", nil, "measure these consolidated files instead of generated records; repeatable")
	addStoreFlag(fl, &storePath)
	addFormatFlag(fl, &format)
	addJSONAlias(fl, &asJSON)
	fl.StringVar(&match, "match", "strict", "match mode of the queries: strict or scored")
	fl.Float64Var(&minScore, "min-score", query.DefaultMinScore, "scored mode: the least score a record needs to be a hit, in (0, 1]")
	fl.IntVar(&cfg.Slowest, "slowest", 0, "list this many of the slowest queries of each fuzzy level (by CPU time), to profile the tail")
	return cmd
}

// speedFromStore has bench speed measure the store at path: its index as
// opened and its records for the brute-force reference. The store stays
// open until the returned function is called.
func speedFromStore(cfg *bench.SpeedConfig, path string) (func(), error) {
	db, err := openStore(path)
	if err != nil {
		return nil, err
	}
	cfg.Opened = db.Opened()
	cfg.Index = db.Index()
	if err := db.Store().ForEachRecord(func(r *record.Record) error {
		cfg.Data = append(cfg.Data, r)
		return nil
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("--store %s: %w", path, err)
	}
	return db.Close, nil
}

// benchSpeedLong is bench speed's --help text.
const benchSpeedLong = `Builds the index over --records generated records (or the --data files),
then runs --queries generated queries (exact, reordered, typo'd, partial, clean
names; a fifth with dob, gender or citizenship filters) at fuzzy 0, 1 and 2, one
at a time. A sample of --brute queries per level also goes through the
brute-force reference matcher; speedup_vs_bruteforce is the ratio of the two
medians over that same sample. --match scored measures scored mode (at
--min-score, its default when not given) against the brute-force scored
reference. --store measures a store's persisted index as check and serve
use it (opened, not built; hits read their records from the store), with
queries drawn from the store's records.`

// readSpeedData reads the records of the --data files, in order.
func readSpeedData(names []string) ([]*record.Record, error) {
	var out []*record.Record
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, usagef("--data: %v", err)
		}
		recs, err := record.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("--data %s: %w", name, err)
		}
		out = append(out, recs...)
	}
	return out, nil
}

func writeSpeedTable(out io.Writer, r *bench.SpeedReport) error {
	heap := "n/a (records loaded before measuring)"
	if r.HeapBytesPerRecord > 0 {
		heap = fmt.Sprintf("%.0f B/record", r.HeapBytesPerRecord)
	}
	fmt.Fprintf(out, "records %d, build %.2f s, heap %s (index %.0f B/record), %d tokens, GOMAXPROCS %d, match %s\n",
		r.Records, r.BuildSeconds, heap, r.IndexBytesPerRecord, r.Tokens, r.GOMAXPROCS, r.Match)
	if r.ScoredPrepareSeconds > 0 {
		fmt.Fprintf(out, "scored mode prepared in %.2f s, %.0f B/record more heap\n", r.ScoredPrepareSeconds, r.ScoredBytesPerRecord)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tqueries\tp50 µs\tp99 µs\tCPU p50 µs\tCPU p99 µs\tqps\tmean hits\tbrute p50 µs\tspeed-up\t")
	for _, m := range []struct {
		name string
		r    bench.ModeReport
	}{{"exact", r.Exact}, {"fuzzy1", r.Fuzzy1}, {"fuzzy2", r.Fuzzy2}} {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t%.0f\t%.0f×\t\n", m.name, m.r.Queries, m.r.P50Micros, m.r.P99Micros,
			m.r.CPUP50Micros, m.r.CPUP99Micros, m.r.QPS, m.r.MeanHits, m.r.BruteP50Micros, m.r.Speedup)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range []struct {
		name string
		r    bench.ModeReport
	}{{"exact", r.Exact}, {"fuzzy1", r.Fuzzy1}, {"fuzzy2", r.Fuzzy2}} {
		if len(m.r.Slowest) > 0 {
			fmt.Fprintf(out, "slowest %s:\n", m.name)
		}
		for _, q := range m.r.Slowest {
			fmt.Fprintf(out, "  %9.1f µs  CPU %9.1f µs  %5d hits  %-16s %q dob=%q gender=%q citizenship=%q\n", q.Micros, q.CPUMicros, q.Hits, q.Kind, q.Names, q.DOB, q.Gender, q.Citizenship)
		}
	}
	return nil
}
