package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newVersionCmd) }

func newVersionCmd() *cobra.Command {
	var storePath, format string
	cmd := &cobra.Command{
		Use:   "version [--store PATH] [--format table|json]",
		Short: "Show the build of this binary and, with --store, the database version",
		Long: `Show which build of amlscreen this is, as the Go toolchain recorded it in the
binary: the module version (a release tag, a pseudo-version naming the commit,
or "(devel)" for go run), the version-control revision and its commit time,
whether the work tree had uncommitted changes, and the Go version and platform.
An auditor can tie every answer a server gave to the exact source it ran.

With --store, also the version of the database the store holds, when it was
applied and how many records it has. The store is opened read-only, so this
works beside amlscreen check or batch, but not while serve, sync or import
holds it for writing.

Exit codes: 0 shown, 1 the store cannot be read, 2 bad flags.`,
		Example: `  amlscreen version
  amlscreen version --store aml.db
  amlscreen version --format json | jq -r .vcs_revision`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runVersion(cmd.OutOrStdout(), storePath, format)
		},
	}
	addStoreFlag(cmd.Flags(), &storePath)
	addFormatFlag(cmd.Flags(), &format)
	return cmd
}

// versionReport is the JSON form of version; keys are snake_case like the
// API's and status's.
type versionReport struct {
	Module string `json:"module"`
	// Version is the main module's version as the go command stamped it:
	// a tag such as v1.2.0, a pseudo-version naming the commit (with
	// "+dirty" when the tree was modified), or "(devel)".
	Version      string     `json:"version"`
	Revision     string     `json:"vcs_revision,omitempty"`
	RevisionTime *time.Time `json:"vcs_time,omitempty"`
	// Modified is absent when the build recorded no version control
	// information, so that "unknown" never reads as "clean".
	Modified  *bool            `json:"vcs_modified,omitempty"`
	GoVersion string           `json:"go_version"`
	Platform  string           `json:"platform"`
	Database  *databaseVersion `json:"database,omitempty"`
}

// databaseVersion is the version of the data in a store.
type databaseVersion struct {
	Store     string     `json:"store"`
	Version   string     `json:"version"` // "" for an empty store
	AppliedAt *time.Time `json:"applied_at,omitempty"`
	Full      bool       `json:"full_import"`
	Records   int        `json:"records"`
}

func runVersion(stdout io.Writer, storePath, format string) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	rep := buildVersion(debug.ReadBuildInfo())
	if storePath != "" {
		dv, err := readDatabaseVersion(storePath)
		if err != nil {
			return err
		}
		rep.Database = dv
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeVersionTable(stdout, &rep)
}

// buildVersion reads what the go command recorded about the build. ok is
// false for a binary built without module support, which records nothing.
func buildVersion(bi *debug.BuildInfo, ok bool) versionReport {
	rep := versionReport{
		Module:    "github.com/amlscreen/amlscreen",
		Version:   "unknown",
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if !ok || bi == nil {
		return rep
	}
	if bi.Main.Path != "" {
		rep.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		rep.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		rep.GoVersion = bi.GoVersion
	}
	var goos, goarch string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rep.Revision = s.Value
		case "vcs.time":
			// RFC 3339 as the go command writes it; anything else is left
			// out rather than shown wrong.
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				t = t.UTC()
				rep.RevisionTime = &t
			}
		case "vcs.modified":
			modified := s.Value == "true"
			rep.Modified = &modified
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	if goos != "" && goarch != "" {
		rep.Platform = goos + "/" + goarch
	}
	return rep
}

// versionLine is the one line of amlscreen --version: the module version,
// the revision when the build recorded one, the Go version and platform.
func versionLine(r versionReport) string {
	line := r.Version
	if r.Revision != "" {
		line += ", revision " + r.Revision
		if r.Modified != nil && *r.Modified {
			line += " (modified)"
		}
	}
	return line + ", " + r.GoVersion + " " + r.Platform
}

// readDatabaseVersion opens the store read-only and reads its current
// version.
func readDatabaseVersion(path string) (*databaseVersion, error) {
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	v, err := db.Version()
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	dv := &databaseVersion{Store: path, Version: v.ID, Full: v.Full, Records: v.Records}
	if !v.AppliedAt.IsZero() {
		at := v.AppliedAt.UTC()
		dv.AppliedAt = &at
	}
	return dv, nil
}

func writeVersionTable(w io.Writer, r *versionReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "amlscreen\t%s\n", r.Version)
	fmt.Fprintf(tw, "Module\t%s\n", r.Module)
	switch {
	case r.Revision == "":
		fmt.Fprintf(tw, "Revision\tunknown (built without version control information)\n")
	case r.Modified != nil && *r.Modified:
		fmt.Fprintf(tw, "Revision\t%s (with uncommitted changes)\n", r.Revision)
	default:
		fmt.Fprintf(tw, "Revision\t%s\n", r.Revision)
	}
	if r.RevisionTime != nil {
		fmt.Fprintf(tw, "Commit time\t%s\n", r.RevisionTime.Format(time.RFC3339))
	}
	fmt.Fprintf(tw, "Go\t%s %s\n", r.GoVersion, r.Platform)
	if d := r.Database; d != nil {
		fmt.Fprintf(tw, "Store\t%s\n", d.Store)
		if d.Version == "" {
			fmt.Fprintf(tw, "Database\t(empty store: run sync or import)\n")
		} else {
			how := "delta"
			if d.Full {
				how = "full import"
			}
			applied := ""
			if d.AppliedAt != nil {
				applied = ", applied " + d.AppliedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "Database\t%s (%s%s), %d records\n", d.Version, how, applied, d.Records)
		}
	}
	return tw.Flush()
}
