package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/report"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/screen"
)

func init() { register(newReportCmd) }

type reportFlags struct {
	queryFlags
	data  []string
	store string
	out   string
	at    string
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report --type individual|entity --names S --out FILE.pdf [flags]",
		Short: "Screen one name and write the PDF report a compliance officer files",
		Long: `Screen one name as generateIndividualReport or generateEntityReport do and
write the PDF report: the query and its parameters, the time (UTC), the
database version and sources searched, the number of hits (or a plain "no
hits"), then every hit with all its attributes and the reason it matched.

Reports hold only sanction, PEP and criminal records: other sources are never
searched, even when --includes names them.

--match scored screens in scored mode (see docs/MATCHING.md, "Match modes"): the report
names the mode and its threshold (--min-score, default 0.82) and shows each
hit's score and its word pairs with what each added.

The screening time defaults to now; --time fixes it, and with it the report id
and every byte of the PDF, so that a report can be reproduced exactly.

Without --store or --data the embedded sample database is used; --store is
opened read-only.

Exit codes: 0 the report was written (with or without hits), 1 failure, 2 bad
flags.`,
		Example: `  amlscreen report --type individual --names "vladimir putin" --fuzzy 1 --out putin.pdf
  amlscreen report --type individual --names "marina ivanova" --dob 00/00/1975 --gender female --citizenship RU --out ivanova.pdf
  amlscreen report --type entity --names "acme holdings llc" --includes us_ofac_sdn,eu_fsf --out acme.pdf
  amlscreen report --type entity --names "acme" --data db.jsonl.gz --time 2026-11-22T09:30:00Z --out - | base64
  amlscreen report --type individual --names "vladimir michael putin" --fuzzy 1 --match scored --out putin.pdf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReport(cmd.OutOrStdout(), cmd.ErrOrStderr(), &f) },
	}
	fl := cmd.Flags()
	addStoreFlag(fl, &f.store)
	fl.StringArrayVar(&f.data, "data", nil, dataUsage)
	f.add(fl, querySpec{
		kindUsage: "individual (generateIndividualReport) or entity (generateEntityReport); required",
		with:      withNames | withFuzzy | withDOB | withGender | withCitizenship | withIncludes | withMatch,
	})
	fl.StringVarP(&f.out, "out", "o", "", "PDF file to write, or - for standard output (not a terminal); required")
	fl.StringVar(&f.at, "time", "", "screening time to print, RFC 3339 (default: now)")
	return cmd
}

func runReport(stdout, stderr io.Writer, f *reportFlags) error {
	var kind query.Kind
	switch strings.ToLower(f.kind) {
	case "individual":
		kind = query.Individual
	case "entity":
		kind = query.Entity
	case "":
		return usagef("--type: required, individual or entity")
	default:
		return usagef("--type: %q is not individual or entity", f.kind)
	}
	if strings.TrimSpace(f.names) == "" {
		return usagef("--names: required")
	}
	if kind == query.Entity {
		for _, fv := range [][2]string{{"--dob", f.dob}, {"--gender", f.gender}, {"--citizenship", f.citizenship}} {
			if fv[1] != "" {
				return usagef("%s: only for --type individual", fv[0])
			}
		}
	}
	if f.out == "" {
		return usagef("--out: required, a .pdf file or - for standard output")
	}
	at := time.Now().UTC()
	if f.at != "" {
		t, err := time.Parse(time.RFC3339Nano, f.at)
		if err != nil {
			return usagef("--time: %q is not an RFC 3339 time such as 2026-11-22T09:30:00Z", f.at)
		}
		at = t.UTC()
	}
	q, err := f.query(kind)
	if err != nil {
		return err
	}
	// Validate before loading, so that a typo costs nothing.
	if err := query.Validate(q); err != nil {
		return paramToUsage(err)
	}
	db, err := openSource(f.data, f.store)
	if err != nil {
		return err
	}
	defer db.Close()
	sel, err := db.Catalog().Resolve(cliCaller(true), f.includes)
	if err != nil {
		return paramToUsage(err)
	}
	types := db.Index().SourceTypes()
	q.Sources = report.ReportableSources(sel, types)
	res, err := db.Index().Search(q)
	if err != nil {
		return paramToUsage(err)
	}
	in := report.Input{
		Query: q, Result: res, Time: at, Version: db.Version(), Origin: db.Origin(), Sample: sampledata.Is(db.Version()),
		Sources: sourcesOf(db, q.Sources, types),
	}
	var buf bytes.Buffer
	if err := report.Render(&buf, in); err != nil {
		return paramToUsage(err)
	}
	if err := writeOutput(f.out, stdout, "PDF", buf.Bytes()); err != nil {
		return err
	}
	if f.out == "-" {
		return nil
	}
	hits := report.Filter(res).Total
	fmt.Fprintf(stdout, "wrote %s: %d hit%s for %q, report %s\n", f.out, hits, plural(hits), f.names, report.ID(q, at, db.Version()))
	return nil
}

// sourcesOf describes the selected sources: catalogue entries where the
// database has them, otherwise the id with the type of its records.
func sourcesOf(db *screen.Database, sel map[string]bool, types map[string]string) []record.Source {
	listed := db.Sources()
	byID := make(map[string]record.Source, len(listed))
	for _, s := range listed {
		byID[s.Source] = s
	}
	out := make([]record.Source, 0, len(sel))
	for id := range sel {
		s, ok := byID[id]
		if !ok {
			s = record.Source{Source: id, SourceType: strings.ToLower(types[id])}
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b record.Source) int { return strings.Compare(a.Source, b.Source) })
	return out
}
