package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/bench"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

func init() { benchCommands = append(benchCommands, newBenchQualityCmd) }

// benchQualityFlags are the flags of bench quality.
type benchQualityFlags struct {
	cfg      bench.QualityConfig
	data     string
	fuzzy    int
	fuzzySet bool
	format   string
	asJSON   bool
	plotFile string
}

func newBenchQualityCmd() *cobra.Command {
	var f benchQualityFlags
	cmd := &cobra.Command{
		Use:   "quality --data FILE [flags]",
		Short: "Measure match quality on a consolidated file: recall, rank and false hits",
		Long: `Measures how well checkName finds what it should and nothing else, on the
records of --data (e.g. the OFAC SDN list made by "amlscreen convert ofac"):

  leave_one_out  for every record with aliases, one alias is taken out of the
                 index and searched for: is the record among the hits, at
                 which rank (recall, mean reciprocal rank)?
  typo_1/typo_2  one or two typing errors in the primary name
  reorder        the words of the name shuffled
  diacritics     accents added (or stripped where the name has them)
  cyrillic       names of records tied to Cyrillic-writing countries
                 written in Cyrillic (Cyrillic names in passport Latin)
  legal_form     an entity's legal form spelled another way (LLC, L.L.C.,
                 Limited Liability Company)
  middle_name    an individual's middle name or patronymic left out
  false_person,  common names and company names generated from the name
  false_entity   lists in package bench, each checked not to be a name in
                 the data: the share with any hit is the false-hit rate

at fuzzy 0, 1 and 2 (or --fuzzy). Every random choice follows --seed.

--mode strict (the default) measures the /v1 checks. --mode ranked measures
the optional ranked matcher instead: name strings scored by IDF-weighted
token similarity and kept from --min-score on, which finds aliases with a
word more or a word different that the /v1 rule rejects. --mode both
measures the two on the same queries; the plot then shows strict.`,
		Example: `  amlscreen convert ofac --dir ../shared/lists --out /tmp/ofac.jsonl.gz
  amlscreen bench quality --data /tmp/ofac.jsonl.gz --plot quality.png
  amlscreen bench quality --data /tmp/ofac.jsonl.gz --fuzzy 1 --max-queries 500 --format json
  amlscreen bench quality --data /tmp/ofac.jsonl.gz --mode both`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.fuzzySet = cmd.Flags().Changed("fuzzy")
			jsonAlias(f.asJSON, &f.format, cmd.ErrOrStderr())
			return runBenchQuality(cmd.OutOrStdout(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.data, "data", "", "consolidated file to measure (.jsonl or .jsonl.gz)")
	fl.IntVar(&f.fuzzy, "fuzzy", 0, "measure only this fuzzy level (0, 1 or 2); default all three")
	addFormatFlag(fl, &f.format)
	addJSONAlias(fl, &f.asJSON)
	fl.StringVar(&f.plotFile, "plot", "", "also draw recall against false-hit rate into this PNG file")
	fl.Int64Var(&f.cfg.Seed, "seed", 1, "seed of every random choice (aliases, typos, generated names)")
	fl.StringVar(&f.cfg.Mode, "mode", bench.ModeStrict, "strict (the /v1 checks), ranked (scored partial matches) or both")
	fl.Float64Var(&f.cfg.MinScore, "min-score", engine.DefaultMinScore, "ranked mode: the least score a record needs to be a hit, in (0, 1]")
	fl.IntVar(&f.cfg.MaxQueries, "max-queries", 0, "at most this many queries per class; 0 means every eligible record")
	return cmd
}

// runBenchQuality checks the flags, reads --data and measures.
func runBenchQuality(out io.Writer, f *benchQualityFlags) error {
	cfg, data, fuzzy, plotFile := &f.cfg, f.data, f.fuzzy, f.plotFile
	if data == "" {
		return usagef("--data: required: a consolidated file (.jsonl or .jsonl.gz)")
	}
	if f.fuzzySet {
		if fuzzy < 0 || fuzzy > 2 {
			return usagef("--fuzzy: %d is not 0, 1 or 2", fuzzy)
		}
		cfg.Fuzzy = []int{fuzzy}
	}
	switch cfg.Mode {
	case bench.ModeStrict, bench.ModeRanked, bench.ModeBoth:
	default:
		return usagef("--mode: %q is not strict, ranked or both", cfg.Mode)
	}
	if cfg.MinScore <= 0 || cfg.MinScore > 1 {
		return usagef("--min-score: %v is not in (0, 1]", cfg.MinScore)
	}
	if cfg.MaxQueries < 0 {
		return usagef("--max-queries: must not be negative")
	}
	if err := checkFormat(f.format); err != nil {
		return err
	}
	if plotFile != "" {
		// Found out now rather than after a run of minutes.
		if st, err := os.Stat(filepath.Dir(plotFile)); err != nil || !st.IsDir() {
			return usagef("--plot: %s is not a directory one can write into", filepath.Dir(plotFile))
		}
	}
	in, err := os.Open(data)
	if err != nil {
		return usagef("--data: %v", err)
	}
	recs, err := record.ReadAll(in)
	in.Close()
	if err != nil {
		return fmt.Errorf("--data %s: %w", data, err)
	}
	cfg.Records = recs
	start := time.Now()
	cfg.Progress = func(s string) {
		fmt.Fprintf(os.Stderr, "bench: %5.1fs %s\n", time.Since(start).Seconds(), s)
	}
	rep, err := bench.Quality(*cfg)
	if err != nil {
		return fmt.Errorf("bench quality %s: %w", data, err)
	}
	cfg.Progress("done")
	if plotFile != "" {
		if err := writePlot(plotFile, rep); err != nil {
			return err
		}
	}
	if f.format == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteTable(out)
}

// writePlot writes the PNG under a temporary name first, so a failed run
// never leaves a half-written image behind.
func writePlot(name string, rep *bench.QualityReport) (err error) {
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err = rep.WritePlot(f); err != nil {
		f.Close()
		return fmt.Errorf("--plot %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("--plot %s: %w", name, err)
	}
	if err = os.Rename(tmp, name); err != nil {
		return fmt.Errorf("--plot %s: %w", name, err)
	}
	return nil
}
