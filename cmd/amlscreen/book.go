package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newBookCmd) }

func newBookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "book",
		Short: "Keep the customer book in the store: import, export, remove, status",
		Long: `The customer book is the register of customers kept in the store, screened
against every change set in the book's match mode and fuzziness. It is read
in batch's formats (CSV with a header row or JSON Lines, the same column
detection and --map) and each row is checked with batch's rules.`,
	}
	cmd.AddCommand(newBookImportCmd(), newBookExportCmd(), newBookRemoveCmd(), newBookStatusCmd())
	return cmd
}

type bookImportFlags struct {
	store, inFormat, delimiter, encoding, mapping, match string
	fuzzy                                                int
	screen                                               bool
}

func newBookImportCmd() *cobra.Command {
	var f bookImportFlags
	cmd := &cobra.Command{
		Use:   "import --store PATH FILE [--match strict|scored] [--fuzzy N]",
		Short: "Load or update the customer book from a file",
		Long: `Make FILE the customer book: customers in FILE and not in the book are added,
those whose values differ are changed, customers of the book absent from FILE
are removed, all in one transaction; the counts are printed.

Every row is checked as batch checks it (a name, a valid date, a known country,
gender and type; an id given once). A book with any rejected row imports
nothing: the rejects are listed by line and field on stderr and the exit code
is 3. --match and --fuzzy set how the book is screened; without them a
re-import keeps the book's setting (strict, 0 for a new book).

The customers FILE adds or changes are screened against the whole database
first, as batch screens a book, and their hits become alerts (origin batch,
the customer id as subject; amlscreen alerts list): a customer is screened
when she enters the book. --screen=false leaves that to a batch run.

Exit codes: 0 imported, 1 failure, 2 bad flags, 3 rows rejected (nothing
imported).`,
		Example: `  amlscreen book import --store aml.db customers.csv
  amlscreen book import --store aml.db customers.csv --match scored --fuzzy 1
  amlscreen book import --store aml.db core-export.csv --map id=CIF,name=FIRST+LAST
  amlscreen book import --store aml.db customers.csv --screen=false`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			return runBookImport(cmd.OutOrStdout(), cmd.ErrOrStderr(), &f, args[0], fl.Changed("match"), fl.Changed("fuzzy"))
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.inFormat, "in-format", "", "book format: csv or jsonl (default: by the FILE extension, else detected)")
	fl.StringVar(&f.delimiter, "delimiter", "", `CSV delimiter: , ; tab or | (default: detected from the header)`)
	fl.StringVar(&f.encoding, "encoding", "auto", "book encoding: auto, utf-8, latin1 (Windows-1252) or utf-16")
	fl.StringVar(&f.mapping, "map", "", "columns of the fields: id=COL,name=COL[+COL],type=COL,dob=COL,gender=COL,citizenship=COL")
	fl.StringVar(&f.match, "match", "strict", matchUsage)
	fl.IntVar(&f.fuzzy, "fuzzy", 0, fuzzyUsage)
	fl.BoolVar(&f.screen, "screen", true, "screen the customers the file adds or changes against the database and raise their hits as alerts")
	return cmd
}

// maxBookRejectsShown bounds the rejects listed on stderr.
const maxBookRejectsShown = 50

func runBookImport(stdout, stderr io.Writer, f *bookImportFlags, file string, matchSet, fuzzySet bool) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	ro := batch.ReadOptions{KeepExtra: true}
	var err error
	if ro.Format, err = batch.ParseInputFormat(f.inFormat); err != nil {
		return usagef("--in-format: %v", err)
	}
	if ro.Format == batch.AutoFormat {
		ro.Format = batch.FormatOf(file)
	}
	if ro.Delimiter, err = parseDelimiter(f.delimiter); err != nil {
		return usagef("--delimiter: %v", err)
	}
	if ro.Encoding, err = batch.ParseEncoding(f.encoding); err != nil {
		return usagef("--encoding: %v", err)
	}
	if ro.Map, err = batch.ParseMapping(f.mapping); err != nil {
		return usagef("--map: %v", err)
	}
	flagCfg := book.Config{Match: f.match, Fuzzy: f.fuzzy}
	if err := flagCfg.Validate(); err != nil {
		return usagef("--%v", err)
	}
	in, err := os.Open(file)
	if err != nil {
		return err
	}
	defer in.Close()
	db, err := store.Open(f.store, store.Options{})
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	st, err := book.GetStatus(db)
	if err != nil {
		return err
	}
	cfg := book.Config{Match: st.Match, Fuzzy: st.Fuzzy}
	if matchSet {
		cfg.Match = f.match
	}
	if fuzzySet {
		cfg.Fuzzy = f.fuzzy
	}
	rd, err := batch.NewReader(in, ro)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	customers, rejects, err := book.Read(rd, cfg)
	if errors.Is(err, book.ErrRejected) {
		for i, r := range rejects {
			if i == maxBookRejectsShown {
				fmt.Fprintf(stderr, "... and %d more\n", len(rejects)-i)
				break
			}
			fmt.Fprintf(stderr, "%s: line %d: %s %q: %s\n", file, r.Line, r.Field, r.Value, r.Reason)
		}
		return exitCodeError{exitRejected, fmt.Errorf("%s: %d rows rejected; nothing imported", file, len(rejects))}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if f.screen {
		if err := onboardCustomers(stdout, db, customers, cfg, file); err != nil {
			return err
		}
	}
	res, err := book.Import(db, customers, cfg, file, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "book: %d customers (%d added, %d changed, %d removed, %d unchanged); match %s, fuzzy %d\n",
		res.Customers, res.Added, res.Changed, res.Removed, res.Unchanged, cfg.Match, cfg.Fuzzy)
	return nil
}

type bookExportFlags struct{ store, format string }

func newBookExportCmd() *cobra.Command {
	var f bookExportFlags
	cmd := &cobra.Command{
		Use:   "export --store PATH [--format csv|jsonl]",
		Short: "Write the customer book to standard output",
		Long: `Write the customer book, by customer id, as CSV (id, name, type, dob, gender,
citizenship, then the other columns the book kept, by name) or JSON Lines;
book import reads either back.

Exit codes: 0 written, 1 failure, 2 bad flags.`,
		Example: `  amlscreen book export --store aml.db > customers.csv
  amlscreen book export --store aml.db --format jsonl | head`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBookExport(cmd.OutOrStdout(), &f) },
	}
	addStoreFlag(cmd.Flags(), &f.store)
	cmd.Flags().StringVar(&f.format, "format", "csv", "csv or jsonl")
	return cmd
}

func runBookExport(stdout io.Writer, f *bookExportFlags) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	if f.format != "csv" && f.format != "jsonl" {
		return usagef("--format: %q is not csv or jsonl", f.format)
	}
	db, err := store.Open(f.store, store.Options{ReadOnly: true})
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	if f.format == "jsonl" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		// One flat object a line, the other columns beside the fields,
		// so that book import reads it back as it was.
		return book.ForEach(db, func(c *book.Customer) error {
			obj := map[string]string{}
			for k, v := range c.Extra {
				obj[k] = v
			}
			for k, v := range map[string]string{"id": c.ID, "name": c.Name, "type": c.Type, "dob": c.DOB, "gender": c.Gender, "citizenship": c.Citizenship} {
				if v != "" || k == "id" || k == "name" {
					obj[k] = v
				}
			}
			return enc.Encode(obj)
		})
	}
	// The other columns the book kept follow the fields, by name: a first
	// pass finds them.
	extra := map[string]bool{}
	if err := book.ForEach(db, func(c *book.Customer) error {
		for k := range c.Extra {
			extra[k] = true
		}
		return nil
	}); err != nil {
		return err
	}
	cols := slices.Sorted(maps.Keys(extra))
	cw := csv.NewWriter(stdout)
	cw.Write(append([]string{"id", "name", "type", "dob", "gender", "citizenship"}, cols...))
	err = book.ForEach(db, func(c *book.Customer) error {
		row := []string{c.ID, c.Name, c.Type, c.DOB, c.Gender, c.Citizenship}
		for _, k := range cols {
			row = append(row, c.Extra[k])
		}
		return cw.Write(row)
	})
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	return err
}

func newBookRemoveCmd() *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "remove --store PATH ID...",
		Short: "Remove customers from the book",
		Long: `Remove the customers with these ids from the book, in one transaction. Ids the
book does not hold are named on stderr and the others removed.

Exit codes: 0 removed, 1 failure (or an id not in the book), 2 bad flags.`,
		Example: `  amlscreen book remove --store aml.db C-1001 C-1002`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if path == "" {
				return usagef("--store: required")
			}
			db, err := store.Open(path, store.Options{})
			if err != nil {
				return lockHint(err)
			}
			defer db.Close()
			missing, err := book.Remove(db, args)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "book: %d customers removed\n", len(args)-len(missing))
			if len(missing) > 0 {
				return fmt.Errorf("not in the book: %v", missing)
			}
			return nil
		},
	}
	addStoreFlag(cmd.Flags(), &path)
	return cmd
}

func newBookStatusCmd() *cobra.Command {
	var path, format string
	cmd := &cobra.Command{
		Use:   "status --store PATH [--format table|json]",
		Short: "Show the book's size, match mode, fuzziness and last import",
		Long: `Show how many customers the book holds, how it is screened (match mode,
fuzzy) and its last import: when, from which file, and what it changed.

Exit codes: 0 shown, 1 failure, 2 bad flags.`,
		Example: `  amlscreen book status --store aml.db
  amlscreen book status --store aml.db --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if path == "" {
				return usagef("--store: required")
			}
			if err := checkFormat(format); err != nil {
				return err
			}
			db, err := store.Open(path, store.Options{ReadOnly: true})
			if err != nil {
				return lockHint(err)
			}
			defer db.Close()
			st, err := book.GetStatus(db)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if format == "json" {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			fmt.Fprintf(w, "customers:    %d\nmatch:        %s\nfuzzy:        %d\n", st.Customers, st.Match, st.Fuzzy)
			if li := st.LastImport; li != nil {
				fmt.Fprintf(w, "last import:  %s from %s (%d added, %d changed, %d removed, %d unchanged)\n",
					li.At.Format(time.RFC3339), li.File, li.Added, li.Changed, li.Removed, li.Unchanged)
			} else {
				fmt.Fprintln(w, "last import:  never")
			}
			if ls := st.LastScreen; ls != nil {
				fmt.Fprintf(w, "last screen:  version %s, %d matches, %d customers skipped\n", ls.Version, ls.Matches, ls.Skipped)
				if len(ls.SkippedIDs) > 0 {
					fmt.Fprintf(w, "skipped:      %s\n", strings.Join(ls.SkippedIDs, " "))
				}
			}
			return nil
		},
	}
	addStoreFlag(cmd.Flags(), &path)
	addFormatFlag(cmd.Flags(), &format)
	return cmd
}

// onboardCustomers screens the customers a book import adds or changes
// against the whole database and raises their hits as alerts, before the
// import commits: a kill between the two leaves alerts the next import
// raises again without duplicating, never customers imported unscreened.
func onboardCustomers(stdout io.Writer, db *store.Store, customers []book.Customer, cfg book.Config, file string) error {
	d, err := screen.Load(db)
	if err != nil {
		return fmt.Errorf("screening index: %w", err)
	}
	defer d.Close()
	if d.Version() == "" {
		fmt.Fprintln(stdout, "screening: the store holds no records yet; the book is screened by the change sets that add them")
		return nil
	}
	on, err := book.Onboard(db, customers, cfg, d.Index(), d.Version())
	if err != nil {
		return fmt.Errorf("screen the book: %w", err)
	}
	res, err := casework.New(db, casework.Options{}).Raise(cliOperator().String()+" (book import "+filepath.Base(file)+")", on.Alerts)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	fmt.Fprintf(stdout, "screening: %d new or changed customers against %s: %d alerts raised, %d reopened, %d already in the queue",
		on.Screened, d.Version(), res.Raised, res.Reopened, res.Unchanged)
	if on.Skipped > 0 {
		fmt.Fprintf(stdout, ", %d customers not screened", on.Skipped)
	}
	fmt.Fprintln(stdout)
	return nil
}
