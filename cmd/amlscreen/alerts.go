package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/csvsafe"
)

func init() { register(newAlertsCmd) }

func newAlertsCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "alerts",
		Short: "The alert queue of casework: list alerts, set where four eyes apply",
		Long: `alerts reads the queue of hits awaiting review that batch --alerts (and the
workbench) fill: one alert per customer and record, reopened when the record
changes (see docs/WORKBENCH.md, "Casework").`,
		Example: `  amlscreen alerts list --store aml.db --status open --format table
  amlscreen alerts list --store aml.db --origin batch --format csv > open.csv
  amlscreen alerts four-eyes --store aml.db --off PEP`,
		Args: cobra.NoArgs,
	}
	addStoreFlag(c.PersistentFlags(), &storePath)

	var f casework.Filter
	var format string
	list := &cobra.Command{
		Use:   "list --store PATH [--status open|proposed|closed] [--origin batch|monitor|screening] [--escalated] --format json|csv|table",
		Short: "List alerts, one per line, oldest first",
		Long: `list writes the alerts of the store, by id. JSON is one object per line with
id, status, subject, record_id, record_name, source_type, matched_name,
reason, origin, score (scored runs only), created, updated, version,
assignee, outcome, proposed_by and approved_by; CSV has the same columns with a
header row; table a subset for reading. --escalated lists true matches a
reviewer approved. The store is opened read-only.

Exit codes: 0 written, 1 failure, 2 bad flags.`,
		Example: `  amlscreen alerts list --store aml.db --status proposed --format table
  amlscreen alerts list --store aml.db --escalated --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.Validate(); err != nil {
				return usagef("--%v", err)
			}
			if format != "json" && format != "csv" && format != "table" {
				return usagef("--format: %q is not json, csv or table", format)
			}
			return withCasework(storePath, false, func(c *casework.Casework) error {
				return writeAlerts(cmd.OutOrStdout(), c, f, format)
			})
		},
	}
	fl := list.Flags()
	fl.StringVar(&f.Status, "status", "", "only alerts in this status: open, proposed or closed")
	fl.StringVar(&f.Origin, "origin", "", "only alerts from batch, monitor or screening")
	fl.StringVar(&f.Assignee, "assignee", "", "only alerts assigned to this user")
	fl.BoolVar(&f.Escalated, "escalated", false, "only approved true matches")
	fl.StringVar(&format, "format", "table", "json (one object per line), csv or table")

	var off string
	fourEyes := &cobra.Command{
		Use:   "four-eyes --store PATH [--off TYPES|none]",
		Short: "Show or set the source types whose proposals need no reviewer",
		Long: `four-eyes shows the source types (SANCTION, PEP, CRIMINAL, OTHER, ...) for which an
analyst's proposal closes an alert at once, without a reviewer's approval;
--off sets them (comma-separated) and --off none requires four eyes
everywhere again, the default. The change is written to the audit log.`,
		Example: `  amlscreen alerts four-eyes --store aml.db
  amlscreen alerts four-eyes --store aml.db --off PEP,OTHER
  amlscreen alerts four-eyes --store aml.db --off none`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set := cmd.Flags().Changed("off")
			return withCasework(storePath, set, func(c *casework.Casework) error {
				if set {
					var types []string
					if strings.ToLower(strings.TrimSpace(off)) != "none" {
						types = strings.Split(off, ",")
					}
					if err := c.SetFourEyesOff(cliOperator(), types); err != nil {
						return caseworkError(err)
					}
				}
				types, err := c.FourEyesOff()
				if err != nil {
					return err
				}
				if len(types) == 0 {
					fmt.Fprintln(cmd.OutOrStdout(), "four eyes for every source type")
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "four eyes off for %s\n", strings.Join(types, ", "))
				}
				return nil
			})
		},
	}
	fourEyes.Flags().StringVar(&off, "off", "", "source types whose proposals close without review, comma-separated; none for none")
	c.AddCommand(list, fourEyes, newAlertsSummaryCmd())
	return c
}

// newAlertsSummaryCmd defines alerts summary: one month of casework.
func newAlertsSummaryCmd() *cobra.Command {
	var month, format string
	c := &cobra.Command{
		Use:   "summary --store PATH --month YYYY-MM --format csv|json|table",
		Short: "Summarise a month of alerts: opened, closed, by outcome and by reviewer, time to close",
		Long: `summary counts the alerts opened in a calendar month (UTC), those closed in it
by outcome and by the reviewer who approved them, those still open at its end,
and the median time from an alert's creation to its approval, in hours. CSV
writes one measure a row (month, measure, key, value); JSON one object. The
store is opened read-only.

Exit codes: 0 written, 1 failure, 2 bad flags.`,
		Example: `  amlscreen alerts summary --store aml.db --month 2026-11 --format table
  amlscreen alerts summary --store aml.db --month 2026-11 --format csv > november.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if month == "" {
				month = time.Now().UTC().Format("2006-01")
			}
			start, err := casework.ParseMonth(month)
			if err != nil {
				return usagef("--%v", err)
			}
			if format != "json" && format != "csv" && format != "table" {
				return usagef("--format: %q is not json, csv or table", format)
			}
			storePath, _ := cmd.Flags().GetString("store")
			return withCasework(storePath, false, func(c *casework.Casework) error {
				m, err := c.Month(start)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				switch format {
				case "json":
					return json.NewEncoder(w).Encode(m)
				case "csv":
					return casework.WriteMonthCSV(w, m)
				}
				tw := newTable(w)
				fmt.Fprintln(tw, "MEASURE\tKEY\tVALUE")
				for _, r := range casework.MonthRows(m) {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r[1], alertText(r[2]), r[3])
				}
				return tw.Flush()
			})
		},
	}
	c.Flags().StringVar(&month, "month", "", "the month, YYYY-MM (UTC); empty for the current one")
	c.Flags().StringVar(&format, "format", "table", "csv (one measure a row), json or table")
	return c
}

// alertRow is an alert as alerts list writes it.
type alertRow struct {
	ID          uint64   `json:"id"`
	Status      string   `json:"status"`
	Subject     string   `json:"subject"`
	RecordID    string   `json:"record_id"`
	RecordName  string   `json:"record_name"`
	SourceType  string   `json:"source_type"`
	MatchedName string   `json:"matched_name"`
	Reason      string   `json:"reason"`
	Origin      string   `json:"origin"`
	Score       *float64 `json:"score,omitempty"`
	Created     string   `json:"created"`
	Updated     string   `json:"updated"`
	Version     string   `json:"version"`
	Assignee    string   `json:"assignee"`
	Outcome     string   `json:"outcome"`
	ProposedBy  string   `json:"proposed_by"`
	ApprovedBy  string   `json:"approved_by"`
}

var alertColumns = []string{"id", "status", "subject", "record_id", "record_name", "source_type", "matched_name", "reason", "origin",
	"score", "created", "updated", "version", "assignee", "outcome", "proposed_by", "approved_by"}

func rowOf(a *casework.Alert) alertRow {
	r := alertRow{ID: a.ID, Status: a.Status, Subject: a.Subject, RecordID: a.Hit.RecordID, RecordName: a.Hit.RecordName,
		SourceType: a.Hit.SourceType, MatchedName: a.Hit.MatchedName, Reason: a.Hit.Reason, Origin: a.Origin, Score: a.Hit.Score,
		Created: a.Created.UTC().Format(time.RFC3339), Updated: a.Updated.UTC().Format(time.RFC3339), Version: a.Version, Assignee: a.Assignee}
	switch {
	case a.Closure != nil && a.Status == casework.Closed:
		r.Outcome, r.ProposedBy, r.ApprovedBy = a.Closure.Outcome, a.Closure.By, a.Closure.ApprovedBy
	case a.Proposal != nil:
		r.Outcome, r.ProposedBy = a.Proposal.Outcome, a.Proposal.By
	}
	return r
}

func writeAlerts(w io.Writer, c *casework.Casework, f casework.Filter, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		return c.EachAlert(f, func(a *casework.Alert) error { return enc.Encode(rowOf(a)) })
	case "csv":
		cw := csvsafe.NewWriter(w)
		cw.Write(alertColumns)
		err := c.EachAlert(f, func(a *casework.Alert) error {
			r := rowOf(a)
			score := ""
			if r.Score != nil {
				score = strconv.FormatFloat(*r.Score, 'f', 4, 64)
			}
			rec := []string{strconv.FormatUint(r.ID, 10), r.Status, r.Subject, r.RecordID, r.RecordName, r.SourceType, r.MatchedName,
				r.Reason, r.Origin, score, r.Created, r.Updated, r.Version, r.Assignee, r.Outcome, r.ProposedBy, r.ApprovedBy}
			return cw.Write(rec)
		})
		cw.Flush()
		if err != nil {
			return err
		}
		return cw.Error()
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tSTATUS\tSUBJECT\tRECORD\tNAME\tSOURCE\tORIGIN\tSCORE\tCREATED\tASSIGNEE\tOUTCOME")
	n := 0
	err := c.EachAlert(f, func(a *casework.Alert) error {
		r := rowOf(a)
		score := ""
		if r.Score != nil {
			score = strconv.FormatFloat(*r.Score, 'f', 2, 64)
		}
		n++
		_, err := fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Status, alertText(r.Subject), r.RecordID, alertText(r.RecordName),
			r.SourceType, r.Origin, score, r.Created, r.Assignee, r.Outcome)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(tw, "%d alerts\n", n)
	return tw.Flush()
}

// alertText keeps a value on one table cell: tabs and line breaks become
// spaces, and it is cut at 60 characters.
func alertText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}
