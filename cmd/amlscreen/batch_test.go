package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/sampledata"
	"github.com/amlscreen/amlscreen/store"
)

const exampleBook = "../../batch/testdata/customers.csv"

// hitPairs reads a CSV hits file as "customer_id record_id" pairs.
func hitPairs(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[1]+" "+r[3])
	}
	return out
}

// TestBatchExampleBook runs the README's command on the example book
// against the embedded sample: hits, rejects, report, summary and exit 3
// for the rejected rows.
func TestBatchExampleBook(t *testing.T) {
	out := filepath.Join(t.TempDir(), "hits.csv")
	code, stdout, stderr := runCLI(t, "batch", "--in", exampleBook, "--out", out, "--fuzzy", "1")
	if code != exitRejected {
		t.Fatalf("exit %d, want %d (rows rejected): %s", code, exitRejected, stderr)
	}
	if !strings.Contains(stderr, "2 row(s) rejected") {
		t.Errorf("stderr %q", stderr)
	}
	for _, want := range []string{"13 rows read", "with hits      8", "rejected       2 (dob 1, name 1)", "report"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	got := hitPairs(t, out)
	want := []string{"C-1001 SEED0001", "C-1002 SEED0001", "C-1003 SEED0002", "C-1004 SEED0003", "C-1005 SEED0004",
		"C-1006 SEED0007", "C-1007 SEED0005", "C-1013 SEED0001"}
	if !slices.Equal(got, want) {
		t.Errorf("hits %v\nwant %v", got, want)
	}
	rejects, err := os.ReadFile(filepath.Join(filepath.Dir(out), "hits.rejects.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"11,C-1010,dob,31/02/1980", "12,C-1011,name,,missing name"} {
		if !strings.Contains(string(rejects), want) {
			t.Errorf("rejects lack %q:\n%s", want, rejects)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), "hits.report.md")); err != nil {
		t.Errorf("no report: %v", err)
	}
}

func TestBatchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "hits.csv")
	noName := filepath.Join(dir, "noname.csv")
	if err := os.WriteFile(noName, []byte("id,address\n1,Main Street\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		errs string
	}{
		{[]string{"--out", out}, "--in"},
		{[]string{"--in", exampleBook}, "--out"},
		{[]string{"--in", exampleBook, "--out", out, "--fuzzy", "3"}, "--fuzzy"},
		{[]string{"--in", exampleBook, "--out", out, "--map", "nom=X"}, "--map"},
		{[]string{"--in", exampleBook, "--out", out, "--map", "name=NOPE"}, `no column "NOPE"`},
		{[]string{"--in", noName, "--out", out}, "no name column"},
		{[]string{"--in", exampleBook, "--out", out, "--shard", "3/3"}, "--shard"},
		{[]string{"--in", exampleBook, "--out", out, "--since", "v1"}, "--since"},
		{[]string{"--in", exampleBook, "--out", out, "--type", "trust"}, "--type"},
		{[]string{"--in", exampleBook, "--out", out, "--encoding", "ebcdic"}, "--encoding"},
		{[]string{"--in", exampleBook, "--out", out, "--delimiter", "x"}, "--delimiter"},
		{[]string{"--in", exampleBook, "--out", out, "--format", "xml"}, "--format"},
		{[]string{"--in", exampleBook, "--out", out, "--includes", "no_such_source"}, "no_such_source"},
		{[]string{"--in", exampleBook, "--out", exampleBook}, "both"},
	}
	for _, tc := range tests {
		code, _, errs := runCLI(t, append([]string{"batch"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.errs) {
			t.Errorf("batch %v: exit %d, stderr %q; want exit %d naming %s", tc.args, code, errs, exitUsage, tc.errs)
		}
	}
}

// TestBatchSince builds a store, applies a delta that adds, updates and
// deletes records, and screens a book with --since the version before the
// delta: exactly the customers hit by added or updated records are found.
func TestBatchSince(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aml.db")
	person := func(id, name string, aliases ...string) record.Record {
		return record.Record{ID: id, SourceID: "eu_fsf", SourceType: record.SourceSanction, EntityType: record.EntityIndividual, Name: name, AliasNames: aliases}
	}
	v1 := []record.Record{
		person("A1", "Anna Sokolova"),
		person("B1", "Boris Kuznetsov"),
		{ID: "C1", SourceID: "us_ofac_sdn", SourceType: record.SourceSanction, EntityType: record.EntityEntity, Name: "Cobalt Trading LLC"},
	}
	other := person("O1", "Olga Petrova")
	other.SourceID, other.SourceType = "leaks", record.SourceOther
	delta := []record.Change{
		{Type: record.ChangeAdd, Record: person("D1", "Dmitri Volkov")},
		{Type: record.ChangeUpdate, Record: person("B1", "Boris Kuznetsov", "Boris Kusnezow")},
		{Type: record.ChangeDelete, Record: record.Record{ID: "C1"}},
		{Type: record.ChangeAdd, Record: other},
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	err = st.ReplaceAll("v1", func() (*record.Record, error) {
		if i == len(v1) {
			return nil, io.EOF
		}
		i++
		return &v1[i-1], nil
	}, nil)
	if err == nil {
		_, err = st.ApplyDelta("v1", "v2", delta, nil)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "book.csv")
	if err := os.WriteFile(book, []byte(`id,name
k1,Anna Sokolova
k2,Boris Kusnezow
k3,Boris Kuznetsov
k4,Cobalt Trading LLC
k5,Dmitri Volkov
k6,Olga Petrova
k7,Zorvak Quilbrem
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flags []string
		want  []string
	}{
		{"whole store", nil, []string{"k1 A1", "k2 B1", "k3 B1", "k5 D1"}},
		{"since v1", []string{"--since", "v1"}, []string{"k2 B1", "k3 B1", "k5 D1"}},
		{"since v1 with OTHER sources", []string{"--since", "v1", "--include-other"}, []string{"k2 B1", "k3 B1", "k5 D1", "k6 O1"}},
		{"since the current version", []string{"--since", "v2"}, nil},
		{"since the last change set", []string{"--since", "last"}, []string{"k2 B1", "k3 B1", "k5 D1"}},
		{"since tomorrow", []string{"--since", time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "hits.csv")
			args := append([]string{"batch", "--store", path, "--in", book, "--out", out}, tc.flags...)
			code, _, errs := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if got := hitPairs(t, out); !slices.Equal(got, tc.want) {
				t.Errorf("hits %v, want %v", got, tc.want)
			}
		})
	}
	code, _, errs := runCLI(t, "batch", "--store", path, "--since", "v0", "--in", book, "--out", filepath.Join(dir, "x.csv"))
	if code != exitUsage || !strings.Contains(errs, "--since") {
		t.Errorf("unknown --since version: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "batch", "--store", path, "--since", "2026-13-01", "--in", book, "--out", filepath.Join(dir, "x.csv"))
	if code != exitUsage || !strings.Contains(errs, "not a valid day") {
		t.Errorf("bad --since day: exit %d, %s", code, errs)
	}
}

// TestBatchHelperProcess is not a test: TestBatchResumeAfterSIGINT runs
// the test binary as the CLI through it, so that a real signal reaches a
// real process.
func TestBatchHelperProcess(t *testing.T) {
	if os.Getenv("AMLSCREEN_BATCH_HELPER") != "1" {
		t.Skip("runs only as the child process of TestBatchResumeAfterSIGINT")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// TestBatchResumeAfterSIGINT interrupts a batch run in a child process
// with SIGINT, resumes it with --resume in another, and compares the files
// with an uninterrupted run. The book comes through a pipe that the test
// feeds only in part, so the interruption always lands mid-book after the
// first checkpoints, however fast the machine. The runs screen a store
// of the sample's first 300 records, whose index each child opens rather
// than building the whole sample's.
func TestBatchResumeAfterSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	t.Parallel() // waits on its children; its files are its own
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[:300]
	dir := t.TempDir()
	var list []byte
	for _, r := range recs {
		list = append(r.Append(list, record.WriteOptions{}), '\n')
	}
	db := filepath.Join(dir, "aml.db")
	if err := os.WriteFile(filepath.Join(dir, "list.jsonl"), list, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runStoreCLI(t, "import", "--store", db, filepath.Join(dir, "list.jsonl"), "--version", "v1"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	var b bytes.Buffer
	b.WriteString("customer_id,full_name,date_of_birth\n")
	// 1,200 rows, 700 fed at first, a checkpoint every 128: the signal is
	// sent once four checkpoints are written. AMLSCREEN_LONG_TESTS=1 runs
	// 3,000 rows, 1,500 fed, a checkpoint every 256.
	rows, fed, every := 1200, 700, 128
	if longTests() {
		rows, fed, every = 3000, 1500, 256
	}
	for i := range rows {
		name := recs[i%len(recs)].Name
		if i%2 == 1 {
			name = fmt.Sprintf("Zorvak%c Quilbrem%c", 'a'+i%26, 'a'+i/26%26)
		}
		dob := ""
		if i%251 == 7 {
			dob = "31/02/1980"
		}
		w := csv.NewWriter(&b)
		w.Write([]string{fmt.Sprintf("K%05d", i), name, dob})
		w.Flush()
	}
	book := filepath.Join(dir, "book.csv")
	if err := os.WriteFile(book, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--store", db, "--fuzzy", "1", "--workers", "2", "--checkpoint-every", strconv.Itoa(every)}

	ref := filepath.Join(dir, "ref.csv")
	if code, _, errs := runCLI(t, append([]string{"batch", "--in", book, "--out", ref}, flags...)...); code != exitRejected {
		t.Fatalf("reference run: exit %d: %s", code, errs)
	}

	out := filepath.Join(dir, "hits.csv")
	child := func(stdin io.Reader, extra ...string) (*exec.Cmd, *bytes.Buffer) {
		args := append([]string{"-test.run=^TestBatchHelperProcess$", "--", "batch", "--in", "-", "--out", out}, flags...)
		cmd := exec.Command(os.Args[0], append(args, extra...)...)
		cmd.Env = append(os.Environ(), "AMLSCREEN_BATCH_HELPER=1")
		cmd.Stdin = stdin
		var errb bytes.Buffer
		cmd.Stderr = &errb
		return cmd, &errb
	}

	// The first run gets half the book and waits for more; once it has
	// checkpointed, it is interrupted.
	// An OS pipe, not an io.Pipe: the child reads it directly, so no copying
	// goroutine of os/exec waits for its end.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd, errb := child(pr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	lines := bytes.SplitAfter(b.Bytes(), []byte("\n"))
	go pw.Write(bytes.Join(lines[:1+fed], nil))
	deadline := time.Now().Add(30 * time.Second)
	for {
		var cp struct {
			NextRow int64 `json:"next_row"`
		}
		if data, err := os.ReadFile(out + ".checkpoint"); err == nil && json.Unmarshal(data, &cp) == nil && cp.NextRow >= int64(4*every) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no checkpoint past row %d after 30 s; stderr: %s", 4*every, errb)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	pw.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitError || !strings.Contains(errb.String(), "--resume") {
		t.Fatalf("interrupted run: %v, stderr %q", err, errb)
	}
	partial, _ := os.ReadFile(out)
	var cp struct {
		NextRow int `json:"next_row"`
	}
	if err := json.Unmarshal(mustRead(t, out+".checkpoint"), &cp); err != nil || cp.NextRow < 1 || cp.NextRow >= rows {
		t.Fatalf("checkpoint after the interrupt: next row %d, %v", cp.NextRow, err)
	}

	// The second run gets the whole book again and resumes. The rows the
	// checkpoint covers are renamed to names no record holds: a run that
	// screened them again, instead of resuming after them, would lose
	// their hits and differ from the uninterrupted run.
	again := bytes.Clone(lines[0])
	for i, line := range lines[1:] {
		if i < cp.NextRow {
			r, err := csv.NewReader(bytes.NewReader(line)).Read()
			if err != nil {
				t.Fatal(err)
			}
			var row bytes.Buffer
			w := csv.NewWriter(&row)
			w.Write([]string{r[0], fmt.Sprintf("Quilbrem%c Zorvak%c", 'a'+i%26, 'a'+i/26%26), r[2]})
			w.Flush()
			line = row.Bytes()
		}
		again = append(again, line...)
	}
	cmd, errb = child(bytes.NewReader(again), "--resume")
	err = cmd.Run()
	if !errors.As(err, &ee) || ee.ExitCode() != exitRejected {
		t.Fatalf("resumed run: %v, stderr %q", err, errb)
	}
	for _, p := range [][2]string{{out, ref}, {filepath.Join(dir, "hits.rejects.csv"), filepath.Join(dir, "ref.rejects.csv")}} {
		got, err1 := os.ReadFile(p[0])
		want, err2 := os.ReadFile(p[1])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s after resume differs from an uninterrupted run (%d vs %d bytes)", filepath.Base(p[0]), len(got), len(want))
		}
	}
	t.Logf("the interrupted run wrote %d bytes of %d", len(partial), len(mustRead(t, ref)))
	if len(partial) == 0 || len(partial) >= len(mustRead(t, ref)) {
		t.Errorf("the interrupted run wrote %d bytes: it was not interrupted mid-book", len(partial))
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
