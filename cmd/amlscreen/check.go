package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/response"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/screen"
)

func init() { register(newCheckCmd) }

type checkFlags struct {
	queryFlags
	data   []string
	store  string
	format string
	server string
	apiKey string
	// caBundle is trusted for an https --server.
	caBundle string
	// limitSet is set when --limit was given, which --server cannot honour.
	limitSet bool
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

--match scored (see docs/MATCHING.md, "Match modes") scores
partial and variant names instead: a query word without a partner lowers the
score rather than rejecting the record, rare words weigh more than common ones,
spelling and transliteration variants pair. Records scoring at least
--min-score (default 0.82) are hits, best first; JSON adds match_score and
match_reason to each record, the table a SCORE column. search_all is strict
only.

Without --store or --data the embedded sample database is used; --store is
opened read-only, with its persisted index, for the fraction of a second a
check takes; a sync waits for it. With
--server URL the check is asked of a running amlscreen serve through the API
(checkIndividual, checkEntity or checkName, billed as any call; the key from
--api-key or AMLSCREEN_API_KEY): serve holds its store for writing, so check
--store cannot open it meanwhile. The answer is the server's: its sources for
the key, its hits (up to 1000).

Exit codes: 0 the check ran (with or without hits), 1 failure, 2 bad flags.`,
		Example: `  amlscreen check --names "vladimir putin" --fuzzy 1
  amlscreen check --type entity --names "acme holdings limited liability company"
  amlscreen check --type individual --names "marina ivanova" --dob 00/00/1975 --gender female --citizenship RU
  amlscreen check --data db.jsonl.gz --search-all "IMO 9116412" --format json
  amlscreen check --store aml.db --names "acme" --fuzzy 2
  amlscreen check --names "john michael smith" --fuzzy 2 --match scored --min-score 0.9
  AMLSCREEN_API_KEY=... amlscreen check --server http://localhost:8080 --names "acme" --fuzzy 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.limitSet = cmd.Flags().Changed("limit")
			return runCheck(cmd.OutOrStdout(), &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.data, "data", nil, dataUsage)
	addStoreFlag(fl, &f.store)
	f.add(fl, querySpec{
		kindUsage: "individual (checkIndividual), entity (checkEntity) or any (checkName)", kindDefault: "any",
		with: withNames | withSearchAll | withFuzzy | withDOB | withGender | withCitizenship | withIncludes | withIncludeOther | withLimit | withMatch,
	})
	fl.StringVar(&f.format, "format", "", "json (the API's CheckResponse), table (with reasons) or csv (the table's columns, a header row); default table on a terminal, json otherwise")
	fl.StringVar(&f.server, "server", "", "ask a running amlscreen serve at this base URL (its /v1 API) instead of loading a database")
	fl.StringVar(&f.apiKey, "api-key", "", "with --server, an API key of its keys file (default: $"+apiKeyEnv+")")
	addCABundleFlag(fl, &f.caBundle)
	return cmd
}

func runCheck(out io.Writer, f *checkFlags) error {
	kind, err := query.ParseKind(f.kind)
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
	if format != "json" && format != "table" && format != "csv" {
		return usagef("--format: %q is not json, table or csv", f.format)
	}
	if f.limit < 1 {
		return usagef("--limit: must be at least 1")
	}
	q, err := f.query(kind)
	if err != nil {
		return err
	}
	// Validate before loading, so that a typo costs nothing.
	if err := query.Validate(q); err != nil {
		return paramToUsage(err)
	}
	if f.caBundle != "" && f.server == "" {
		return usagef("--ca-bundle: only with --server")
	}
	if f.server != "" || f.apiKey != "" {
		return remoteCheck(out, f, q, format)
	}
	db, err := openSource(f.data, f.store)
	if err != nil {
		return lockHint(err)
	}
	defer db.Close()
	ch, err := db.Check(context.Background(), q, cliCaller(f.includeOther), f.includes)
	if err != nil {
		return paramToUsage(err)
	}
	q, res := ch.Query, ch.Result
	if format == "json" {
		b := response.AppendCheck(nil, res, time.Now(), record.WriteOptions{})
		_, err = out.Write(append(b, '\n'))
		return err
	}
	if format == "csv" {
		return writeCheckCSV(out, q, res)
	}
	note, err := noteFiltered(db, q, res.Total)
	if err != nil {
		return err
	}
	return writeCheckTable(out, q, res, db.Origin(), ch.Version, note...)
}

// noteFiltered says how many name matches the filters (--dob, --gender,
// --citizenship) removed, so that "0 hits" after a filter does not read as
// no match of the name at all; no line when they removed none.
func noteFiltered(db *screen.Database, q query.Query, total int) ([]string, error) {
	var by []string
	for _, f := range []struct{ flag, value string }{{"--dob", q.DOB}, {"--gender", q.Gender}, {"--citizenship", q.Citizenship}} {
		if f.value != "" {
			by = append(by, f.flag)
		}
	}
	if len(by) == 0 {
		return nil, nil
	}
	q.DOB, q.Gender, q.Citizenship = "", "", ""
	all, err := db.Index().Search(q)
	if err != nil {
		return nil, err
	}
	removed := all.Total - total
	if removed <= 0 {
		return nil, nil
	}
	word := "matches"
	if removed == 1 {
		word = "match"
	}
	return []string{fmt.Sprintf("%d name %s removed by %s", removed, word, strings.Join(by, " and "))}, nil
}

// writeCheckCSV writes the hits as CSV with a header row: the table's
// columns, the matched name apart from its field, for a spreadsheet.
func writeCheckCSV(out io.Writer, q query.Query, res *engine.Result) error {
	w := csv.NewWriter(out)
	w.Write([]string{"rank", "id", "name", "entity_type", "source_id", "source_type", "score", "matched_field", "matched_name", "why"})
	for i, h := range res.Hits {
		r := h.Record
		field, name := h.Field, ""
		var why string
		if q.Match == query.Scored {
			if h.Reason != nil {
				field, name, why = h.Reason.Field, h.Reason.Name, h.Reason.Summary()
			}
		} else if m, ok, err := engine.Explain(q, h.Record); err == nil && ok {
			field, name, why = m.Field, m.Text, engine.Reason(m)
		}
		score := ""
		if q.Match == query.Scored {
			score = engine.FormatScore(h.Score)
		}
		w.Write([]string{strconv.Itoa(i + 1), r.ID, r.Name, r.EntityType, r.SourceID, r.SourceType, score, field, name, why})
	}
	w.Flush()
	return w.Error()
}

// writeCheckTable prints hits with the reason each matched; origin and
// version say what was searched. A scored check adds each hit's score and
// says why in the words of engine.ScoreReason.Summary. On the embedded
// sample (sampledata.Is of the version) a last line says it is no
// screening, so that "0 hit(s)" there never reads as a clearance.
func writeCheckTable(out io.Writer, q query.Query, res *engine.Result, origin, version string, notes ...string) error {
	what := q.Names
	if what == "" {
		what = q.SearchAll + " (search_all)"
	}
	mode := ""
	if q.Match == query.Scored {
		minScore := q.MinScore
		if minScore == 0 {
			minScore = query.DefaultMinScore
		}
		mode = fmt.Sprintf(", scored, min score %v", minScore)
	}
	fmt.Fprintf(out, "%d hit(s) for %q (%s check, fuzzy %d%s) in %s", res.Total, what, q.Kind, q.Fuzzy, mode, origin)
	if version != "" {
		fmt.Fprintf(out, " version %s", version)
	}
	fmt.Fprintln(out)
	if res.Total > len(res.Hits) {
		fmt.Fprintf(out, "showing the best %d\n", len(res.Hits))
	}
	if len(res.Hits) == 0 {
		return sampleFooter(out, version, notes)
	}
	tw := newTable(out)
	if q.Match == query.Scored {
		fmt.Fprintln(tw, "#\tID\tNAME\tTYPE\tSOURCE\tSCORE\tMATCHED\tWHY")
	} else {
		fmt.Fprintln(tw, "#\tID\tNAME\tTYPE\tSOURCE\tMATCHED\tWHY")
	}
	for i, h := range res.Hits {
		r := h.Record
		matched, why := reason(q, &h)
		score := ""
		if q.Match == query.Scored {
			score = engine.FormatScore(h.Score) + "\t"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s (%s)\t%s%s\t%s\n", i+1, r.ID, clip(r.Name, 40), r.EntityType,
			r.SourceID, strings.ToLower(r.SourceType), score, matched, why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return sampleFooter(out, version, notes)
}

// sampleFooter writes the notes under a table, then ends a table of
// results from the embedded sample with a line that says so; it writes
// no such line for other databases.
func sampleFooter(out io.Writer, version string, notes []string) error {
	for _, n := range notes {
		if _, err := fmt.Fprintln(out, n); err != nil {
			return err
		}
	}
	if !sampledata.Is(version) {
		return nil
	}
	_, err := fmt.Fprintln(out, sampledata.Mark+": the embedded sample holds generated records, not the sanction, PEP and criminal lists")
	return err
}

// reason explains a hit in words: which name string, which word pairs and
// how many edits (strict), or how each pair matched and which words had
// no partner (scored).
func reason(q query.Query, h *engine.Hit) (matched, why string) {
	if q.Match == query.Scored {
		if h.Reason == nil {
			return h.Field, ""
		}
		return fmt.Sprintf("%s %q", h.Reason.Field, clip(h.Reason.Name, 40)), h.Reason.Summary()
	}
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
