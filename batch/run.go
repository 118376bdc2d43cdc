package batch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/amlscreen/amlscreen/outfile"
)

// Shard selects the rows of one process of several that share a book:
// rows whose Index modulo N is I. The zero value selects every row.
type Shard struct{ I, N int }

// ParseShard reads "i/n" with 0 ≤ i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q is not i/n", s)
	}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%q: need 0 ≤ i < n", s)
	}
	return Shard{I: i, N: n}, nil
}

// String writes the shard as ParseShard reads it; every row is 0/1.
func (s Shard) String() string {
	if s.N <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Has reports whether the row with index idx belongs to the shard.
func (s Shard) Has(idx int64) bool { return s.N <= 1 || idx%int64(s.N) == int64(s.I) }

// Config says what to screen, against what, and where the results go.
type Config struct {
	Screener
	// Input is the book's path; "-" reads standard input.
	Input string
	Read  ReadOptions
	// Out is the hits file, written in Format.
	Out    string
	Format OutputFormat
	// Rejects is the rejects file; "" means DefaultRejectsPath(Out).
	Rejects string
	// Report is the Markdown report; "" means DefaultReportPath(Out), "-"
	// writes none.
	Report string
	// Suppressed is where the hits that decisions suppress go when the
	// Screener applies decisions; "" means DefaultSuppressedPath(Out).
	Suppressed string
	// Workers screening in parallel; 0 means one per CPU.
	Workers int
	Shard   Shard
	// Resume continues from the checkpoint next to Out, if there is one.
	Resume bool
	// CheckpointEvery is how many rows pass between checkpoints; 0 means
	// DefaultCheckpointEvery. A checkpoint is also written at least every
	// CheckpointInterval, and when the run is interrupted.
	CheckpointEvery int
	// Database describes what is screened against, for the report; it is
	// part of the settings a resume must match, so name the version in it.
	Database string
	// Settings are further values a resume must match (source selection,
	// --since), kept in the checkpoint.
	Settings map[string]string
	// Progress, when set, is called from one goroutine after every batch
	// of rows written; it must be quick.
	Progress func(Progress)
}

// Progress is a run's state, for a progress display. The maps of its
// Counts are the run's own: a callback reads them during the call and
// keeps no reference to them.
type Progress struct {
	Counts // the whole book so far, resumed parts included
	// NextRow is the index of the next row to read.
	NextRow int64
	// BytesRead and BytesTotal measure how far through the input file this
	// run has read; BytesTotal is 0 for standard input.
	BytesRead, BytesTotal int64
	// Elapsed is the time this run has taken, StartRow where it started.
	Elapsed  time.Duration
	StartRow int64
}

// DefaultCheckpointEvery is the number of rows between checkpoints: with
// an fsync each, a few per second at full speed.
const DefaultCheckpointEvery = 10000

// CheckpointInterval bounds the time between checkpoints, so that a slow
// run (fuzzy 2 on a large database) loses little to a crash.
const CheckpointInterval = 5 * time.Second

// batchSize is the rows one worker screens at a time: large enough to
// amortise channel hand-offs, small enough for fine checkpoints.
const batchSize = 256

// ErrInterrupted is returned (wrapped with the context's error) by a run
// stopped by its context; the checkpoint then lets it resume.
var ErrInterrupted = errors.New("interrupted")

// SetupError is a run refused before any row was screened because of what
// it was asked to do: a book without a name column, a mapping naming a
// column the header lacks, a checkpoint that belongs to another run. The
// CLI answers it as a usage error.
type SetupError struct{ Err error }

// Error returns the message of the underlying error.
func (e *SetupError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *SetupError) Unwrap() error { return e.Err }

// job is a batch of rows on its way through the pipeline.
type job struct {
	rows []Row
	n    int // rows screened, kept after rows is released
	// end is the index of the first row after the batch, skipped rows of
	// other shards included.
	end   int64
	line  int
	other int64 // rows of other shards passed over
	out   bytes.Buffer
	rej   bytes.Buffer
	sup   bytes.Buffer // suppressed hits, when decisions apply
	cnt   Counts
	err   error
	done  chan struct{}
}

// countingReader counts the bytes read through it, for progress.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// countingWriter knows the offset of everything written through it.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) write(b []byte) error {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return err
}

// output is one of the two files a run appends to.
type output struct {
	f *os.File
	w *countingWriter
}

// openOutput creates path (with header), or on resume truncates it to
// offset and appends there.
func openOutput(path string, header []byte, resume bool, offset int64) (*output, error) {
	var f *os.File
	var err error
	if resume {
		f, err = os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return nil, fmt.Errorf("resume: %w", err)
		}
		st, err := f.Stat()
		if err == nil && st.Size() < offset {
			err = fmt.Errorf("%s is shorter (%d bytes) than its checkpoint says (%d): it was changed or lost writes; run again without --resume", path, st.Size(), offset)
		}
		if err == nil {
			err = f.Truncate(offset)
		}
		if err == nil {
			_, err = f.Seek(offset, io.SeekStart)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("resume %s: %w", path, err)
		}
	} else {
		f, err = os.Create(path)
		if err != nil {
			return nil, err
		}
	}
	o := &output{f: f, w: &countingWriter{w: bufio.NewWriterSize(f, 256<<10), n: offset}}
	if !resume && len(header) > 0 {
		if err := o.w.write(header); err != nil {
			f.Close()
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
	}
	return o, nil
}

// sync makes everything written so far durable, and returns its length.
func (o *output) sync() (int64, error) {
	if err := o.w.w.Flush(); err != nil {
		return 0, err
	}
	if err := o.f.Sync(); err != nil {
		return 0, err
	}
	return o.w.n, nil
}

func (o *output) close() error {
	err := o.w.w.Flush()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ErrNoRows is the error of a run over a book without a single customer
// row: empty, a header alone, or blank lines.
var ErrNoRows = errors.New("the book has no rows to screen")

// Run screens the book cfg.Input and writes the hits, the rejects and the
// report. Rows are screened on cfg.Workers goroutines and written in input
// order; memory stays flat whatever the book's size, since at most a few
// batches per worker are in flight.
//
// When ctx is cancelled, Run writes a checkpoint after the last batch
// written and returns the summary so far with an error wrapping
// ErrInterrupted; a run with Resume set then continues from there and
// produces the same files as a run that was never interrupted. Resuming
// after a crash works the same from the last periodic checkpoint: what was
// written after it is cut off and screened again.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Index == nil {
		return nil, errors.New("batch: no index to screen against")
	}
	if cfg.Out == "" {
		return nil, errors.New("batch: no hits file given")
	}
	rejPath := cfg.Rejects
	if rejPath == "" {
		rejPath = DefaultRejectsPath(cfg.Out)
	}
	reportPath := cfg.Report
	if reportPath == "" {
		reportPath = DefaultReportPath(cfg.Out)
	}
	decisions := cfg.Decide != nil
	supPath := ""
	if decisions {
		supPath = cfg.Suppressed
		if supPath == "" {
			supPath = DefaultSuppressedPath(cfg.Out)
		}
	}
	if err := distinctPaths(cfg.Input, cfg.Out, rejPath, reportPath, supPath); err != nil {
		return nil, &SetupError{err}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	every := cfg.CheckpointEvery
	if every <= 0 {
		every = DefaultCheckpointEvery
	}

	var in io.Reader = os.Stdin
	var size int64
	var inputID string
	if cfg.Input != "-" {
		f, err := os.Open(cfg.Input)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		size = st.Size()
		abs, _ := filepath.Abs(cfg.Input)
		inputID = fmt.Sprintf("%s size %d modified %s", abs, size, st.ModTime().UTC().Format(time.RFC3339Nano))
		in = f
	} else {
		inputID = "standard input"
	}
	counter := &countingReader{r: in}
	rd, err := NewReader(counter, cfg.Read)
	if err != nil {
		return nil, &SetupError{fmt.Errorf("read %s: %w", cfg.Input, err)}
	}

	settings := map[string]string{
		"input":    inputID,
		"read":     fmt.Sprintf("%s delimiter %q encoding %s", rd.Format(), rd.Delimiter(), rd.Encoding()),
		"columns":  rd.Columns().String(),
		"fuzzy":    strconv.Itoa(cfg.Fuzzy),
		"limit":    strconv.Itoa(cfg.Limit),
		"type":     cfg.DefaultKind.String(),
		"format":   cfg.Format.String(),
		"shard":    cfg.Shard.String(),
		"database": cfg.Database,
		"rejects":  rejPath,
		"sources":  sourceList(cfg.Sources),
	}
	if decisions {
		settings["suppressed"] = supPath
	}
	for k, v := range cfg.Settings {
		settings["x-"+k] = v
	}

	cpPath := CheckpointPath(cfg.Out)
	var cp *checkpoint
	if cfg.Resume {
		cp, err = readCheckpoint(cpPath)
		if errors.Is(err, os.ErrNotExist) {
			cp, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		if cp != nil {
			if m := cp.mismatch(settings); m != "" {
				return nil, &SetupError{fmt.Errorf("cannot resume from %s: %s; run again without --resume", cpPath, m)}
			}
		}
	}
	resuming := cp != nil
	if !resuming {
		cp = &checkpoint{Settings: settings}
		if err := removeCheckpoint(cpPath); err != nil {
			return nil, err
		}
	}
	cp.Counts.init()
	var hitHeader []byte
	if cfg.Format == CSVOutput {
		hitHeader = csvHeader(HitColumns)
		if decisions {
			hitHeader = csvHeader(append(slices.Clone(HitColumns), DecisionColumns...))
		}
	}
	out, err := openOutput(cfg.Out, hitHeader, resuming, cp.OutOffset)
	if err != nil {
		return nil, err
	}
	defer out.f.Close()
	rej, err := openOutput(rejPath, csvHeader(RejectColumns), resuming, cp.RejectsOffset)
	if err != nil {
		return nil, err
	}
	defer rej.f.Close()
	var sup *output
	if decisions {
		if sup, err = openOutput(supPath, hitHeader, resuming, cp.SuppressedOffset); err != nil {
			return nil, err
		}
		defer sup.f.Close()
	}

	sum := &Summary{SuppressedFile: supPath,
		Input: cfg.Input, Output: cfg.Out, Rejects: rejPath, Database: cfg.Database,
		Fuzzy: cfg.Fuzzy, Shard: cfg.Shard, ResumedAt: cp.NextRow,
	}
	if reportPath != "-" {
		sum.Report = reportPath
	}
	start := time.Now()
	base := time.Duration(cp.ElapsedNS)
	counts := cp.Counts
	next, line := cp.NextRow, cp.Line

	save := func() error {
		var err error
		if cp.OutOffset, err = out.sync(); err != nil {
			return fmt.Errorf("write %s: %w", cfg.Out, err)
		}
		if cp.RejectsOffset, err = rej.sync(); err != nil {
			return fmt.Errorf("write %s: %w", rejPath, err)
		}
		if sup != nil {
			if cp.SuppressedOffset, err = sup.sync(); err != nil {
				return fmt.Errorf("write %s: %w", supPath, err)
			}
		}
		cp.NextRow, cp.Line, cp.Counts = next, line, counts
		cp.ElapsedNS = int64(base + time.Since(start))
		return writeCheckpoint(cpPath, cp)
	}

	// The pipeline: one reader, workers, and this goroutine writing
	// batches in input order. order's capacity bounds the batches in
	// flight, and so the memory.
	jobs := make(chan *job)
	order := make(chan *job, 2*workers)
	stop := make(chan struct{})
	go func() {
		// Not waited for: on an interruption it may sit in a read of
		// standard input that only the other end of the pipe can end. It
		// touches nothing but the reader, and leaves at its next row.
		defer close(order)
		defer close(jobs)
		produce(rd, cp.NextRow, cfg.Shard, jobs, order, stop)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case b, ok := <-jobs:
					if !ok {
						return
					}
					work(&cfg.Screener, cfg.Format, b)
					close(b.done)
				case <-stop:
					return
				}
			}
		}()
	}

	var runErr error
	sinceSave, lastSave := 0, time.Now()
loop:
	for {
		// Waiting for the next batch and for its rows both give way to
		// the context: a reader stuck on a quiet pipe must not keep an
		// interrupted run from saving its checkpoint.
		var b *job
		more := true
		select {
		case b, more = <-order:
		case <-ctx.Done():
		}
		if b != nil {
			select {
			case <-b.done:
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			runErr = fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
			break loop
		}
		if !more {
			break loop
		}
		if b.err != nil {
			runErr = b.err
			break loop
		}
		if err := out.w.write(b.out.Bytes()); err != nil {
			runErr = fmt.Errorf("write %s: %w", cfg.Out, err)
			break loop
		}
		if err := rej.w.write(b.rej.Bytes()); err != nil {
			runErr = fmt.Errorf("write %s: %w", rejPath, err)
			break loop
		}
		if sup != nil {
			if err := sup.w.write(b.sup.Bytes()); err != nil {
				runErr = fmt.Errorf("write %s: %w", supPath, err)
				break loop
			}
		}
		b.cnt.RowsOtherShards = b.other
		counts.add(&b.cnt)
		next = max(next, b.end)
		if b.line > 0 {
			line = b.line
		}
		sinceSave += b.n + int(b.other)
		if sinceSave >= every || time.Since(lastSave) >= CheckpointInterval {
			if err := save(); err != nil {
				runErr = err
				break loop
			}
			sinceSave, lastSave = 0, time.Now()
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Counts: counts, NextRow: next, BytesRead: counter.n.Load(), BytesTotal: size,
				Elapsed: time.Since(start), StartRow: sum.ResumedAt})
		}
	}
	close(stop)
	// Workers finish the batch they hold; they never touch the files, so
	// this costs at most a batch.
	wg.Wait()

	sum.Counts = counts
	sum.Duration = base + time.Since(start)
	if runErr != nil {
		sum.Interrupted = true
		if err := save(); err != nil {
			return sum, errors.Join(runErr, err)
		}
		return sum, runErr
	}
	if err := out.close(); err != nil {
		return sum, fmt.Errorf("write %s: %w", cfg.Out, err)
	}
	if err := rej.close(); err != nil {
		return sum, fmt.Errorf("write %s: %w", rejPath, err)
	}
	if sup != nil {
		if err := sup.close(); err != nil {
			return sum, fmt.Errorf("write %s: %w", supPath, err)
		}
	}
	// The producer has returned (order is closed), so the reader is still.
	sum.LinesRead, sum.BlankLines = int64(rd.Lines()), int64(rd.BlankLines())
	if counts.RowsRead+counts.RowsOtherShards == 0 {
		// A book of nothing but a header and blank lines screened no one:
		// that is an error, not a clean result.
		if err := removeCheckpoint(cpPath); err != nil {
			return sum, err
		}
		return sum, fmt.Errorf("%w: %s has %d line(s), %d of them blank, and no customer rows", ErrNoRows, cfg.Input, sum.LinesRead, sum.BlankLines)
	}
	if sum.Report != "" {
		var b bytes.Buffer
		if err := sum.WriteMarkdown(&b); err != nil {
			return sum, err
		}
		// Written like every output of a command: in place when it is
		// standard output or a device (--report /dev/stdout), else
		// renamed into place when complete.
		if err := outfile.WriteFile(sum.Report, b.Bytes(), outfile.Options{}); err != nil {
			return sum, err
		}
	}
	if err := removeCheckpoint(cpPath); err != nil {
		return sum, err
	}
	return sum, nil
}

// produce reads rows into batches, skipping those before from and those of
// other shards, and hands each batch to the workers and, in order, to the
// writer. A read error ends the stream as a batch carrying it.
func produce(rd *Reader, from int64, shard Shard, jobs, order chan<- *job, stop <-chan struct{}) {
	newJob := func() *job { return &job{rows: make([]Row, 0, batchSize), end: from, done: make(chan struct{})} }
	b := newJob()
	send := func(b *job) bool {
		if len(b.rows) > 0 && b.err == nil {
			select {
			case jobs <- b:
			case <-stop:
				return false
			}
		} else {
			close(b.done)
		}
		select {
		case order <- b:
			return true
		case <-stop:
			return false
		}
	}
	for {
		row, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.err = err
			send(b)
			return
		}
		if row.Index < from {
			continue
		}
		b.end = row.Index + 1
		b.line = row.Line
		if !shard.Has(row.Index) {
			b.other++
			continue
		}
		b.rows = append(b.rows, *row)
		if len(b.rows) == batchSize {
			if !send(b) {
				return
			}
			b = newJob()
			b.end = row.Index + 1
		}
	}
	if len(b.rows) > 0 || b.other > 0 {
		send(b)
	}
}

// work screens a batch and encodes its output.
func work(s *Screener, format OutputFormat, b *job) {
	enc := newEncoder(format, &b.out, &b.rej)
	if s.Decide != nil {
		enc.withDecisions(&b.sup)
	}
	b.cnt.init()
	for i := range b.rows {
		row := &b.rows[i]
		res, err := s.Screen(row)
		if err != nil {
			b.err = err
			return
		}
		b.cnt.count(&res)
		if res.Reject != nil {
			if err := enc.reject(res.Reject); err != nil {
				b.err = fmt.Errorf("encode reject of line %d: %w", row.Line, err)
				return
			}
			continue
		}
		for j := range res.Hits {
			if err := enc.hit(&res.Hits[j]); err != nil {
				b.err = err
				return
			}
		}
		for j := range res.Suppressed {
			if err := enc.suppressed(&res.Suppressed[j]); err != nil {
				b.err = err
				return
			}
		}
	}
	if err := enc.flush(); err != nil {
		b.err = fmt.Errorf("encode output: %w", err)
	}
	b.n = len(b.rows)
	b.rows = nil // done with; not held while the batch waits its turn
}

// sourceList renders a source set for the settings: sorted ids, or "all".
func sourceList(set map[string]bool) string {
	if set == nil {
		return "all"
	}
	var ids []string
	for id, ok := range set {
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

// distinctPaths refuses a run that would write over its own input or one
// output over another.
func distinctPaths(input string, outs ...string) error {
	seen := map[string]string{}
	if input != "-" {
		if abs, err := filepath.Abs(input); err == nil {
			seen[abs] = "the input"
		}
	}
	for _, p := range outs {
		if p == "-" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if what, ok := seen[abs]; ok {
			return fmt.Errorf("%s would be both %s and an output", p, what)
		}
		seen[abs] = "an output"
	}
	return nil
}
