package main

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// TestBuildVersion: what the go command records in the binary is what
// version reports, and missing or malformed entries read as unknown, never
// as a clean build.
func TestBuildVersion(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/amlscreen/amlscreen", Version: "v0.0.0-20261120103000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "CGO_ENABLED", Value: "0"},
			{Key: "GOARCH", Value: "arm64"},
			{Key: "GOOS", Value: "linux"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-20T10:30:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	clean := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/amlscreen/amlscreen", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fedcba9876543210fedcba9876543210fedcba98"},
			{Key: "vcs.time", Value: "not a time"},
			{Key: "vcs.modified", Value: "false"},
		},
	}
	devel := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/amlscreen/amlscreen", Version: "(devel)"}}
	here := runtime.GOOS + "/" + runtime.GOARCH
	no, yes := false, true
	commit := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want versionReport
	}{
		{"stamped and modified", stamped, true, versionReport{
			Module: "github.com/amlscreen/amlscreen", Version: "v0.0.0-20261120103000-0123456789ab+dirty",
			Revision: "0123456789abcdef0123456789abcdef01234567", RevisionTime: &commit, Modified: &yes,
			GoVersion: "go1.26.8", Platform: "linux/arm64"}},
		{"release, bad commit time left out", clean, true, versionReport{
			Module: "github.com/amlscreen/amlscreen", Version: "v1.2.0",
			Revision: "fedcba9876543210fedcba9876543210fedcba98", Modified: &no,
			GoVersion: "go1.26.8", Platform: here}},
		{"go run: no version control", devel, true, versionReport{
			Module: "github.com/amlscreen/amlscreen", Version: "(devel)", GoVersion: "go1.26.8", Platform: here}},
		{"no build information", nil, false, versionReport{
			Module: "github.com/amlscreen/amlscreen", Version: "unknown", GoVersion: runtime.Version(), Platform: here}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(buildVersion(tc.bi, tc.ok))
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestVersionTable(t *testing.T) {
	var b strings.Builder
	modified := true
	commit := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	applied := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	r := versionReport{Module: "github.com/amlscreen/amlscreen", Version: "v1.2.0", Revision: "0123abc",
		RevisionTime: &commit, Modified: &modified, GoVersion: "go1.26.8", Platform: "linux/amd64",
		Database: &databaseVersion{Store: "aml.db", Version: "v7", AppliedAt: &applied, Full: true, Records: 12}}
	if err := writeVersionTable(&b, &r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"amlscreen v1.2.0", "Revision 0123abc (with uncommitted changes)", "Commit time 2026-11-20T10:30:00Z",
		"Go go1.26.8 linux/amd64", "Store aml.db", "Database v7 (full import, applied 2026-11-21T08:00:00Z), 12 records",
	} {
		if !strings.Contains(words(b.String()), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	r.Revision, r.Modified, r.RevisionTime, r.Database = "", nil, nil, &databaseVersion{Store: "new.db"}
	writeVersionTable(&b, &r)
	for _, want := range []string{"Revision unknown", "Database (empty store: run sync or import)"} {
		if !strings.Contains(words(b.String()), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestVersionCommand runs version as a user would: the build of the test
// binary itself, the database version of a store read-only, and the errors.
func TestVersionCommand(t *testing.T) {
	t.Parallel() // waits out the store's lock timeout; its store is its own
	code, out, errs := runStoreCLI(t, "version", "--format", "json")
	if code != exitOK {
		t.Fatalf("version: exit %d: %s", code, errs)
	}
	var rep versionReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("version JSON: %v\n%s", err, out)
	}
	if rep.GoVersion != runtime.Version() || rep.Module != "github.com/amlscreen/amlscreen" || rep.Version == "" || rep.Database != nil {
		t.Fatalf("version of the test binary: %+v", rep)
	}

	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	code, out, errs = runStoreCLI(t, "version", "--store", db, "--format", "json")
	if code != exitOK {
		t.Fatalf("version --store: exit %d: %s", code, errs)
	}
	rep = versionReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("version JSON: %v\n%s", err, out)
	}
	if d := rep.Database; d == nil || d.Store != db || d.Version != "v1" || !d.Full || d.Records != 4 || d.AppliedAt == nil {
		t.Fatalf("database version %+v", rep.Database)
	}
	code, out, _ = runStoreCLI(t, "version", "--store", db)
	if code != exitOK || !strings.Contains(words(out), "Database v1 (full import, applied") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("version table, exit %d:\n%s", code, out)
	}

	// A writer holds the store: the read-only open gives up after its
	// timeout and names the holder, rather than waiting for ever.
	w, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs = runStoreCLI(t, "version", "--store", db)
	w.Close()
	if code != exitError || !strings.Contains(errs, "locked") {
		t.Fatalf("version on a held store: exit %d, stderr %q", code, errs)
	}

	for _, tc := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"version", "--format", "xml"}, exitUsage, "--format"},
		{[]string{"version", "extra"}, exitUsage, "unknown command"},
		{[]string{"version", "--store", filepath.Join(dir, "absent.db")}, exitError, "no such file"},
	} {
		code, _, errs := runStoreCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.errs) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.errs)
		}
	}
}
