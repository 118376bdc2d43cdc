package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/amlscreen/amlscreen/lists"
	"github.com/amlscreen/amlscreen/service"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newListsCmd) }

func newListsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "lists",
		Short: "Fetch the public sanctions lists from their issuers and keep them current in a store",
		Long: `lists knows the public lists a bank screens against (OFAC, the UN, the US
CSL, the BIS DPL, the EU, the UK, OpenSanctions): where each issuer publishes
it, its format and licence. lists fetch downloads them, converts them and
applies each list to the store as one change set: records added, updated and
deleted against what the store holds of that list, seen by ongoing monitoring
and the screening index like any delta. lists mirror and lists fetch --from
carry them to an air-gapped site. See docs/LISTS.md.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newListsAvailableCmd(), newListsFetchCmd(), newListsStatusCmd(), newListsMirrorCmd())
	return c
}

func newListsAvailableCmd() *cobra.Command {
	var format string
	return addFormat(&cobra.Command{
		Use:     "available [--format table|json]",
		Short:   "Print the lists amlscreen can fetch: issuer, format, licence, default URLs",
		Example: "  amlscreen lists available\n  amlscreen lists available --format json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runListsAvailable(cmd.OutOrStdout(), format)
		},
	}, &format)
}

func addFormat(c *cobra.Command, format *string) *cobra.Command {
	addFormatFlag(c.Flags(), format)
	return c
}

// listJSON is a list as lists available --format json prints it.
type listJSON struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Issuer  string   `json:"issuer"`
	Format  string   `json:"format"`
	Licence string   `json:"licence"`
	MapsTo  string   `json:"maps_to"`
	Files   []string `json:"files"`
	URLs    []string `json:"urls"`
}

func runListsAvailable(stdout io.Writer, format string) error {
	if format != "table" && format != "json" {
		return usagef("--format: %q is neither table nor json", format)
	}
	var out []listJSON
	for _, l := range lists.Known() {
		j := listJSON{Name: l.Name, Title: l.Title, Issuer: l.Issuer, Format: l.Format, Licence: l.Licence, MapsTo: l.MapsTo}
		for _, f := range l.Files {
			j.Files = append(j.Files, f.Name)
			j.URLs = append(j.URLs, f.URL)
		}
		out = append(out, j)
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := newTable(stdout)
	fmt.Fprint(tw, "LIST\tISSUER\tFORMAT\tLICENCE\tURL\n")
	for _, l := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Name, l.Issuer, l.Format, l.Licence, l.URLs[0])
		for _, u := range l.URLs[1:] {
			fmt.Fprintf(tw, "\t\t\t\t%s\n", u)
		}
	}
	return tw.Flush()
}

// listsSource are the flags that say where lists come from, shared by
// lists fetch, lists mirror, sync --lists and serve --lists.
type listsSource struct {
	urls      []string
	listsFile string
	caBundle  string
}

const listsURLUsage = "NAME=URL: fetch list NAME (or the file NAME) from URL instead of its issuer; a URL ending in / is a directory of the list's files (repeatable)"

func (s *listsSource) addFlags(fl *pflag.FlagSet, caBundle bool) {
	fl.StringArrayVar(&s.urls, "url", nil, listsURLUsage)
	fl.StringVar(&s.listsFile, "lists-file", "", "file of NAME=URL lines, one a line, overriding the lists' addresses as --url does")
	if caBundle {
		addCABundleFlag(fl, &s.caBundle)
	}
}

// fetcher builds the lists' fetcher from the flags.
func (s *listsSource) fetcher(stderr io.Writer, log *slog.Logger) (*lists.Fetcher, error) {
	urls := map[string]string{}
	var err error
	if s.listsFile != "" {
		if urls, err = lists.ReadURLsFile(urls, s.listsFile); err != nil {
			return nil, usagef("--lists-file: %v", err)
		}
	}
	if urls, err = lists.ParseURLs(urls, s.urls, func(int) string { return "--url" }); err != nil {
		return nil, usageError{err}
	}
	roots, err := rootCAs(s.caBundle)
	if err != nil {
		return nil, err
	}
	return &lists.Fetcher{HTTP: lists.NewHTTPClient(roots), URLs: urls, Log: log, Progress: cliProgress(stderr)}, nil
}

// resolveLists reads list names given as arguments or a comma-separated
// flag value.
func resolveLists(flag string, names []string) ([]lists.List, error) {
	var all []string
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			if p = strings.TrimSpace(p); p != "" {
				all = append(all, p)
			}
		}
	}
	ls, err := lists.Resolve(all)
	if err != nil {
		return nil, usagef("%s%v", flag, err)
	}
	return ls, nil
}

type listsFetchFlags struct {
	listsSource
	store       string
	from        string
	allowShrink bool
}

func newListsFetchCmd() *cobra.Command {
	var f listsFetchFlags
	c := &cobra.Command{
		Use:   "fetch NAME... --store PATH [flags]",
		Short: "Download lists from their issuers (or --from a directory) and apply them to the store",
		Long: `fetch downloads each named list, converts it and applies it to the store
(created when absent) as one change set: the records of the list's sources the
store holds are compared with the new edition's, so that new entries are
added, changed ones updated and removed ones deleted, in one transaction with
a new version, written to the change log and seen by ongoing monitoring. The
list's sources become local sources, which a full import from an upstream
keeps (see import --merge).

Downloads ask with the ETag and Last-Modified of the edition the store holds,
so an unchanged list costs one request per file and no conversion. 5xx
answers, dropped connections, truncated bodies and stalls are retried with
backoff; proxies come from HTTPS_PROXY, HTTP_PROXY and NO_PROXY, and
--ca-bundle adds a CA as it does for sync. --url and --lists-file point a
list at a bank's mirror or proxy.

A list that fails (download, conversion, or an edition that would delete more
than half of the list's records: the shrink guard, which --allow-shrink lifts;
an empty edition is refused always) leaves its previous edition whole, is
reported in lists status, and does not stop the others.

--from DIR reads the files from a directory instead (carried into an
air-gapped site), under the names the issuers give them or those of the
manifest lists mirror wrote, whose checksums are then checked.

Exit codes: 0 every list fetched (or unchanged), 1 a list failed, 2 bad flags.`,
		Example: `  amlscreen lists fetch ofac un --store aml.db
  amlscreen lists fetch ofac,un,csl,dpl --store aml.db --ca-bundle /etc/amlscreen/bank-ca.pem
  amlscreen lists fetch un --store aml.db --url un=https://mirror.bank.internal/lists/
  amlscreen lists fetch ofac un --store aml.db --from /media/lists`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runListsFetch(cmd.Context(), cmd.ErrOrStderr(), &f, args)
		},
	}
	fl := c.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringVar(&f.from, "from", "", "read the lists' files from this directory instead of downloading them")
	fl.BoolVar(&f.allowShrink, "allow-shrink", false, "let an edition delete more than half of a list's records")
	f.addFlags(fl, true)
	return c
}

func runListsFetch(ctx context.Context, stderr io.Writer, f *listsFetchFlags, names []string) error {
	if f.store == "" {
		return usagef("--store: required")
	}
	ls, err := resolveLists("", names)
	if err != nil {
		return err
	}
	if f.from != "" {
		if st, err := os.Stat(f.from); err != nil || !st.IsDir() {
			return usagef("--from: %s is not a directory", f.from)
		}
	}
	log := cliLogger(stderr)
	fe, err := f.fetcher(stderr, log)
	if err != nil {
		return err
	}
	fe.AllowShrink = f.allowShrink
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// AllowShrink also reaches the store's own guards, so that an allowed
	// shrink of a list is not refused a second time.
	db, err := openStoreToWrite(f.store, store.Options{Log: log, AllowShrink: f.allowShrink})
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	var res []lists.Result
	if f.from != "" {
		res = fe.FetchDir(db, f.from, ls)
	} else {
		res = fe.Fetch(ctx, db, ls)
	}
	return listsOutcome(res)
}

// listsOutcome is the error of a fetch in which lists failed, nil when
// none did.
func listsOutcome(res []lists.Result) error {
	var failed []string
	for _, r := range res {
		if r.Err != nil {
			failed = append(failed, r.List)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d lists not updated (%s); their previous editions are kept", len(failed), len(res), strings.Join(failed, ", "))
	}
	return nil
}

func newListsStatusCmd() *cobra.Command {
	var storePath, format string
	c := &cobra.Command{
		Use:   "status --store PATH [--format table|json]",
		Short: "Print each fetched list's last fetch, last change, counts, validators and last error",
		Long: `status prints what the store remembers of every list fetched into it: when it
was last fetched and last changed, its records and the counts of its last
change, the ETag and Last-Modified of its files, and the error of the last
fetch when it failed (the previous edition is then still the one screened).
The store is opened read-only.`,
		Example: "  amlscreen lists status --store aml.db\n  amlscreen lists status --store aml.db --format json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runListsStatus(cmd.OutOrStdout(), storePath, format)
		},
	}
	addStoreFlag(c.Flags(), &storePath)
	addFormatFlag(c.Flags(), &format)
	return c
}

func runListsStatus(stdout io.Writer, storePath, format string) error {
	if storePath == "" {
		return usagef("--store: required")
	}
	if format != "table" && format != "json" {
		return usagef("--format: %q is neither table nor json", format)
	}
	db, err := store.Open(storePath, store.Options{ReadOnly: true})
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	states, err := lists.Status(db)
	if err != nil {
		return err
	}
	if format == "json" {
		if states == nil {
			states = []lists.State{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(states)
	}
	when := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.UTC().Format(time.RFC3339)
	}
	tw := newTable(stdout)
	fmt.Fprint(tw, "LIST\tRECORDS\tLAST FETCH\tLAST CHANGE\t+/~/-\tETAG / LAST-MODIFIED\tERROR\n")
	for _, s := range states {
		var val []string
		for _, f := range s.Files {
			switch {
			case f.ETag != "":
				val = append(val, f.ETag)
			case f.LastModified != "":
				val = append(val, f.LastModified)
			}
		}
		v := "-"
		if len(val) > 0 {
			v = strings.Join(val, " ")
		}
		e := "-"
		if s.LastError != "" {
			e = fmt.Sprintf("%s (%d failed fetches)", s.LastError, s.Failures)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d/%d/%d\t%s\t%s\n", s.Name, s.Records, when(s.LastFetch), when(s.LastChange),
			s.Added, s.Updated, s.Deleted, v, e)
	}
	if len(states) == 0 {
		fmt.Fprintln(tw, "no list fetched into this store yet: amlscreen lists fetch NAME... --store PATH")
	}
	return tw.Flush()
}

func newListsMirrorCmd() *cobra.Command {
	var src listsSource
	var out string
	c := &cobra.Command{
		Use:   "mirror NAME... --out DIR [flags]",
		Short: "Download lists into a directory with a SHA-256 manifest, to carry to an air-gapped site",
		Long: `mirror downloads each named list into DIR (created when absent) under the
names its issuer gives its files, and writes manifest.json (list, file, SHA-256,
size, source URL and validators) and SHA256SUMS (for sha256sum -c) of every
file DIR holds. On the air-gapped side, lists fetch --from DIR checks the
checksums and applies the lists. A list that fails leaves its files in DIR as
they were; the others are written.

Exit codes: 0 every list mirrored, 1 a list failed, 2 bad flags.`,
		Example: "  amlscreen lists mirror ofac un csl dpl --out /media/lists\n  amlscreen lists fetch ofac un csl dpl --store aml.db --from /media/lists",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runListsMirror(cmd.Context(), cmd.ErrOrStderr(), &src, out, args)
		},
	}
	c.Flags().StringVar(&out, "out", "", "directory the files and the manifest are written to")
	src.addFlags(c.Flags(), true)
	return c
}

func runListsMirror(ctx context.Context, stderr io.Writer, src *listsSource, out string, names []string) error {
	if out == "" {
		return usagef("--out: required")
	}
	ls, err := resolveLists("", names)
	if err != nil {
		return err
	}
	fe, err := src.fetcher(stderr, cliLogger(stderr))
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := fe.Mirror(ctx, out, ls)
	if err != nil {
		return err
	}
	return listsOutcome(res)
}

// syncListsHelp explains sync --lists; it is appended to sync's --help.
const syncListsHelp = `

Public lists (--lists): after each sync, or alone without --upstream (then no
API key is needed), sync fetches the named lists from their issuers as lists
fetch does, on the same --every. A list that fails keeps its previous edition,
is reported in lists status, and is tried again at the next interval.`

// addSyncListsFlags adds --lists, --url and --lists-file to sync.
func addSyncListsFlags(cmd *cobra.Command, f *syncFlags) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.lists, "lists", nil, "public lists to fetch after each sync, or alone without --upstream (see lists available)")
	f.listsSource.addFlags(fl, false)
	cmd.Long += syncListsHelp
	cmd.Example += "\n  amlscreen sync --store aml.db --lists ofac,un,csl,dpl --every 6h"
}

// syncListsStep checks sync's list flags and returns the step that
// fetches the lists into the store once, nil without --lists.
func syncListsStep(stderr io.Writer, f *syncFlags) (func(context.Context) error, error) {
	if len(f.lists) == 0 {
		if len(f.urls) > 0 || f.listsFile != "" {
			return nil, usagef("--url, --lists-file: only with --lists")
		}
		return nil, nil
	}
	ls, err := resolveLists("--lists: ", f.lists)
	if err != nil {
		return nil, err
	}
	if f.every < 0 {
		return nil, usagef("--every: %v is negative", f.every)
	}
	log := cliLogger(stderr)
	f.listsSource.caBundle = f.caBundle
	fe, err := f.listsSource.fetcher(stderr, log)
	if err != nil {
		return nil, err
	}
	fe.AllowShrink = f.allowShrink
	return func(ctx context.Context) error {
		// Opened for the time of one fetch, as syncOnce does, so that
		// lists status can read the store between runs.
		db, err := openStoreToWrite(f.store, store.Options{Log: log, AllowShrink: f.allowShrink})
		if err != nil {
			return lockHint(err)
		}
		defer db.Close()
		return listsOutcome(fe.Fetch(ctx, db, ls))
	}, nil
}

// runListsLoop runs fetch once, or every interval until interrupted;
// failures are logged and tried again at the next interval.
func runListsLoop(ctx context.Context, log *slog.Logger, every time.Duration, fetch func(context.Context) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	for {
		err := fetch(ctx)
		if every == 0 {
			return err
		}
		if err != nil && ctx.Err() == nil {
			log.Error("lists not all updated; trying again at the next interval", "error", err.Error())
		}
		log.Info("next lists fetch", "at", time.Now().Add(every).UTC().Format(time.RFC3339))
		select {
		case <-ctx.Done():
			log.Info("stopped")
			return nil
		case <-time.After(every):
		}
	}
}

// addServeListsFlags adds --lists, --lists-every, --url and --lists-file
// to serve.
func addServeListsFlags(cmd *cobra.Command, f *serveFlags) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.lists, "lists", nil, "public lists to fetch into the store at start and every --lists-every (see lists available)")
	fl.DurationVar(&f.listsEvery, "lists-every", service.DefaultListsEvery, "with --lists, fetch them at this interval")
	f.listsSource.addFlags(fl, false)
	cmd.Example += "\n  amlscreen serve --store aml.db --keys keys.json --lists ofac,un,csl,dpl --lists-every 6h"
}

// serveLists checks serve's list flags and returns the lists and their
// fetcher, none without --lists. The fetcher's client is the service's,
// which trusts --ca-bundle.
func serveLists(log *slog.Logger, f *serveFlags) ([]lists.List, *lists.Fetcher, error) {
	if len(f.lists) == 0 {
		if len(f.urls) > 0 || f.listsFile != "" {
			return nil, nil, usagef("--url, --lists-file: only with --lists")
		}
		return nil, nil, nil
	}
	ls, err := resolveLists("--lists: ", f.lists)
	if err != nil {
		return nil, nil, err
	}
	if f.listsEvery <= 0 {
		return nil, nil, usagef("--lists-every: %v is not a positive interval", f.listsEvery)
	}
	fe, err := f.listsSource.fetcher(io.Discard, log)
	if err != nil {
		return nil, nil, err
	}
	fe.HTTP, fe.Progress = nil, nil
	return ls, fe, nil
}
