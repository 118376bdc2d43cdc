package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
)

// resumeCustomers is the start of the shared generated book, with a bad
// date on every 97th customer that is not an entity.
var resumeCustomers = sync.OnceValue(func() []customer {
	book := slices.Clone(sharedBook()[:1200])
	for i := range book {
		if i%97 == 5 && book[i].kind != "entity" {
			book[i].dob = "31/02/1980"
		}
	}
	return book
})

// writeResumeBook writes a generated book of 1,200 customers with a bad
// date on every 97th one that is not an entity, so that rejects are
// resumed too.
func writeResumeBook(t *testing.T) (string, *engine.Index) {
	t.Helper()
	_, ix := mustSample(t)
	in := filepath.Join(t.TempDir(), "book.csv")
	writeBook(t, in, resumeCustomers())
	return in, ix
}

type runFiles struct {
	hits, rejects []byte
	sum           *Summary
}

// runTo screens in into out; when stopAt > 0 the context is cancelled once
// that many rows are done.
func runTo(t *testing.T, cfg Config, stopAt int64) (*Summary, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if stopAt > 0 {
		cfg.Progress = func(p Progress) {
			if p.NextRow >= stopAt {
				cancel()
			}
		}
	}
	return Run(ctx, cfg)
}

func files(t *testing.T, out string, sum *Summary) runFiles {
	t.Helper()
	return runFiles{hits: readFile(t, out), rejects: readFile(t, DefaultRejectsPath(out)), sum: sum}
}

func sameFiles(t *testing.T, what string, got, want runFiles) {
	t.Helper()
	if !bytes.Equal(got.hits, want.hits) {
		t.Errorf("%s: hits differ from an uninterrupted run (%d vs %d bytes)", what, len(got.hits), len(want.hits))
	}
	if !bytes.Equal(got.rejects, want.rejects) {
		t.Errorf("%s: rejects differ from an uninterrupted run (%d vs %d bytes)", what, len(got.rejects), len(want.rejects))
	}
	g, w := got.sum.Counts, want.sum.Counts
	if fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("%s: counts differ:\n got %+v\nwant %+v", what, g, w)
	}
}

// TestResumeAfterInterrupt stops runs at several points by cancelling
// their context, as SIGINT does in the CLI, and resumes them: the hits,
// the rejects and the counts must equal those of a run never stopped.
func TestResumeAfterInterrupt(t *testing.T) {
	in, ix := writeResumeBook(t)
	for _, format := range []OutputFormat{CSVOutput, JSONLOutput} {
		t.Run(format.String(), func(t *testing.T) {
			dir := t.TempDir()
			base := Config{Screener: Screener{Index: ix}, Input: in, Format: format, Workers: 3, CheckpointEvery: 500}
			ref := base
			ref.Out = filepath.Join(dir, "ref."+format.String())
			sum, err := Run(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			want := files(t, ref.Out, sum)
			if sum.RowsRejected == 0 || sum.Hits == 0 {
				t.Fatalf("the book has %d rejects and %d hits; the test needs both", sum.RowsRejected, sum.Hits)
			}
			scenarios := [][]int64{{1}, {500}, {300, 800}, {1000}}
			if format == JSONLOutput {
				scenarios = [][]int64{{300, 800}}
			}
			for _, stops := range scenarios {
				cfg := base
				cfg.Out = filepath.Join(dir, fmt.Sprintf("hits-%v.%s", stops, format))
				for i, stop := range stops {
					cfg.Resume = i > 0
					sum, err := runTo(t, cfg, stop)
					if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
						t.Fatalf("stop at %d: %v", stop, err)
					}
					if !sum.Interrupted {
						t.Errorf("stop at %d: summary not marked interrupted", stop)
					}
					if _, err := os.Stat(CheckpointPath(cfg.Out)); err != nil {
						t.Fatalf("stop at %d: no checkpoint: %v", stop, err)
					}
				}
				cfg.Resume = true
				sum, err := Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if sum.ResumedAt == 0 {
					t.Errorf("stops %v: the last run did not resume", stops)
				}
				sameFiles(t, fmt.Sprintf("stops %v", stops), files(t, cfg.Out, sum), want)
				if _, err := os.Stat(CheckpointPath(cfg.Out)); !os.IsNotExist(err) {
					t.Errorf("stops %v: checkpoint left after the end", stops)
				}
			}
		})
	}
}

// TestResumeAfterCrash: a process killed between checkpoints leaves more
// output than its last checkpoint covers, possibly a half-written line.
// Resuming cuts that off and screens those rows again.
func TestResumeAfterCrash(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	cfg := Config{Screener: Screener{Index: ix}, Input: in, Workers: 2, CheckpointEvery: 400}
	ref := cfg
	ref.Out = filepath.Join(dir, "ref.csv")
	sum, err := Run(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	want := files(t, ref.Out, sum)

	cfg.Out = filepath.Join(dir, "hits.csv")
	if _, err := runTo(t, cfg, 400); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	early := readFile(t, CheckpointPath(cfg.Out))
	cfg.Resume = true
	if _, err := runTo(t, cfg, 900); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	// The crash: the files went on past the checkpoint, which is the
	// earlier one, and end mid-line.
	if err := os.WriteFile(CheckpointPath(cfg.Out), early, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cfg.Out, DefaultRejectsPath(cfg.Out)} {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("1199,K001199,half a li")
		f.Close()
	}
	sum, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "after a crash", files(t, cfg.Out, sum), want)
}

func TestResumeRefusesOtherSettings(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	cfg := Config{Screener: Screener{Index: ix}, Input: in, Out: filepath.Join(dir, "hits.csv"), CheckpointEvery: 300}
	if _, err := runTo(t, cfg, 600); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	cfg.Resume = true
	cfg.Fuzzy = 1
	_, err := Run(context.Background(), cfg)
	var se *SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "fuzzy") {
		t.Fatalf("resume at another fuzzy level: %v", err)
	}
	// A hits file shorter than the checkpoint says was changed by hand.
	cfg.Fuzzy = 0
	if err := os.Truncate(cfg.Out, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "shorter") {
		t.Fatalf("resume onto a truncated hits file: %v", err)
	}
}

// TestResumeWithoutCheckpointStartsOver: --resume on a finished run (or one
// that never started) screens the whole book again, to the same result.
func TestResumeWithoutCheckpointStartsOver(t *testing.T) {
	ix := mustFixtureIndex(t)
	dir := t.TempDir()
	cfg := Config{Screener: Screener{Index: ix, Fuzzy: 1}, Input: "testdata/book.csv", Out: filepath.Join(dir, "hits.csv")}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := files(t, cfg.Out, sum)
	cfg.Resume = true
	sum, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ResumedAt != 0 {
		t.Errorf("resumed at %d without a checkpoint", sum.ResumedAt)
	}
	sameFiles(t, "resume without checkpoint", files(t, cfg.Out, sum), want)
}

// TestOutputIndependentOfWorkers: one worker or many, the files are the
// same bytes.
func TestOutputIndependentOfWorkers(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	var first []byte
	for _, w := range []int{1, 2, 7} {
		out := filepath.Join(dir, fmt.Sprintf("hits%d.csv", w))
		if _, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: out, Workers: w}); err != nil {
			t.Fatal(err)
		}
		got := readFile(t, out)
		if first == nil {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Errorf("%d workers write other hits than 1", w)
		}
	}
}

// TestShardsCoverTheBook: the shards of a book together screen every row
// once, and their hits are those of the whole book.
func TestShardsCoverTheBook(t *testing.T) {
	in, ix := writeResumeBook(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	sum, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: whole})
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSpace(string(readFile(t, whole))), "\n")[1:]
	var gotLines []string
	var rows, rejected int64
	for i := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("shard%d.csv", i))
		s, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: in, Out: out, Shard: Shard{I: i, N: 3}})
		if err != nil {
			t.Fatal(err)
		}
		rows += s.RowsRead
		rejected += s.RowsRejected
		if s.RowsRead+s.RowsOtherShards != sum.RowsRead {
			t.Errorf("shard %d: %d rows + %d of other shards != %d", i, s.RowsRead, s.RowsOtherShards, sum.RowsRead)
		}
		gotLines = append(gotLines, strings.Split(strings.TrimSpace(string(readFile(t, out))), "\n")[1:]...)
	}
	slices.Sort(gotLines)
	slices.Sort(wantLines)
	if rows != sum.RowsRead || rejected != sum.RowsRejected || !slices.Equal(gotLines, wantLines) {
		t.Errorf("shards read %d rows (%d rejected) and %d hits; the whole book %d (%d) and %d", rows, rejected, len(gotLines), sum.RowsRead, sum.RowsRejected, len(wantLines))
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1/0", "1", "a/b", ""} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

func TestRunRefusesToOverwriteInput(t *testing.T) {
	ix := mustFixtureIndex(t)
	_, err := Run(context.Background(), Config{Screener: Screener{Index: ix}, Input: "testdata/book.csv", Out: "testdata/book.csv"})
	var se *SetupError
	if !errors.As(err, &se) {
		t.Fatalf("out = in: %v", err)
	}
}
