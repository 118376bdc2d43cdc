package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/amlscreen/amlscreen/internal/mediagen"
	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

func init() { register(newMediaCmd) }

func newMediaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "media",
		Short: "Adverse-media screening over a local article corpus",
		Long: `Screen names against adverse media: news articles imported into the store
(amlscreen media import), or the sample corpus embedded in the binary.

An article mentions a name when all the name's words occur within 3 words of
each other, in any order ("Ivan Petrov", "Petrov, Ivan"), after the same
normalisation as checks (case, accents, Cyrillic transliteration). Categories
come from the article, or from the built-in lexicon (English, German, French,
Spanish, Russian).`,
	}
	cmd.AddCommand(newMediaImportCmd(), newMediaCheckCmd(), newMediaSearchCmd(), newMediaGenCmd())
	return cmd
}

func newMediaImportCmd() *cobra.Command {
	var storePath string
	var sample bool
	cmd := &cobra.Command{
		Use:   "import --store PATH (FILE | --sample)",
		Short: "Upsert the articles of a JSON Lines file into the store's media corpus",
		Long: `Import articles (JSON Lines, plain or gzip) into the store, upserting by id in
one transaction. A line that does not parse stops the import with its line
number, and nothing of the file is applied. FILE "-" reads standard input;
--sample imports the embedded sample corpus. The store is created when absent.

A line: {"id","timestamp" (RFC 3339),"language" (ISO 639-1),"headline",
"body" (<p></p> paragraphs),"source_link","categories" (optional; without it
the lexicon classifies the article)}.

Exit codes: 0 imported, 1 failure (bad line, I/O, store locked), 2 bad flags.`,
		Example: `  amlscreen media import --store aml.db articles.jsonl.gz
  amlscreen media import --store aml.db --sample`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if storePath == "" {
				return usagef("--store: required")
			}
			if sample == (len(args) == 1) {
				return usagef("give either FILE or --sample")
			}
			var in io.ReadCloser
			name := "embedded sample"
			size := int64(len(media.SampleFile()))
			if sample {
				in = io.NopCloser(bytes.NewReader(media.SampleFile()))
			} else {
				name = args[0]
				f, n, err := openInput(args[0])
				if err != nil {
					return err // unreadable input: exit 1, like import
				}
				in, size = f, n
			}
			defer in.Close()
			return runMediaImport(cmd.ErrOrStderr(), storePath, name, in, size)
		},
	}
	addStoreFlag(cmd.Flags(), &storePath)
	cmd.Flags().BoolVar(&sample, "sample", false, "import the embedded sample corpus")
	return cmd
}

func runMediaImport(stderr io.Writer, storePath, name string, in io.Reader, size int64) error {
	db, err := store.Open(storePath, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	c, err := media.Load(db, media.Options{})
	if err != nil {
		return err
	}
	bar := newProgress(stderr, "media import", size, progressUnitBytes)
	st, err := c.Import(syncer.NewProgressReader(in, bar))
	bar.Finish()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cliLogger(stderr).Info("imported articles", "file", name, "articles", st.Articles, "added", st.Added,
		"updated", st.Updated, "corpus", c.Len(), "compacted", st.Compacted, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

type mediaFlags struct {
	queryFlags
	store       string
	fetch       bool
	perCategory int
	cursor      string
	format      string
}

func newMediaCheckCmd() *cobra.Command {
	var f mediaFlags
	cmd := &cobra.Command{
		Use:   "check --type individual|entity --search-all S [flags]",
		Short: "Adverse-media check of a name, as media/checkIndividual or media/checkEntity",
		Long: `Count the articles mentioning a name in every category (political, regulatory,
terrorism, financial_crime, organized_crime, violent_crime, and any other the
corpus has), as media/checkIndividual (--type individual) or media/checkEntity
(--type entity, where legal forms match in every spelling). --fetch-articles
adds the newest articles of each category (10, or --articles-per-category).

Without --store the embedded sample corpus is used; --store, holding a corpus
imported with amlscreen media import, is opened read-only.

Exit codes: 0 the check ran (with or without hits), 1 failure, 2 bad flags.`,
		Example: `  amlscreen media check --type individual --search-all "Vladimir Putin" --fetch-articles
  amlscreen media check --type entity --search-all "Romashka LLC" --format json
  amlscreen media check --store aml.db --type individual --search-all "Katharina Brandtner" --fuzzy 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMediaCheck(cmd.Context(), cmd.OutOrStdout(), &f) },
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	f.add(fl, querySpec{
		kindUsage: "individual (media/checkIndividual) or entity (media/checkEntity)", kindDefault: "individual",
		searchAllUsage: mediaSearchAllUsage, with: withSearchAll | withFuzzy,
	})
	fl.BoolVar(&f.fetch, "fetch-articles", false, "add the newest articles of each category")
	fl.IntVar(&f.perCategory, "articles-per-category", media.DefaultPerCategory, "most articles per category with --fetch-articles")
	fl.StringVar(&f.format, "format", "", "json (the API's CheckMediaResponse) or table; default table on a terminal, json otherwise")
	return cmd
}

func newMediaSearchCmd() *cobra.Command {
	var f mediaFlags
	cmd := &cobra.Command{
		Use:   "search --search-all S [--cursor C] [flags]",
		Short: "Articles mentioning a name, a page at a time, as media/search",
		Long: `List the articles mentioning a name, newest first, 10 a page. Pass the
next_cursor of a page as --cursor for the next one; it stays valid while
articles are imported.

Without --store the embedded sample corpus is used; --store, holding a corpus
imported with amlscreen media import, is opened read-only.

Exit codes: 0 the search ran, 1 failure, 2 bad flags (a bad cursor too).`,
		Example: `  amlscreen media search --search-all "Acme Holdings"
  amlscreen media search --search-all "Acme Holdings" --format json | jq -r .next_cursor`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMediaSearch(cmd.Context(), cmd.OutOrStdout(), &f)
		},
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	f.add(fl, querySpec{searchAllUsage: mediaSearchAllUsage, with: withSearchAll | withFuzzy})
	fl.StringVar(&f.cursor, "cursor", "", "next_cursor of the previous page")
	fl.StringVar(&f.format, "format", "", "json (the API's ArticleSearchResponse) or table; default table on a terminal, json otherwise")
	return cmd
}

func mediaFormat(out io.Writer, format string) (string, error) {
	switch format {
	case "json", "table":
		return format, nil
	case "":
		if file, ok := out.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
			return "table", nil
		}
		return "json", nil
	}
	return "", usagef("--format: %q is not json or table", format)
}

// sampleCorpus is the embedded media sample, analysed once per process
// and only read after: a process that runs several commands (the tests
// run them in process) analyses its 4,000 articles once.
var sampleCorpus = sync.OnceValues(func() (*media.Corpus, error) { return media.Sample(media.Options{}) })

// openCorpus loads the store's corpus (read-only, so an import may run
// alongside) or the embedded sample.
func openCorpus(storePath string) (*media.Corpus, string, func(), error) {
	if storePath == "" {
		c, err := sampleCorpus()
		return c, "embedded sample corpus", func() {}, err
	}
	if _, err := os.Stat(storePath); err != nil {
		return nil, "", nil, fmt.Errorf("--store: %w", err)
	}
	db, err := store.Open(storePath, store.Options{ReadOnly: true})
	if err != nil {
		return nil, "", nil, fmt.Errorf("open store: %w", err)
	}
	c, err := media.Load(db, media.Options{})
	if err != nil {
		db.Close()
		return nil, "", nil, fmt.Errorf("store %s: %w", storePath, err)
	}
	return c, "store " + storePath, func() { db.Close() }, nil
}

func runMediaCheck(ctx context.Context, out io.Writer, f *mediaFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var kind query.Kind
	switch strings.ToLower(f.kind) {
	case "individual":
		kind = query.Individual
	case "entity":
		kind = query.Entity
	default:
		return usagef("--type: %q is not individual or entity", f.kind)
	}
	format, err := mediaFormat(out, f.format)
	if err != nil {
		return err
	}
	if strings.TrimSpace(f.searchAll) == "" {
		return usagef("--search-all: required")
	}
	if f.perCategory < 1 || f.perCategory > media.MaxPerCategory {
		return usagef("--articles-per-category: %d is not between 1 and %d", f.perCategory, media.MaxPerCategory)
	}
	q := media.CheckQuery{Kind: kind, Text: f.searchAll, Fuzzy: f.fuzzy, FetchArticles: f.fetch, PerCategory: f.perCategory}
	if err := q.Validate(); err != nil {
		return paramToUsage(err)
	}
	c, origin, closeFn, err := openCorpus(f.store)
	if err != nil {
		return err
	}
	defer closeFn()
	resp, err := c.Check(ctx, q)
	if err != nil {
		return paramToUsage(err)
	}
	if format == "json" {
		_, err := out.Write(append(resp.AppendJSON(nil), '\n'))
		return err
	}
	fmt.Fprintf(out, "%d hit(s) for %q (%s media check, fuzzy %d) in %s of %d articles\n",
		resp.TotalHits, q.Text, kind, q.Fuzzy, origin, c.Len())
	tw := newTable(out)
	fmt.Fprintln(tw, "CATEGORY\tHITS")
	for _, cat := range c.Categories() {
		fmt.Fprintf(tw, "%s\t%d\n", cat, resp.NewsExposures[cat].Hits)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !q.FetchArticles {
		return nil
	}
	for _, cat := range c.Categories() {
		ne := resp.NewsExposures[cat]
		if len(ne.Articles) == 0 {
			continue
		}
		fmt.Fprintf(out, "\n%s (newest %d of %d)\n", cat, len(ne.Articles), ne.Hits)
		if err := writeArticleTable(out, ne.Articles); err != nil {
			return err
		}
	}
	return nil
}

func runMediaSearch(ctx context.Context, out io.Writer, f *mediaFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	format, err := mediaFormat(out, f.format)
	if err != nil {
		return err
	}
	if strings.TrimSpace(f.searchAll) == "" {
		return usagef("--search-all: required")
	}
	q := media.SearchQuery{Text: f.searchAll, Cursor: f.cursor, Fuzzy: f.fuzzy}
	if err := q.Validate(); err != nil {
		return paramToUsage(err)
	}
	c, origin, closeFn, err := openCorpus(f.store)
	if err != nil {
		return err
	}
	defer closeFn()
	resp, err := c.Search(ctx, q)
	if err != nil {
		return paramToUsage(err)
	}
	if format == "json" {
		_, err := out.Write(append(resp.AppendJSON(nil), '\n'))
		return err
	}
	fmt.Fprintf(out, "%d article(s) mention %q in %s; this page: %d\n", resp.TotalHits, f.searchAll, origin, len(resp.Articles))
	if err := writeArticleTable(out, resp.Articles); err != nil {
		return err
	}
	if resp.NextCursor != "" {
		fmt.Fprintf(out, "next page: --cursor %s\n", resp.NextCursor)
	}
	return nil
}

func writeArticleTable(out io.Writer, arts []*media.Article) error {
	tw := newTable(out)
	fmt.Fprintln(tw, "DATE\tID\tLANG\tHEADLINE")
	for _, a := range arts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Timestamp.UTC().Format("2006-01-02"), a.ID, a.Language, clip(a.Headline, 70))
	}
	return tw.Flush()
}

func newMediaGenCmd() *cobra.Command {
	var (
		n    int
		seed int64
		out  string
	)
	cmd := &cobra.Command{
		Use:   "gen --articles N --seed S --out FILE",
		Short: "Generate synthetic news articles (the sample corpus, benchmarks)",
		Long: `Write synthetic articles in the import format: English, German, French, Spanish
and Russian news, adverse and neutral, mentioning names of the embedded sample
AML database and clean names. The output depends only on --articles and
--seed. The embedded sample corpus is made with this command (see
media/sample.go). A name ending in .gz is gzip-compressed; - writes to
standard output.`,
		Example: `  amlscreen media gen --articles 100000 --seed 7 --out articles.jsonl.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 0 {
				return usagef("--articles: %d is negative", n)
			}
			if out == "" {
				return usagef("--out: empty; give a file name, or - for standard output")
			}
			g, err := mediagen.New(seed)
			if err != nil {
				return err
			}
			gzipped := out != "-" && strings.HasSuffix(out, ".gz")
			return writeFile(cmd.OutOrStdout(), out, func(w io.Writer) error {
				if !gzipped {
					return g.Write(w, n)
				}
				gz, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
				if err := g.Write(gz, n); err != nil {
					return err
				}
				return gz.Close()
			})
		},
	}
	cmd.Flags().IntVar(&n, "articles", 4000, "number of articles")
	cmd.Flags().Int64Var(&seed, "seed", 1, "random seed; the same seed gives the same file")
	cmd.Flags().StringVarP(&out, "out", "o", "-", "output file; .gz compresses; - is standard output")
	return cmd
}
