package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/service"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

// openInput opens a file argument; "-" is standard input. The size is -1
// when unknown.
func openInput(name string) (io.ReadCloser, int64, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), -1, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		size = -1 // a pipe or a device says 0
	}
	return f, size, nil
}

// openStoreToWrite opens a store for writing records, with monitoring's
// change hook registered: every change set then writes its notifications
// in its own transaction, whichever command makes it. Every command that
// changes records opens its store here (TestEveryWriterNotifies).
func openStoreToWrite(path string, opts store.Options) (*store.Store, error) {
	db, err := store.Open(path, opts)
	if err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	// The persisted screening index is brought to each committed version;
	// monitoring's scored profiles score changed records with it.
	index := screen.Follow(db, log)
	// Notifications, alerts and the book's matches are written in each
	// change's transaction, in the order serve registers them.
	service.Watch{Index: index.Index, Log: log}.Register(db)
	return db, nil
}

// intoStore opens the input file (with a progress bar on a terminal) and
// the store for writing, and hands both to load: the shared part of
// import and apply. The store logs through the CLI's logger, so that the
// full-import guard's lines look like the command's own.
func intoStore(stderr io.Writer, storePath, file, label string, opts store.Options, load func(db *store.Store, r io.Reader) error) error {
	f, size, err := openInput(file)
	if err != nil {
		return err
	}
	defer f.Close()
	// Checked before the store is opened, so that a list given in its
	// own format creates no empty store.
	in := bufio.NewReaderSize(f, 64<<10)
	if err := checkJSONLines(in, label); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if opts.Log == nil {
		opts.Log = cliLogger(stderr)
	}
	_, statErr := os.Stat(storePath)
	created := errors.Is(statErr, os.ErrNotExist)
	db, err := openStoreToWrite(storePath, opts)
	if err != nil {
		return err
	}
	bar := newProgress(stderr, label, size, progressUnitBytes)
	// Once the input is read, the store's commit and the index build
	// take a while (17 s at a million records) with the bar at 100 %:
	// a spinner says what is going on.
	var spin *progressBar
	var once sync.Once
	read := &eofReader{r: syncer.NewProgressReader(in, bar), onEOF: func() {
		once.Do(func() {
			bar.Finish()
			spin = newSpinner(stderr, label+": writing the store and building the screening index")
		})
	}}
	err = load(db, read)
	once.Do(func() {}) // no spinner after load returned
	spin.Finish()
	bar.Finish()
	cerr := db.Close()
	if err != nil {
		if created && cerr == nil {
			// Nothing was applied to a store this command made: leave
			// no empty store behind.
			os.Remove(storePath)
			os.RemoveAll(screen.IndexDir(storePath))
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	return cerr
}

// checkJSONLines looks at the start of an input (gzip or plain) and
// refuses one that is not JSON Lines, such as a list's own CSV or XML,
// saying to convert it first.
func checkJSONLines(in *bufio.Reader, label string) error {
	head, _ := in.Peek(32 << 10)
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return nil // the reader of the load says what is wrong
		}
		head, _ = io.ReadAll(io.LimitReader(zr, 4<<10))
	}
	text := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(text) == 0 || text[0] == '{' {
		return nil
	}
	first, _, _ := bytes.Cut(text, []byte("\n"))
	if len(first) > 60 {
		first = append(first[:60:60], "..."...)
	}
	return fmt.Errorf("not JSON Lines: line 1 starts %q; %s reads consolidated records, one JSON object a line. Convert a list first: amlscreen convert ofac|un|eu|uk|csv ... --out FILE.jsonl.gz (see docs/LISTS.md)", bytes.TrimSpace(first), label)
}

// eofReader calls onEOF when its reader reports io.EOF.
type eofReader struct {
	r     io.Reader
	onEOF func()
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.onEOF()
	}
	return n, err
}
