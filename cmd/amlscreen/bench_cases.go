package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/bench"
	"github.com/amlscreen/amlscreen/query"
)

func init() { benchCommands = append(benchCommands, newBenchCasesCmd) }

// newBenchCasesCmd defines bench cases; the measuring is bench.Cases's.
func newBenchCasesCmd() *cobra.Command {
	var (
		data, casesFile, match, plotFile string
		fuzzy, records                   int
		minScore                         float64
		asJSON                           bool
		format                           string
	)
	cmd := &cobra.Command{
		Use:   "cases --data FILE --cases CASES.csv [flags]",
		Short: "Measure match quality on your own labelled cases: recall, false hits, precision, F1",
		Long:  benchCasesLong,
		Example: `  amlscreen bench cases --data bench/testdata/cases_records.jsonl --cases bench/testdata/cases.csv
  amlscreen bench cases --data list.jsonl.gz --cases cleared.csv --match scored --fuzzy 2 --plot curve.png
  amlscreen bench cases --data list.jsonl.gz --cases cleared.csv --format json
  amlscreen bench cases --data list.jsonl.gz --cases cleared.csv --match scored --fuzzy 2 --records 1000000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data == "" {
				return usagef("--data: required: a consolidated file (.jsonl or .jsonl.gz)")
			}
			if casesFile == "" {
				return usagef("--cases: required: a CSV file of labelled cases")
			}
			jsonAlias(asJSON, &format, cmd.ErrOrStderr())
			if err := checkFormat(format); err != nil {
				return err
			}
			var cfg bench.CasesConfig
			var err error
			if cfg.Modes, err = casesModes(match); err != nil {
				return err
			}
			if cmd.Flags().Changed("fuzzy") {
				if fuzzy < 0 || fuzzy > 2 {
					return usagef("--fuzzy: %d is not 0, 1 or 2", fuzzy)
				}
				cfg.Fuzzy = []int{fuzzy}
			}
			if minScore <= 0 || minScore > 1 {
				return usagef("--min-score: %v is not in (0, 1]", minScore)
			}
			cfg.MinScore = minScore
			if records < 0 || records > maxBenchRecords {
				return usagef("--records: %d is not in 1..%d", records, maxBenchRecords)
			}
			if plotFile != "" {
				if st, err := os.Stat(filepath.Dir(plotFile)); err != nil || !st.IsDir() {
					return usagef("--plot: %s is not a directory one can write into", filepath.Dir(plotFile))
				}
			}
			cases, err := readCasesFile(casesFile)
			if err != nil {
				return err
			}
			cfg.Cases = cases
			recs, err := readBenchData(data)
			if err != nil {
				return err
			}
			cfg.Records = recs
			if records > 0 {
				if cfg.Background, err = bench.PadTo(recs, records, 1); err != nil {
					return usagef("--records: %v", err)
				}
			}
			rep, err := bench.Cases(cfg)
			var ce *bench.CaseError
			if errors.As(err, &ce) {
				return usagef("--cases %s: %v", casesFile, err)
			}
			if err != nil {
				return fmt.Errorf("bench cases: %w", err)
			}
			if plotFile != "" {
				if err := writePNG(plotFile, rep.WritePlot); err != nil {
					return err
				}
			}
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			return rep.WriteTable(cmd.OutOrStdout())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&data, "data", "", "consolidated file to search (.jsonl or .jsonl.gz)")
	fl.StringVar(&casesFile, "cases", "", "CSV file of labelled cases (columns name, expect; optional type, dob, gender, citizenship, id, note)")
	fl.StringVar(&match, "match", "both", "strict, scored or both")
	fl.IntVar(&fuzzy, "fuzzy", 0, "measure only this fuzzy level (0, 1 or 2); default all three")
	fl.Float64Var(&minScore, "min-score", query.DefaultMinScore, "scored mode: the least score a record needs to be a hit, in (0, 1]")
	fl.StringVar(&plotFile, "plot", "", "also draw recall against the false-hit share into this PNG file")
	fl.IntVar(&records, "records", 0, "search a database of this many records: --data padded with generated records")
	addFormatFlag(fl, &format)
	addJSONAlias(fl, &asJSON)
	return cmd
}

// benchCasesLong is bench cases' --help text.
const benchCasesLong = `Runs every case of --cases against the records of --data, in strict and
scored mode (or --match) at fuzzy 0, 1 and 2 (or --fuzzy), and prints per
mode and level: recall (cases whose record is among the hits), the
false-hit share (cases that must find nothing, with a hit), precision (of
the cases with a hit, those whose hits hold the record wanted) and F1.
Scored mode adds a sweep over its threshold from 0.05 to 0.95, to pick
--min-score from; the cases the two modes answer differently are listed
last.

The cases file is CSV with a header row: name and expect are required;
type (individual, entity or any; default any), dob (dd/mm/yyyy, 00 for
unknown parts), gender, citizenship, id and note are optional. expect is
the id of the record the check must find, or "none" when it must find
nothing at all. Every row is checked before anything runs; a bad value
is reported with its line and field.

Each table gives the cases that must find nothing as alerts per 1,000
customers. That rate grows with the database, so --records N measures
against N records: the records of --data padded with generated ones
(those of "amlscreen gen", never expected by a case).`

// readCasesFile reads the labelled cases of path; a bad row is a usage
// error naming its line and field.
func readCasesFile(path string) ([]bench.Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--cases: %v", err)
	}
	cases, err := bench.ReadCases(f)
	f.Close()
	var ce *bench.CaseError
	if errors.As(err, &ce) {
		return nil, usagef("--cases %s: %v", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("--cases %s: %w", path, err)
	}
	return cases, nil
}

// casesModes returns the modes --match names; nil is both.
func casesModes(match string) ([]query.MatchMode, error) {
	switch strings.ToLower(match) {
	case "", "both":
		return nil, nil
	case "strict":
		return []query.MatchMode{query.Strict}, nil
	case "scored":
		return []query.MatchMode{query.Scored}, nil
	}
	return nil, usagef("--match: %q is not strict, scored or both", match)
}
