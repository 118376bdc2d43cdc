package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

func init() { register(newCheckCmd) }

type checkFlags struct {
	data         []string
	store        string
	names        string
	searchAll    string
	kind         string
	fuzzy        int
	dob          string
	gender       string
	citizenship  string
	includes     string
	includeOther bool
	format       string
	limit        int
}

func newCheckCmd() *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check (--names S | --search-all S) [flags]",
		Short: "Screen one name against the database, as checkIndividual, checkEntity or checkName",
		Long: `Screen one name against the database with the semantics of the /v1 API.

--type individual is checkIndividual, entity is checkEntity, any is checkName.
Every query word must pair with a different word of one of a record's names,
in any order; --fuzzy allows 1 or 2 spelling edits per word (none for words of
1-2 letters, at most 1 for 3-5 letters); an edit is an inserted, deleted or
changed letter or a swap of two adjacent letters. --names and --search-all take
at most 512 characters and 32 words. Legal forms (LLC, GmbH, OOO, ...)
match all their equivalents.

Without --store or --data the embedded sample database is used.

Exit codes: 0 the check ran (with or without hits), 1 failure, 2 bad flags.`,
		Example: `  amlscreen check --names "vladimir putin" --fuzzy 1
  amlscreen check --type entity --names "acme holdings limited liability company"
  amlscreen check --type individual --names "marina ivanova" --dob 00/00/1975 --gender female --citizenship RU
  amlscreen check --data db.jsonl.gz --search-all "IMO 9116412" --format json
  amlscreen check --store aml.db --names "acme" --fuzzy 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCheck(cmd.OutOrStdout(), &f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.data, "data", nil, "consolidated JSON Lines file (plain or .gz) to screen against; repeat for several (default: the embedded sample)")
	fl.StringVar(&f.store, "store", "", "bbolt store kept by amlscreen sync or import (opened read-only)")
	fl.StringVar(&f.names, "names", "", "name to screen against name fields (name, aliases, given and last names)")
	fl.StringVar(&f.searchAll, "search-all", "", "text to screen against all fields of a record (names fuzzy, other fields exact)")
	fl.StringVar(&f.kind, "type", "any", "individual (checkIndividual), entity (checkEntity) or any (checkName)")
	fl.IntVar(&f.fuzzy, "fuzzy", 0, "spelling edits allowed per word: 0, 1 or 2 (a swap of two adjacent letters is one)")
	fl.StringVar(&f.dob, "dob", "", "date of birth dd/mm/yyyy, 00 for an unknown day or month, e.g. 00/00/1952")
	fl.StringVar(&f.gender, "gender", "", "male or female (m, f; any case); empty for no filter; records without gender always pass")
	fl.StringVar(&f.citizenship, "citizenship", "", "ISO 3166-1 alpha-2 code, e.g. RU (UK and EL read as GB and GR; XK is Kosovo); records without citizenship always pass")
	fl.StringVar(&f.includes, "includes", "", "comma-separated source ids and/or 'included' (default: every source except OTHER ones)")
	fl.BoolVar(&f.includeOther, "include-other", false, "include sources of type OTHER in the default sources")
	fl.StringVar(&f.format, "format", "", "json (the API's CheckResponse) or table (with reasons); default table on a terminal, json otherwise")
	fl.IntVar(&f.limit, "limit", engine.DefaultLimit, "most records to return (total_hits counts all)")
	return cmd
}

// flagOf maps an API parameter to the flag that sets it, for messages.
var flagOf = map[string]string{
	"names": "--names", "search_all": "--search-all", "fuzzy_search": "--fuzzy", "dob": "--dob",
	"gender": "--gender", "citizenship": "--citizenship", "includes": "--includes", "type": "--type",
}

// paramToUsage turns an engine.ParamError into a usage error naming the flag.
func paramToUsage(err error) error {
	var pe *engine.ParamError
	if errors.As(err, &pe) {
		name := flagOf[pe.Param]
		if name == "" {
			name = pe.Param
		}
		return usagef("%s: %s", name, pe.Msg)
	}
	return err
}

func runCheck(out io.Writer, f *checkFlags) error {
	kind, err := engine.ParseKind(f.kind)
	if err != nil {
		return paramToUsage(err)
	}
	format := f.format
	if format == "" {
		format = "json"
		if file, ok := out.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
			format = "table"
		}
	}
	if format != "json" && format != "table" {
		return usagef("--format: %q is not json or table", f.format)
	}
	if f.limit < 1 {
		return usagef("--limit: must be at least 1")
	}
	q := engine.Query{
		Kind: kind, Names: f.names, SearchAll: f.searchAll, Fuzzy: f.fuzzy,
		DOB: f.dob, Gender: f.gender, Citizenship: f.citizenship, Limit: f.limit,
	}
	// Validate before loading, so that a typo costs nothing.
	if err := engine.Validate(q); err != nil {
		return paramToUsage(err)
	}
	db, err := openSource(f.data, f.store)
	if err != nil {
		return err
	}
	if q.Sources, err = db.sourceSet(f.includes, f.includeOther); err != nil {
		return paramToUsage(err)
	}
	res, err := db.index.Search(q)
	if err != nil {
		return paramToUsage(err)
	}
	if format == "json" {
		b := res.AppendCheckResponse(nil, time.Now(), record.WriteOptions{})
		_, err = out.Write(append(b, '\n'))
		return err
	}
	return writeCheckTable(out, q, res, db)
}

// writeCheckTable prints hits with the reason each matched.
func writeCheckTable(out io.Writer, q engine.Query, res *engine.Result, db *database) error {
	what := q.Names
	if what == "" {
		what = q.SearchAll + " (search_all)"
	}
	fmt.Fprintf(out, "%d hit(s) for %q (%s check, fuzzy %d) in %s", res.Total, what, q.Kind, q.Fuzzy, db.origin)
	if db.version != "" {
		fmt.Fprintf(out, " version %s", db.version)
	}
	fmt.Fprintln(out)
	if res.Total > len(res.Hits) {
		fmt.Fprintf(out, "showing the best %d\n", len(res.Hits))
	}
	if len(res.Hits) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tID\tNAME\tTYPE\tSOURCE\tMATCHED\tWHY")
	for i, h := range res.Hits {
		r := h.Record
		matched, why := reason(q, &h)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s (%s)\t%s\t%s\n", i+1, r.ID, clip(r.Name, 40), r.EntityType,
			r.SourceID, strings.ToLower(r.SourceType), matched, why)
	}
	return tw.Flush()
}

// reason explains a hit in words: which name string, which word pairs and
// how many edits.
func reason(q engine.Query, h *engine.Hit) (matched, why string) {
	m, ok, err := engine.Explain(q, h.Record)
	if err != nil || !ok {
		return h.Field, ""
	}
	matched = m.Field
	if m.Text != "" {
		matched = fmt.Sprintf("%s %q", m.Field, clip(m.Text, 40))
	}
	return matched, engine.Reason(m)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
