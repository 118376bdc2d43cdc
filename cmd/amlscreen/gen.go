package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/internal/gen"
)

func init() { register(newGenCmd) }

func newGenCmd() *cobra.Command {
	var (
		records int
		seed    int64
		out     string
		sources string
	)
	c := &cobra.Command{
		Use:   "gen --records N --seed S --out FILE [--sources FILE]",
		Short: "Generate a synthetic consolidated file for tests, demos and benchmarks",
		Long: `gen writes a synthetic consolidated AML file: camelCase JSON Lines like the
service's getConsolidatedFile, with sanction, PEP, criminal, tax-defaulter and
other records, individuals from many naming cultures and scripts, companies with
legal forms in many languages, vessels, aircraft, jurisdictions and objects.

The output depends only on --records and --seed, byte for byte, so a file can be
regenerated instead of stored. The first records are the fixed seed records
(SEED0001, ...) that the README queries. The embedded sample database is made
with this command (see sampledata/sampledata.go).

Flags in detail:
  --records N    number of records to write (default 5000); millions are fine,
                 memory stays flat.
  --seed S       random seed (default 1); the same seed gives the same file.
  --out FILE     where to write; a name ending in .gz is gzip-compressed;
                 - writes plain JSON Lines to standard output (default -).
  --sources FILE also write the source catalogue (getSourceList format: a JSON
                 array of sources, with each size counted from the records).`,
		Example: `  amlscreen gen --records 100 --out - | head -3
  amlscreen gen --records 1000000 --seed 7 --out 1m.jsonl.gz
  amlscreen gen --records 5000 --seed 1 --out default.jsonl.gz --sources sources.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if records < 0 {
				return usagef("--records: %d is negative", records)
			}
			if out == "" {
				return usagef("--out: empty; give a file name, or - for standard output")
			}
			if sources == "-" && out == "-" {
				return usagef("--sources: - would mix the catalogue into the records on standard output")
			}
			counts, err := writeRecords(cmd.OutOrStdout(), out, records, seed)
			if err != nil {
				return err
			}
			if sources != "" {
				if err := writeSources(cmd.OutOrStdout(), sources, counts); err != nil {
					return err
				}
			}
			if out != "-" {
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d records (seed %d) to %s\n", records, seed, out)
			}
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&records, "records", 5000, "number of records to write")
	f.Int64Var(&seed, "seed", 1, "random seed; the same seed gives the same file")
	f.StringVarP(&out, "out", "o", "-", "output file (.gz for gzip), or - for standard output")
	f.StringVar(&sources, "sources", "", "also write the source catalogue as a JSON array to this file")
	return c
}

// writeRecords generates n records into the file name (stdout for "-"),
// gzip-compressed when the name ends in .gz.
func writeRecords(stdout io.Writer, name string, n int, seed int64) (map[string]int64, error) {
	var counts map[string]int64
	err := writeFile(stdout, name, func(w io.Writer) error {
		if strings.HasSuffix(name, ".gz") {
			// No name or time in the header: the same flags give the same
			// bytes, so a regenerated file shows no diff. Compression, not
			// generation, bounds the speed of big files: those get the
			// fastest level.
			level := gzip.DefaultCompression
			if n > 100000 {
				level = gzip.BestSpeed
			}
			zw, err := gzip.NewWriterLevel(w, level)
			if err != nil {
				return err
			}
			if counts, err = gen.WriteCounts(zw, n, seed); err != nil {
				return err
			}
			return zw.Close()
		}
		var err error
		counts, err = gen.WriteCounts(w, n, seed)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("generate %d records into %s: %w", n, name, err)
	}
	return counts, nil
}

// writeSources writes the catalogue with the record counts as sizes.
func writeSources(stdout io.Writer, name string, counts map[string]int64) error {
	cat := gen.Sources()
	for i := range cat {
		cat[i].Size = counts[cat[i].Source]
	}
	data, err := json.MarshalIndent(cat, "", "  ")
	if err != nil {
		return fmt.Errorf("encode source catalogue: %w", err)
	}
	data = append(data, '\n')
	if err := writeFile(stdout, name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("write source catalogue %s: %w", name, err)
	}
	return nil
}

// writeFile runs fill on the output name (see createOutput): a temporary
// file renamed into place when fill succeeds, so that an interrupted run
// never leaves a truncated file where a good one was; "-", devices and
// pipes are written directly.
func writeFile(stdout io.Writer, name string, fill func(io.Writer) error) error {
	f, err := createOutput(name, stdout, binaryIf(strings.HasSuffix(name, ".gz"), "gzip"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit()
}
