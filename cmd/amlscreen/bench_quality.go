package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/bench"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

func init() { benchCommands = append(benchCommands, newBenchQualityCmd) }

// benchQualityFlags are the flags of bench quality.
type benchQualityFlags struct {
	cfg       bench.QualityConfig
	data      string
	fuzzy     int
	fuzzySet  bool
	format    string
	asJSON    bool
	plotFile  string
	sweepPlot string
	cleanFile string
	records   int
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
--clean FILE adds a false_clean class: names known to be nobody listed, one
a line (blank lines and lines starting with # are skipped); the table says
how many clean customers per 1,000 are alerted, against how many records.
That rate grows with the database, so --records N measures against N
records: the records of --data padded with generated ones (never probed),
or N generated records (those of "amlscreen gen --records N --seed S")
without --data.

--mode strict (the default) measures the /v1 checks. --mode scored measures
the scored match mode instead (match=scored): name strings scored by the
evidence their words bring, rare words weighing more, and kept from
--min-score on, which finds aliases with a word more, a word different or
another transliteration that the /v1 rule rejects. --mode both measures the
two on the same queries; the plot then shows strict. --sweep adds a
threshold sweep of scored mode (recall and false hits at every min score
from 0.05 to 0.95), the table to pick a --min-score from.`,
		Example: `  amlscreen convert ofac --dir lists/ --out ofac.jsonl.gz
  amlscreen bench quality --data ofac.jsonl.gz --plot quality.png
  amlscreen bench quality --data ofac.jsonl.gz --fuzzy 1 --max-queries 500 --format json
  amlscreen bench quality --data ofac.jsonl.gz --mode both
  amlscreen bench quality --data ofac.jsonl.gz --mode scored --fuzzy 2 --sweep --clean cleared.txt
  amlscreen bench quality --records 1000000 --mode scored --fuzzy 2 --max-queries 1000 --sweep --clean cleared.txt`,
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
	fl.StringVar(&f.cfg.Mode, "mode", bench.ModeStrict, "strict (the /v1 checks), scored (match=scored) or both")
	fl.Float64Var(&f.cfg.MinScore, "min-score", query.DefaultMinScore, "scored mode: the least score a record needs to be a hit, in (0, 1]")
	fl.IntVar(&f.cfg.MaxQueries, "max-queries", 0, "at most this many queries per class; 0 means every eligible record")
	fl.BoolVar(&f.cfg.Sweep, "sweep", false, "scored mode: also report recall and false hits at every threshold from 0.05 to 0.95")
	fl.StringVar(&f.sweepPlot, "sweep-plot", "", "with --sweep: also draw scored mode's recall/false-hit curve over its thresholds into this PNG file")
	fl.StringVar(&f.cleanFile, "clean", "", "a file of clean names, one a line (names of nobody listed): each is a false_clean query")
	fl.IntVar(&f.records, "records", 0, "measure against this many records: --data padded with generated records, or generated records alone")
	return cmd
}

// runBenchQuality checks the flags, reads --data and measures.
func runBenchQuality(out io.Writer, f *benchQualityFlags) error {
	cfg, data, fuzzy, plotFile := &f.cfg, f.data, f.fuzzy, f.plotFile
	if data == "" && f.records == 0 {
		return usagef("--data: required (or --records): a consolidated file (.jsonl or .jsonl.gz)")
	}
	if f.records < 0 || f.records > maxBenchRecords {
		return usagef("--records: %d is not in 1..%d", f.records, maxBenchRecords)
	}
	if f.fuzzySet {
		if fuzzy < 0 || fuzzy > 2 {
			return usagef("--fuzzy: %d is not 0, 1 or 2", fuzzy)
		}
		cfg.Fuzzy = []int{fuzzy}
	}
	switch cfg.Mode {
	case bench.ModeStrict, bench.ModeScored, bench.ModeBoth:
	default:
		return usagef("--mode: %q is not strict, scored or both", cfg.Mode)
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
	for _, p := range []struct{ flag, file string }{{"--plot", plotFile}, {"--sweep-plot", f.sweepPlot}} {
		// Found out now rather than after a run of minutes.
		if p.file == "" {
			continue
		}
		if st, err := os.Stat(filepath.Dir(p.file)); err != nil || !st.IsDir() {
			return usagef("%s: %s is not a directory one can write into", p.flag, filepath.Dir(p.file))
		}
	}
	if f.sweepPlot != "" && (!cfg.Sweep || cfg.Mode == bench.ModeStrict) {
		return usagef("--sweep-plot: needs --sweep and --mode scored or both")
	}
	if data == "" {
		cfg.Records = bench.Generated(f.records, cfg.Seed)
		data = fmt.Sprintf("%d generated records", f.records)
	} else {
		recs, err := readBenchData(data)
		if err != nil {
			return err
		}
		cfg.Records = recs
		if f.records > 0 {
			if cfg.Background, err = bench.PadTo(recs, f.records, cfg.Seed); err != nil {
				return usagef("--records: %v", err)
			}
		}
	}
	if f.cleanFile != "" {
		names, err := readLines(f.cleanFile)
		if err != nil {
			return usagef("--clean: %v", err)
		}
		cfg.CleanNames = names
	}
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
	if f.sweepPlot != "" {
		if err := writePNG(f.sweepPlot, rep.WriteSweepPlot); err != nil {
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

// writePlot writes the quality report's PNG (see writePNG).
func writePlot(name string, rep *bench.QualityReport) error { return writePNG(name, rep.WritePlot) }

// writePNG writes the PNG that draw produces under a temporary name first,
// so a failed run never leaves a half-written image behind.
func writePNG(name string, draw func(io.Writer) error) (err error) {
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
	if err = draw(f); err != nil {
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

// maxBenchRecords bounds --records of the bench commands: the records are
// held in memory, indexed once per worker.
const maxBenchRecords = 10_000_000

// readBenchData reads the consolidated file of --data.
func readBenchData(data string) ([]*record.Record, error) {
	in, err := os.Open(data)
	if err != nil {
		return nil, usagef("--data: %v", err)
	}
	defer in.Close()
	recs, err := record.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("--data %s: %w", data, err)
	}
	return recs, nil
}

// readLines reads a file of one item a line, skipping blank lines and
// lines starting with #.
func readLines(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}
