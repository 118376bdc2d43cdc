package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/live"
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
	index := live.Follow(db, log)
	db.OnChange(monitorHook(index, log))
	db.OnChange(casework.New(db, casework.Options{}).Hook) // reopens the alerts of changed records
	return db, nil
}

// intoStore opens the input file (with a progress bar on a terminal) and
// the store for writing, and hands both to load: the shared part of
// import and apply. The store logs through the CLI's logger, so that the
// full-import guard's lines look like the command's own.
func intoStore(stderr io.Writer, storePath, file, label string, opts store.Options, load func(db *store.Store, r io.Reader) error) error {
	in, size, err := openInput(file)
	if err != nil {
		return err
	}
	defer in.Close()
	if opts.Log == nil {
		opts.Log = cliLogger(stderr)
	}
	db, err := openStoreToWrite(storePath, opts)
	if err != nil {
		return err
	}
	defer db.Close()
	bar := newProgress(stderr, label, size, progressUnitBytes)
	err = load(db, syncer.NewProgressReader(in, bar))
	bar.Finish()
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
