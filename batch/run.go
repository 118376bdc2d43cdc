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
	"github.com/amlscreen/amlscreen/query"
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
	// Sink, when set, receives every row's hits as well (see HitSink).
	Sink HitSink
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
	found []Found      // rows with hits, when a sink takes them
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
	r, err := newRun(cfg)
	if err != nil {
		return nil, err
	}
	defer r.closeFiles()
	if err := r.openInput(); err != nil {
		return nil, err
	}
	if err := r.loadCheckpoint(); err != nil {
		return nil, err
	}
	if err := r.openOutputs(); err != nil {
		return nil, err
	}
	runErr := r.screen(ctx)
	return r.finish(runErr)
}

// run is one Run on its way through its phases: setting up (newRun,
// openInput, loadCheckpoint, openOutputs), screening (screen) and writing
// the end of the outputs (finish).
type run struct {
	cfg        Config
	rejPath    string
	reportPath string
	supPath    string // "" unless decisions apply
	workers    int
	every      int

	input   *os.File    // nil for standard input
	inputFI os.FileInfo // of input, for the settings
	counter *countingReader
	size    int64
	rd      *Reader

	cpPath   string
	cp       *checkpoint
	resuming bool
	out, rej *output
	sup      *output // nil unless decisions apply
	sum      *Summary

	// Where the run stands: the time this run started, the time of the
	// runs before it, the counts and the next row and line to read.
	start  time.Time
	base   time.Duration
	counts Counts
	next   int64
	line   int
}

// newRun checks cfg and settles the paths and defaults it leaves open.
func newRun(cfg Config) (*run, error) {
	if cfg.Index == nil {
		return nil, errors.New("batch: no index to screen against")
	}
	if cfg.Out == "" {
		return nil, errors.New("batch: no hits file given")
	}
	if err := query.Validate(query.Query{Names: "x", Match: cfg.Match, MinScore: cfg.MinScore}); err != nil {
		return nil, &SetupError{fmt.Errorf("batch: %w", err)}
	}
	r := &run{cfg: cfg, rejPath: cfg.Rejects, reportPath: cfg.Report, workers: cfg.Workers, every: cfg.CheckpointEvery}
	if r.rejPath == "" {
		r.rejPath = DefaultRejectsPath(cfg.Out)
	}
	if r.reportPath == "" {
		r.reportPath = DefaultReportPath(cfg.Out)
	}
	if cfg.Decide != nil {
		r.supPath = cfg.Suppressed
		if r.supPath == "" {
			r.supPath = DefaultSuppressedPath(cfg.Out)
		}
	}
	if err := distinctPaths(cfg.Input, cfg.Out, r.rejPath, r.reportPath, r.supPath); err != nil {
		return nil, &SetupError{err}
	}
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if r.every <= 0 {
		r.every = DefaultCheckpointEvery
	}
	r.cpPath = CheckpointPath(cfg.Out)
	return r, nil
}

// closeFiles closes what the run opened; on success finish has closed the
// outputs already, and closing again does no harm.
func (r *run) closeFiles() {
	if r.input != nil {
		r.input.Close()
	}
	if r.out != nil {
		r.out.f.Close()
	}
	if r.rej != nil {
		r.rej.f.Close()
	}
	if r.sup != nil {
		r.sup.f.Close()
	}
}

// openInput opens the book and its reader, which reads the header.
func (r *run) openInput() error {
	var in io.Reader = os.Stdin
	if r.cfg.Input != "-" {
		f, err := os.Open(r.cfg.Input)
		if err != nil {
			return err
		}
		r.input = f
		if r.inputFI, err = f.Stat(); err != nil {
			return err
		}
		r.size = r.inputFI.Size()
		in = f
	}
	r.counter = &countingReader{r: in}
	rd, err := NewReader(r.counter, r.cfg.Read)
	if err != nil {
		return &SetupError{fmt.Errorf("read %s: %w", r.cfg.Input, err)}
	}
	r.rd = rd
	return nil
}

// minScore is the threshold of a scored run, the default filled in.
func (s *Screener) minScore() float64 {
	if s.MinScore == 0 {
		return query.DefaultMinScore
	}
	return s.MinScore
}

// settings are the values a resumed run must share with the run it
// continues: the input (by path, size and time), how it is read, the
// query, the shard, the database and the outputs.
func (r *run) settings() map[string]string {
	inputID := "standard input"
	if st := r.inputFI; st != nil {
		abs, _ := filepath.Abs(r.cfg.Input)
		inputID = fmt.Sprintf("%s size %d modified %s", abs, st.Size(), st.ModTime().UTC().Format(time.RFC3339Nano))
	}
	cfg, rd := &r.cfg, r.rd
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
		"rejects":  r.rejPath,
		"sources":  sourceList(cfg.Sources),
	}
	if r.supPath != "" {
		settings["suppressed"] = r.supPath
	}
	// Only a scored run names its mode, so that the checkpoint of a strict
	// run of an earlier version still resumes; a scored checkpoint resumed
	// strict, or the reverse, differs in "match".
	if cfg.Match == query.Scored {
		settings["match"] = cfg.Match.String()
		settings["min_score"] = strconv.FormatFloat(cfg.minScore(), 'f', -1, 64)
	}
	for k, v := range cfg.Settings {
		settings["x-"+k] = v
	}
	return settings
}

// loadCheckpoint reads the checkpoint a resumed run continues from, which
// must have been written with the same settings, or starts a new one.
func (r *run) loadCheckpoint() error {
	settings := r.settings()
	var cp *checkpoint
	var err error
	if r.cfg.Resume {
		cp, err = readCheckpoint(r.cpPath)
		if errors.Is(err, os.ErrNotExist) {
			cp, err = nil, nil
		}
		if err != nil {
			return err
		}
		if cp != nil {
			if m := cp.mismatch(settings); m != "" {
				return &SetupError{fmt.Errorf("cannot resume from %s: %s; run again without --resume", r.cpPath, m)}
			}
		}
	}
	r.resuming = cp != nil
	if !r.resuming {
		cp = &checkpoint{Settings: settings}
		if err := removeCheckpoint(r.cpPath); err != nil {
			return err
		}
	}
	cp.Counts.init()
	r.cp = cp
	return nil
}

// openOutputs creates the hits and rejects files, or cuts them back to the
// checkpoint on resume, and starts the summary and the clock.
func (r *run) openOutputs() error {
	cfg, cp := &r.cfg, r.cp
	var header []byte
	if cfg.Format == CSVOutput {
		header = csvHeader(hitHeader(cfg.Match == query.Scored, r.supPath != ""))
	}
	var err error
	if r.out, err = openOutput(cfg.Out, header, r.resuming, cp.OutOffset); err != nil {
		return err
	}
	if r.rej, err = openOutput(r.rejPath, csvHeader(RejectColumns), r.resuming, cp.RejectsOffset); err != nil {
		return err
	}
	if r.supPath != "" {
		if r.sup, err = openOutput(r.supPath, header, r.resuming, cp.SuppressedOffset); err != nil {
			return err
		}
	}
	r.sum = &Summary{SuppressedFile: r.supPath,
		Input: cfg.Input, Output: cfg.Out, Rejects: r.rejPath, Database: cfg.Database,
		Fuzzy: cfg.Fuzzy, Match: cfg.Match, MinScore: cfg.minScore(), Shard: cfg.Shard, ResumedAt: cp.NextRow,
	}
	if r.reportPath != "-" {
		r.sum.Report = r.reportPath
	}
	r.start = time.Now()
	r.base = time.Duration(cp.ElapsedNS)
	r.counts = cp.Counts
	r.next, r.line = cp.NextRow, cp.Line
	return nil
}

// save makes the outputs durable and writes the checkpoint of where the
// run stands.
func (r *run) save() error {
	cp := r.cp
	var err error
	if cp.OutOffset, err = r.out.sync(); err != nil {
		return fmt.Errorf("write %s: %w", r.cfg.Out, err)
	}
	if cp.RejectsOffset, err = r.rej.sync(); err != nil {
		return fmt.Errorf("write %s: %w", r.rejPath, err)
	}
	if r.sup != nil {
		if cp.SuppressedOffset, err = r.sup.sync(); err != nil {
			return fmt.Errorf("write %s: %w", r.supPath, err)
		}
	}
	if r.cfg.Sink != nil {
		if err := r.cfg.Sink.Flush(); err != nil {
			return fmt.Errorf("hits sink: %w", err)
		}
	}
	cp.NextRow, cp.Line, cp.Counts = r.next, r.line, r.counts
	cp.ElapsedNS = int64(r.base + time.Since(r.start))
	return writeCheckpoint(r.cpPath, cp)
}

// screen runs the pipeline: one reader, workers, and this goroutine
// writing batches in input order. order's capacity bounds the batches in
// flight, and so the memory. It returns what ended the run early: an
// interruption, a read, screening or write error; nil when every row was
// written.
func (r *run) screen(ctx context.Context) error {
	jobs := make(chan *job)
	order := make(chan *job, 2*r.workers)
	stop := make(chan struct{})
	go func() {
		// Not waited for: on an interruption it may sit in a read of
		// standard input that only the other end of the pipe can end. It
		// touches nothing but the reader, and leaves at its next row.
		defer close(order)
		defer close(jobs)
		produce(r.rd, r.cp.NextRow, r.cfg.Shard, jobs, order, stop)
	}()
	var wg sync.WaitGroup
	for range r.workers {
		wg.Go(func() {
			for {
				select {
				case b, ok := <-jobs:
					if !ok {
						return
					}
					work(&r.cfg.Screener, r.cfg.Format, r.cfg.Sink != nil, b)
					close(b.done)
				case <-stop:
					return
				}
			}
		})
	}
	err := r.write(ctx, order)
	close(stop)
	// Workers finish the batch they hold; they never touch the files, so
	// this costs at most a batch.
	wg.Wait()
	return err
}

// write appends the batches of order to the outputs in input order,
// counting them and writing checkpoints, until order is closed or the run
// ends early.
func (r *run) write(ctx context.Context, order <-chan *job) error {
	sinceSave, lastSave := 0, time.Now()
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
			return fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err())
		}
		if !more {
			return nil
		}
		if b.err != nil {
			return b.err
		}
		if err := r.out.w.write(b.out.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", r.cfg.Out, err)
		}
		if err := r.rej.w.write(b.rej.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", r.rejPath, err)
		}
		if r.sup != nil {
			if err := r.sup.w.write(b.sup.Bytes()); err != nil {
				return fmt.Errorf("write %s: %w", r.supPath, err)
			}
		}
		if r.cfg.Sink != nil && len(b.found) > 0 {
			if err := r.cfg.Sink.Add(b.found); err != nil {
				return fmt.Errorf("hits sink: %w", err)
			}
			b.found = nil
		}
		b.cnt.RowsOtherShards = b.other
		r.counts.add(&b.cnt)
		r.next = max(r.next, b.end)
		if b.line > 0 {
			r.line = b.line
		}
		sinceSave += b.n + int(b.other)
		if sinceSave >= r.every || time.Since(lastSave) >= CheckpointInterval {
			if err := r.save(); err != nil {
				return err
			}
			sinceSave, lastSave = 0, time.Now()
		}
		if r.cfg.Progress != nil {
			r.cfg.Progress(Progress{Counts: r.counts, NextRow: r.next, BytesRead: r.counter.n.Load(), BytesTotal: r.size,
				Elapsed: time.Since(r.start), StartRow: r.sum.ResumedAt})
		}
	}
}

// finish completes the summary. A run that ended early saves its
// checkpoint; a complete one closes the outputs, refuses a book without
// rows, writes the report and removes the checkpoint.
func (r *run) finish(runErr error) (*Summary, error) {
	sum := r.sum
	sum.Counts = r.counts
	sum.Duration = r.base + time.Since(r.start)
	if runErr != nil {
		sum.Interrupted = true
		if err := r.save(); err != nil {
			return sum, errors.Join(runErr, err)
		}
		return sum, runErr
	}
	if err := r.out.close(); err != nil {
		return sum, fmt.Errorf("write %s: %w", r.cfg.Out, err)
	}
	if err := r.rej.close(); err != nil {
		return sum, fmt.Errorf("write %s: %w", r.rejPath, err)
	}
	if r.sup != nil {
		if err := r.sup.close(); err != nil {
			return sum, fmt.Errorf("write %s: %w", r.supPath, err)
		}
	}
	// The producer has returned (order is closed), so the reader is still.
	sum.LinesRead, sum.BlankLines = int64(r.rd.Lines()), int64(r.rd.BlankLines())
	if r.counts.RowsRead+r.counts.RowsOtherShards == 0 {
		// A book of nothing but a header and blank lines screened no one:
		// that is an error, not a clean result.
		if err := removeCheckpoint(r.cpPath); err != nil {
			return sum, err
		}
		return sum, fmt.Errorf("%w: %s has %d line(s), %d of them blank, and no customer rows", ErrNoRows, r.cfg.Input, sum.LinesRead, sum.BlankLines)
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
	if r.cfg.Sink != nil {
		if err := r.cfg.Sink.Flush(); err != nil {
			return sum, fmt.Errorf("hits sink: %w", err)
		}
	}
	if err := removeCheckpoint(r.cpPath); err != nil {
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

// work screens a batch and encodes its output; collect keeps the rows
// with hits for the sink.
func work(s *Screener, format OutputFormat, collect bool, b *job) {
	enc := newEncoder(format, &b.out, &b.rej)
	enc.scored = s.Match == query.Scored
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
		if collect && len(res.Hits) > 0 {
			b.found = append(b.found, Found{Row: *row, Hits: res.Hits})
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
