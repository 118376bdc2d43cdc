package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/convert"
	"github.com/amlscreen/amlscreen/record"
)

func init() { register(newConvertCmd) }

func newConvertCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "convert",
		Short: "Convert public sanctions lists into a consolidated file",
		Long: `convert turns a real public sanctions list into consolidated AML records
(camelCase JSON Lines, gzip-compressed when the output name ends in .gz), the
format import and bench read. Remarks are parsed into dates and places of birth,
nationality, gender, links and identifiers; see package convert for the rules.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newConvertOFACCmd(), newConvertUNCmd())
	return c
}

func newConvertOFACCmd() *cobra.Command {
	var dir, out, list string
	c := &cobra.Command{
		Use:   "ofac --dir DIR --out FILE.jsonl.gz",
		Short: "Convert the OFAC SDN (or non-SDN) list in legacy CSV format",
		Example: `  amlscreen convert ofac --dir ../shared/lists --out ofac_sdn.jsonl.gz
  amlscreen convert ofac --dir ../shared/lists --list nonsdn --out ofac_cons.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usagef("--dir: required: the directory holding sdn.csv, alt.csv and add.csv")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			var l convert.OFACList
			switch list {
			case "sdn":
				l = convert.SDNList(dir)
			case "nonsdn":
				l = convert.NonSDNList(dir)
			default:
				return usagef("--list: %q is not sdn or nonsdn", list)
			}
			return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
				return convert.ConvertOFAC(l, emit)
			})
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "directory with the OFAC CSV files (sdn.csv, alt.csv, add.csv, sdn_comments.csv)")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&list, "list", "sdn", "which list: sdn (sdn.csv, …) or nonsdn (cons_prim.csv, …)")
	return c
}

func newConvertUNCmd() *cobra.Command {
	var file, out string
	c := &cobra.Command{
		Use:     "un --file FILE --out FILE.jsonl.gz",
		Short:   "Convert the UN Security Council consolidated list (XML)",
		Example: `  amlscreen convert un --file ../shared/lists/UN_consolidated.xml --out un_sc.jsonl.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the UN consolidated list XML")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			f, err := os.Open(file)
			if err != nil {
				return err
			}
			defer f.Close()
			return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
				return convert.UN(f, emit)
			})
		},
	}
	c.Flags().StringVar(&file, "file", "", "the UN consolidated list XML (UN_consolidated.xml)")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	return c
}

func checkOut(out string) error {
	if out == "" {
		return usagef("--out: required: the file to write, e.g. list.jsonl.gz, or - for stdout")
	}
	return nil
}

// runConvert writes what conv emits to out and reports on stderr how many
// records of each entity type were written, which is the first thing to
// check after converting a new edition of a list.
func runConvert(stderr, stdout io.Writer, out string, conv convert.Converter) error {
	counts := map[string]int{}
	counted := func(emit func(*record.Record) error) error {
		return conv(func(r *record.Record) error {
			counts[r.EntityType]++
			return emit(r)
		})
	}
	gz := out != "-" && strings.HasSuffix(out, ".gz")
	w, err := createOutput(out, stdout, binaryIf(gz, "gzip"))
	if err != nil {
		return err
	}
	defer w.Close()
	n, err := convert.WriteJSONL(w, gz, counted)
	if err == nil {
		err = w.Commit()
	}
	if err != nil {
		return err
	}
	types := make([]string, 0, len(counts))
	for t := range counts {
		types = append(types, t)
	}
	slices.Sort(types)
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", t, counts[t])
	}
	dest := out
	if out == "-" {
		dest = "stdout"
	}
	fmt.Fprintf(stderr, "converted %d records to %s (%s)\n", n, dest, strings.Join(parts, ", "))
	return nil
}
