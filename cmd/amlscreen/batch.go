package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newBatchCmd) }

type batchFlags struct {
	queryFlags
	data      []string
	store     string
	in, out   string
	format    string
	inFormat  string
	delimiter string
	encoding  string
	workers   int
	mapping   string
	rejects   string
	report    string
	resume    bool
	since     string
	shard     string
	every     int
	keys, key string // apply this key's decisions (decisions.go)
	alerts    bool   // raise the hits as alerts in the store (batchalerts.go)
}

// newBatchCmd defines batch; the run is runBatch's.
func newBatchCmd() *cobra.Command {
	var f batchFlags
	cmd := &cobra.Command{
		Use:   "batch --in BOOK --out HITS [flags]",
		Short: "Screen a customer book (CSV or JSON Lines) against the database",
		Long:  batchLong,
		Example: `  amlscreen batch --in customers.csv --out hits.csv
  amlscreen batch --store aml.db --in book.csv --out hits.csv --fuzzy 1 --map id=CIF,name=FULL_NAME
  amlscreen batch --store aml.db --in book.csv --out hits.csv --resume
  amlscreen batch --store aml.db --since 2026-11-01T00:00:00Z~1 --in book.csv --out new-hits.csv
  amlscreen batch --store aml.db --since last --in book.csv --out new-hits.csv
  amlscreen batch --data db.jsonl.gz --in book.jsonl --out hits.jsonl --shard 0/4
  amlscreen batch --store aml.db --keys keys.json --key acme --in book.csv --out hits.csv
  amlscreen batch --store aml.db --in book.csv --out hits.csv --fuzzy 2 --match scored --min-score 0.85
  amlscreen batch --store aml.db --in book.csv --out hits.csv --alerts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBatch(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.data, "data", nil, dataUsage)
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.in, "in", "", "customer book: CSV with a header row, or JSON Lines; - reads standard input")
	fl.StringVarP(&f.out, "out", "o", "", "hits file to write")
	fl.StringVar(&f.format, "format", "", "hits file format: csv or jsonl (default: by the --out extension, else csv)")
	fl.StringVar(&f.inFormat, "in-format", "", "book format: csv or jsonl (default: by the --in extension, else detected)")
	fl.StringVar(&f.delimiter, "delimiter", "", `CSV delimiter: , ; tab or | (default: detected from the header)`)
	fl.StringVar(&f.encoding, "encoding", "auto", "book encoding: auto, utf-8, latin1 (Windows-1252) or utf-16")
	fl.IntVar(&f.workers, "workers", 0, "rows screened in parallel (default: one per CPU)")
	fl.StringVar(&f.mapping, "map", "", "columns of the fields: id=COL,name=COL[+COL],type=COL,dob=COL,gender=COL,citizenship=COL")
	fl.StringVar(&f.rejects, "rejects", "", "rejects file (default: HITS without extension + .rejects.csv)")
	fl.StringVar(&f.report, "report", "", "Markdown report (default: HITS without extension + .report.md; - for none)")
	fl.BoolVar(&f.resume, "resume", false, "continue an interrupted run from its checkpoint (HITS.checkpoint)")
	fl.StringVar(&f.since, "since", "", "screen only against records added or updated since this store version, day (YYYY-MM-DD) or last (needs --store)")
	fl.StringVar(&f.shard, "shard", "", "screen only rows i, i+n, i+2n, ... of the book: i/n")
	f.add(fl, querySpec{
		kindUsage: "check for rows without a type: individual, entity or any", kindDefault: "any",
		with: withFuzzy | withIncludes | withIncludeOther | withLimit | withMatch,
	})
	fl.IntVar(&f.every, "checkpoint-every", batch.DefaultCheckpointEvery, "rows between checkpoints")
	fl.StringVar(&f.keys, "keys", "", keysUsage)
	fl.StringVar(&f.key, "key", "", "apply the decisions of this key of --keys (needs --store): suppressed hits go to HITS.suppressed.csv")
	fl.BoolVar(&f.alerts, "alerts", false, "also put the hits into the store's alert queue (needs --store; see amlscreen alerts)")
	return cmd
}

// batchConfig checks the flags and turns them into a batch.Config, without
// the database.
func batchConfig(f *batchFlags) (batch.Config, error) {
	var cfg batch.Config
	var err error
	if f.in == "" {
		return cfg, usagef("--in: the customer book is required")
	}
	if f.out == "" || f.out == "-" {
		return cfg, usagef("--out: a hits file is required (resuming needs a file, not standard output)")
	}
	if f.in != "-" {
		if _, err := os.Stat(f.in); err != nil {
			return cfg, fmt.Errorf("--in: %w", err) // unreadable input: exit 1
		}
	}
	if f.fuzzy < 0 || f.fuzzy > 2 {
		return cfg, usagef("--fuzzy: %d is not 0, 1 or 2", f.fuzzy)
	}
	if f.workers < 0 {
		return cfg, usagef("--workers: must not be negative")
	}
	if f.limit < 1 {
		return cfg, usagef("--limit: must be at least 1")
	}
	if f.every < 1 {
		return cfg, usagef("--checkpoint-every: must be at least 1")
	}
	if f.since != "" && f.store == "" {
		return cfg, usagef("--since: needs --store, whose change log says what changed")
	}
	if f.alerts && f.store == "" {
		return cfg, usagef("--alerts: needs --store, which keeps the alert queue")
	}
	if f.since != "" {
		if _, err := parseSince(f.since); err != nil {
			return cfg, err
		}
	}
	if f.key != "" && (f.store == "" || f.keys == "") {
		return cfg, usagef("--key: needs --store, which holds the decisions, and --keys, which names the key")
	}
	if cfg.Format, err = batch.ParseOutputFormat(f.format, f.out); err != nil {
		return cfg, usagef("--format: %v", err)
	}
	if cfg.Read.Format, err = batch.ParseInputFormat(f.inFormat); err != nil {
		return cfg, usagef("--in-format: %v", err)
	}
	if cfg.Read.Format == batch.AutoFormat {
		cfg.Read.Format = batch.FormatOf(f.in)
	}
	if cfg.Read.Delimiter, err = parseDelimiter(f.delimiter); err != nil {
		return cfg, usagef("--delimiter: %v", err)
	}
	if cfg.Read.Encoding, err = batch.ParseEncoding(f.encoding); err != nil {
		return cfg, usagef("--encoding: %v", err)
	}
	if cfg.Read.Map, err = batch.ParseMapping(f.mapping); err != nil {
		return cfg, usagef("--map: %v", err)
	}
	if f.shard != "" {
		if cfg.Shard, err = batch.ParseShard(f.shard); err != nil {
			return cfg, usagef("--shard: %v", err)
		}
	}
	if cfg.DefaultKind, err = query.ParseKind(f.kind); err != nil {
		return cfg, paramToUsage(err)
	}
	if cfg.Match, cfg.MinScore, err = f.matchMode(); err != nil {
		return cfg, err
	}
	cfg.Input, cfg.Out, cfg.Rejects, cfg.Report = f.in, f.out, f.rejects, f.report
	cfg.Fuzzy, cfg.Limit, cfg.Workers, cfg.Resume, cfg.CheckpointEvery = f.fuzzy, f.limit, f.workers, f.resume, f.every
	return cfg, nil
}

func parseDelimiter(s string) (rune, error) {
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case "tab", `\t`, "\t":
		return '\t', nil
	case ",", ";", "|":
		return rune(s[0]), nil
	case "comma":
		return ',', nil
	case "semicolon":
		return ';', nil
	case "pipe":
		return '|', nil
	}
	return 0, fmt.Errorf("%q is not , ; tab or |", s)
}

func runBatch(ctx context.Context, stdout, stderr io.Writer, f *batchFlags) error {
	cfg, err := batchConfig(f)
	if err != nil {
		return err
	}
	// A book without a name column fails now, not after the minute a
	// large store takes to load.
	if f.in != "-" {
		if err := probeBook(f.in, cfg.Read); err != nil {
			return err
		}
	}
	db, err := openBatchDatabase(f, &cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.Sources, err = db.Catalog().Resolve(cliCaller(f.includeOther), f.includes); err != nil {
		return paramToUsage(err)
	}
	cfg.Index = db.Index()
	cfg.Database = db.Origin()
	if v := db.Version(); v != "" {
		cfg.Database += " version " + v
	}
	cfg.Settings = map[string]string{"since": f.since}
	var alerts *batchAlerts
	if f.alerts {
		owner := ""
		if f.key != "" {
			k, err := keyNamed(f.keys, f.key)
			if err != nil {
				return err
			}
			owner = k.ID()
		}
		if alerts, err = startBatchAlerts(db.Store(), f.store, db, f, owner); err != nil {
			return err
		}
		cfg.Sink = alerts.sink
		defer alerts.close()
	}
	if f.key != "" {
		var held *store.Store
		if alerts != nil {
			held = alerts.st
		}
		if cfg.Decide, cfg.Settings["decisions"], err = batchDecisions(held, f.store, f.keys, f.key, db.Index()); err != nil {
			return err
		}
	}

	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var bar *progressBar
	if stderrTerminal(stderr) {
		cfg.Progress = func(pr batch.Progress) {
			if bar == nil {
				total := pr.BytesTotal
				if total <= 0 {
					total = -1
				}
				bar = newProgress(stderr, "batch", total, progressUnitBytes)
			}
			bar.Describe(fmt.Sprintf("batch: %d rows, %d with hits, %d rejected", pr.NextRow, pr.RowsWithHits, pr.RowsRejected))
			bar.Set64(pr.BytesRead)
		}
	}
	sum, err := batch.Run(ctx, cfg)
	bar.Finish()
	if sum != nil && (err == nil || sum.Interrupted) {
		if werr := sum.WriteText(stdout); werr != nil && err == nil {
			err = werr
		}
	}
	if alerts != nil {
		if aerr := alerts.finish(stdout); aerr != nil && err == nil {
			err = aerr
		}
	}
	return batchExit(sum, err)
}

// openBatchDatabase opens the database the flags name: with --since the
// store's records changed since (scored mode: the whole store, and
// cfg.Only the changed ones), else the store or --data files.
func openBatchDatabase(f *batchFlags, cfg *batch.Config) (db *screen.Database, err error) {
	switch {
	case f.since != "" && cfg.Match == query.Scored:
		// Scored mode weighs words by how common they are: among the
		// whole store's records, not the few changed since.
		db, cfg.Only, err = openSinceWhole(f.store, f.since)
	case f.since != "":
		db, err = openSince(f.store, f.since)
	case f.alerts && len(f.data) == 0: // with --data, openSource refuses the pair
		db, err = openStoreForAlerts(f.store)
	default:
		db, err = openSource(f.data, f.store)
	}
	return db, err
}

// batchExit returns the error, and so the exit code, of a run that ended
// with sum and err: 1 for no rows, a failure or an interruption, 2 for a
// setup error, 3 when rows were rejected.
func batchExit(sum *batch.Summary, err error) error {
	var se *batch.SetupError
	switch {
	case errors.Is(err, batch.ErrNoRows):
		return err // a book that screens no one: exit 1
	case errors.As(err, &se):
		return usageError{se.Err}
	case errors.Is(err, batch.ErrInterrupted):
		return exitCodeError{code: exitError, err: fmt.Errorf("interrupted after %d rows; run the same command with --resume to continue", sum.RowsRead+sum.RowsOtherShards)}
	case err != nil:
		return err
	case sum.RowsRejected > 0:
		return exitCodeError{code: exitRejected, err: fmt.Errorf("%d row(s) rejected: see %s", sum.RowsRejected, sum.Rejects)}
	}
	return nil
}

// batchLong is batch's --help text.
const batchLong = `Screen every customer of a book against the database, on all cores, and write
one line per (customer, hit) with the record, the name string that matched and
why, a rejects file for rows that cannot be screened, and a Markdown report.

The book is CSV with a header row (delimiter , ; tab or | detected; UTF-8 with
or without BOM, UTF-16 with BOM, and Latin-1/Windows-1252 values read as such)
or JSON Lines. Columns are found by their usual names: id/customer_id,
name/full_name (or first_name + last_name), type, dob/date_of_birth, gender,
citizenship/nationality; --map names others, e.g.
--map id=CIF,name=FIRST+LAST,dob=BIRTH_DATE.

Every line of the book (ending in LF, CRLF or CR) is the header, a blank line
(counted) or one row, screened or rejected with its line number: a row whose
quoted value does not close on its line, or with more or fewer values than the
header has columns, is rejected; a header naming a column twice is an error.

Rows: type individual, entity or any (empty: --type); individuals and 'any'
rows are filtered by dob (dd/mm/yyyy, yyyy-mm-dd, yyyy), gender and
citizenship (a code or an English country name) as checkIndividual does;
entity rows ignore those columns. Rows with no name, a bad date, an unknown
country, gender or type go to the rejects file with their line number.

Interrupted runs (Ctrl-C, a crash) leave a checkpoint next to the hits file;
the same command with --resume continues and yields the same files as an
uninterrupted run. --since VERSION screens only against the records a store
added or updated after that version: the daily run after a delta; --since
takes a day (YYYY-MM-DD, from 00:00 UTC) or last (the last change set) as
amlscreen changes does. With --match scored, --since searches the whole
store, so that words weigh what they weigh there, and keeps the hits on
those records.
--shard i/n screens rows whose number modulo n is i, for several processes.
Without --store or --data the embedded sample database is used; --store is
opened read-only and held while the book is screened (hits read their
records from it): run sync between batches, not during one.

--key NAME (with --store and --keys) applies the decisions that key recorded
(amlscreen decide, the workbench of serve), with the customer id as subject:
a false_positive on a record whose content is unchanged since the decision
suppresses the hit, which goes to HITS.suppressed.csv (or .jsonl) with the
decision; every other hit is written with its decision, if any, in the
columns decision, decision_note, decided_by, decided_at and
changed_since_decision. The summary and the report count suppressed hits.

--alerts (with --store) also puts every hit into the store's alert queue
(amlscreen alerts list; docs/WORKBENCH.md, "Casework"), with the customer id as
subject: a re-run raises no alert twice, and reopens one whose record changed.
The store is then opened for writing and held for the run. Hits a decision
suppresses (--key) raise none.

--match scored screens in scored mode (see docs/MATCHING.md, "Match modes"): hits are
records scoring at least --min-score (default 0.82), best first, and each hit
line gains a score column (CSV, after reason) or field (JSON Lines); reason
says how each word pair matched and which words had no partner. A strict run's
files have no score column. A checkpoint remembers the mode: --resume with
another mode or threshold is refused.

Exit codes: 0 done, 3 done but rows were rejected, 1 failure, interrupted or a
book without a single row, 2 bad flags.`

// probeBook reads the book's header the way the run will.
func probeBook(path string, o batch.ReadOptions) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("--in: %w", err)
	}
	defer file.Close()
	if _, err := batch.NewReader(file, o); err != nil {
		if errors.Is(err, batch.ErrNoRows) {
			return fmt.Errorf("--in %s: %w", path, err)
		}
		return usagef("--in %s: %v", path, err)
	}
	return nil
}

// openSince builds a database of the records the store added or updated
// since a version, a day or the last change set (store.ParseSince): screening a book against it finds exactly the hits
// that are new since then. Deleted records cannot make hits and are left
// out. The store's source catalogue comes along, so that --includes and
// the default sources resolve as against the whole store.
func openSince(path, since string) (*screen.Database, error) {
	recs, srcs, current, err := changedSince(path, since)
	if err != nil {
		return nil, err
	}
	origin := fmt.Sprintf("store %s, the %d records added or updated since %s", path, len(recs), since)
	db := screen.New(recs, srcs, current)
	db.SetOrigin(origin)
	return db, nil
}

// openSinceWhole opens the whole store, as batch --store does, and returns
// the ids of the records added or updated since a version, a day or the
// last change set: a scored run keeps only its hits on them
// (batch.Screener.Only), its words weighed over the whole store.
func openSinceWhole(path, since string) (*screen.Database, map[string]bool, error) {
	recs, _, _, err := changedSince(path, since)
	if err != nil {
		return nil, nil, err
	}
	only := make(map[string]bool, len(recs))
	for _, r := range recs {
		only[r.ID] = true
	}
	db, err := openSource(nil, path)
	if err != nil {
		return nil, nil, err
	}
	db.SetOrigin(fmt.Sprintf("%s, hits on the %d records added or updated since %s", db.Origin(), len(recs), since))
	return db, only, nil
}

// changedSince returns the records the store at path added or updated
// since a version, a day or the last change set, its source catalogue and
// its current version.
func changedSince(path, since string) ([]*record.Record, []record.Source, string, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, "", fmt.Errorf("--store: %w", err)
	}
	st, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		return nil, nil, "", fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	spec, err := parseSince(since)
	if err != nil {
		return nil, nil, "", err
	}
	from, err := st.StartVersion(spec)
	var changes []record.Change
	var current string
	if err == nil {
		changes, current, err = st.ChangesSince(from)
	}
	if errors.Is(err, store.ErrUnknownVersion) {
		return nil, nil, "", usagef("--since: store %s cannot say what changed since %q (an unknown version, or older than its change log); screen against the whole store instead", path, since)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("store %s: %w", path, err)
	}
	recs := make([]*record.Record, 0, len(changes))
	for i := range changes {
		if c := &changes[i]; c.Type == record.ChangeAdd || c.Type == record.ChangeUpdate {
			recs = append(recs, &c.Record)
		}
	}
	srcs, err := st.Sources()
	if err != nil {
		return nil, nil, "", fmt.Errorf("store %s: %w", path, err)
	}
	return recs, srcs, current, nil
}
