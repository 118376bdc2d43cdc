package main

import (
	"fmt"

	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/convert/watchlist"
	"github.com/amlscreen/amlscreen/internal/csvsafe"
	"github.com/amlscreen/amlscreen/record"
)

type convertCSVFlags struct {
	in, out, mapping, inFormat, delimiter, encoding string
	sourceID, sourceType, kind, idPrefix, rejects   string
	allowRejects                                    bool
}

// maxRejectsShown is how many rejected rows are named on stderr; the
// rejects file has them all.
const maxRejectsShown = 10

func newConvertCSVCmd() *cobra.Command {
	var f convertCSVFlags
	c := &cobra.Command{
		Use:   "csv --in FILE --source-id ID --source-type TYPE --out FILE.jsonl.gz [--map ...]",
		Short: "Convert a bank's own watchlist (CSV or JSON Lines) into consolidated records",
		Long: `csv turns an internal watchlist, CSV with a header row or JSON Lines, into
consolidated records of one source, to screen against beside the public lists
(load it with import --merge, which replaces that source alone).

The file is read as batch reads a customer book: the same encodings and
delimiters, and the same --map of the fields id, name, type, dob, gender and
citizenship (name=FIRST+LAST joins columns). Every row needs an id that stays
the same from one run to the next; the record id is --id-prefix (default the
source id and ":") followed by it, letters, digits and - _ . : only. type is
individual, entity (company, ...), vessel, aircraft or unknown; empty takes
--type. dob and citizenship may hold several values separated by ";". An
entity's country becomes its jurisdiction, its date other information.

A row that cannot become a record (no id or name, an id used twice, a date,
gender, country or type that cannot be read) is named on stderr with its line
and field and written to the rejects file, and nothing is written: a list
loaded without some of its rows would hide those names from screening, and
import --merge would delete them from the store. --allow-rejects writes the
other rows all the same. Both exit with 3 when rows were rejected.

Source type OTHER is left out of checks unless asked for (check
--include-other, include_other on an API key); pick SANCTION, PEP, CRIMINAL or
OTHER for how the list should be screened.

For attributes the mapping has no field for (aliases, addresses), write
consolidated JSON Lines yourself and load them with import --merge.

Exit codes: 0 converted, 3 rows rejected, 1 failure, 2 bad flags.`,
		Example: `  amlscreen convert csv --in internal.csv --map id=CIF,name=FULL_NAME,type=KIND,dob=BIRTH_DATE \
      --source-id my_bank_internal --source-type OTHER --out internal.jsonl.gz
  amlscreen import --merge --store aml.db internal.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConvertCSV(cmd, &f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.in, "in", "", "the watchlist: CSV with a header row, or JSON Lines (plain or .gz); - reads standard input")
	fl.StringVarP(&f.out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	fl.StringVar(&f.mapping, "map", "", "columns of the fields: id=COL,name=COL[+COL],type=COL,dob=COL,gender=COL,citizenship=COL")
	fl.StringVar(&f.inFormat, "in-format", "", "input format: csv or jsonl (default: by the --in extension, else detected)")
	fl.StringVar(&f.delimiter, "delimiter", "", `CSV delimiter: , ; tab or | (default: detected from the header)`)
	fl.StringVar(&f.encoding, "encoding", "auto", "input encoding: auto, utf-8, latin1 (Windows-1252) or utf-16")
	fl.StringVar(&f.sourceID, "source-id", "", "source_id of the records, e.g. my_bank_internal (letters, digits, _ and -)")
	fl.StringVar(&f.sourceType, "source-type", "", "source_type of the records: SANCTION, PEP, CRIMINAL, NON_COMPLIANT_TAXPAYER or OTHER")
	fl.StringVar(&f.kind, "type", "unknown", "entity type of rows without a type: individual, entity or unknown")
	fl.StringVar(&f.idPrefix, "id-prefix", "", `prefix of the record ids (default: the source id and ":")`)
	fl.StringVar(&f.rejects, "rejects", "", "rejects file, CSV (default: OUT without extension + .rejects.csv; with --out - none)")
	fl.BoolVar(&f.allowRejects, "allow-rejects", false, "write the rows that make records even when others are rejected")
	return c
}

// watchlistOptions checks the flags of convert csv and turns them into
// the converter's options.
func watchlistOptions(cmd *cobra.Command, f *convertCSVFlags) (watchlist.WatchlistOptions, error) {
	if f.in == "" {
		return watchlist.WatchlistOptions{}, usagef("--in: required: the watchlist file")
	}
	if err := checkOut(f.out); err != nil {
		return watchlist.WatchlistOptions{}, err
	}
	if f.sourceID != "" && !validSourceID(f.sourceID) {
		return watchlist.WatchlistOptions{}, usagef("--source-id: %q: %s", f.sourceID, sourceIDProblem(f.sourceID))
	}
	if !validSourceID(f.sourceID) {
		return watchlist.WatchlistOptions{}, usagef("--source-id: required: the source of the records, letters, digits, _ and - (e.g. my_bank_internal)")
	}
	if f.sourceType == "" {
		return watchlist.WatchlistOptions{}, usagef("--source-type: required: SANCTION, PEP, CRIMINAL, NON_COMPLIANT_TAXPAYER or OTHER")
	}
	o := watchlist.WatchlistOptions{SourceID: f.sourceID}
	var err error
	if o.SourceType, err = parseSourceType(f.sourceType); err != nil {
		return o, err
	}
	switch strings.ToLower(f.kind) {
	case "individual":
		o.DefaultType = record.EntityIndividual
	case "entity":
		o.DefaultType = record.EntityEntity
	case "unknown", "any":
		o.DefaultType = record.EntityUnknown
	default:
		return o, usagef("--type: %q is not individual, entity or unknown", f.kind)
	}
	if cmd.Flags().Changed("id-prefix") {
		o.IDPrefix = &f.idPrefix
	}
	if o.Read.Format, err = batch.ParseInputFormat(f.inFormat); err != nil {
		return o, usagef("--in-format: %v", err)
	}
	if o.Read.Format == batch.AutoFormat {
		o.Read.Format = batch.FormatOf(f.in)
	}
	if o.Read.Delimiter, err = parseDelimiter(f.delimiter); err != nil {
		return o, usagef("--delimiter: %v", err)
	}
	if o.Read.Encoding, err = batch.ParseEncoding(f.encoding); err != nil {
		return o, usagef("--encoding: %v", err)
	}
	if o.Read.Map, err = batch.ParseMapping(f.mapping); err != nil {
		return o, usagef("--map: %v", err)
	}
	return o, nil
}

func runConvertCSV(cmd *cobra.Command, f *convertCSVFlags) error {
	o, err := watchlistOptions(cmd, f)
	if err != nil {
		return err
	}
	rejectsPath := f.rejects
	if rejectsPath == "" && f.out != "-" {
		rejectsPath = batch.DefaultRejectsPath(strings.TrimSuffix(f.out, ".gz"))
	}

	in, _, err := openInput(f.in)
	if err != nil {
		return usagef("--in: %v", err)
	}
	defer in.Close()
	var recs []*record.Record
	var rejects []batch.Reject
	err = watchlist.Watchlist(in, o, func(r *record.Record) error {
		recs = append(recs, r)
		return nil
	}, func(r batch.Reject) error {
		rejects = append(rejects, r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", f.in, err)
	}
	stderr := cmd.ErrOrStderr()
	if rejectsPath != "" {
		if err := writeRejects(rejectsPath, rejects); err != nil {
			return err
		}
	}
	for i, r := range rejects {
		if i == maxRejectsShown {
			fmt.Fprintf(stderr, "... and %d more rejected rows\n", len(rejects)-i)
			break
		}
		fmt.Fprintf(stderr, "line %d: %s %q: %s\n", r.Line, r.Field, r.Value, r.Reason)
	}
	where := "listed above"
	if rejectsPath != "" {
		where = "all in " + rejectsPath
	}
	if len(rejects) > 0 && !f.allowRejects {
		return exitCodeError{code: exitRejected, err: fmt.Errorf("%d row(s) rejected (%s); nothing written: fix them, or write the other rows with --allow-rejects", len(rejects), where)}
	}
	err = runConvert(stderr, cmd.OutOrStdout(), f.out, func(emit func(*record.Record) error) error {
		for _, r := range recs {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(rejects) > 0 {
		return exitCodeError{code: exitRejected, err: fmt.Errorf("%d row(s) rejected and left out (%s)", len(rejects), where)}
	}
	return nil
}

// writeRejects writes the rejects file: batch's columns, a header row
// even when there are none, so that a stale file from an earlier run never
// passes for this one.
func writeRejects(path string, rejects []batch.Reject) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("rejects file: %w", err)
	}
	w := csvsafe.NewWriter(f)
	w.Write(batch.RejectColumns)
	for _, r := range rejects {
		w.Write([]string{strconv.Itoa(r.Line), r.CustomerID, r.Field, r.Value, r.Reason})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("rejects file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("rejects file %s: %w", path, err)
	}
	return nil
}
