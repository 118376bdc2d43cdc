package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// openSource opens the database screening commands answer from: a store
// (opened read-only, so a sync may run alongside), --data files, or the
// embedded sample.
func openSource(dataFiles []string, storePath string) (*screen.Database, error) {
	if storePath != "" {
		if len(dataFiles) > 0 {
			return nil, usagef("--store and --data exclude each other")
		}
		return openStore(storePath)
	}
	if len(dataFiles) == 0 {
		return screen.OpenSample()
	}
	db, err := screen.OpenFiles(dataFiles)
	var fe *screen.FileError
	switch {
	case errors.As(err, &fe):
		return nil, fmt.Errorf("--data %w", err)
	case err != nil:
		return nil, fmt.Errorf("--data: %w", err) // unreadable input: exit 1
	}
	return db, nil
}

// cliCaller is the command line's caller for the default-source rule:
// every source not of type OTHER, plus OTHER ones with --include-other.
func cliCaller(includeOther bool) screen.Caller {
	return screen.Caller{Sources: access.Sources{IncludeOther: includeOther}}
}

// openStore opens the store read-only with its screening index (persisted
// beside it, and caught up or rebuilt when stale). The store stays open
// for the rest of the command: the index reads the records of its hits
// from it.
func openStore(path string) (*screen.Database, error) {
	return openStoreWith(path, store.Options{ReadOnly: true})
}

// openStoreWith is openStore with the store opened with opts, refusing a
// store that holds no records.
func openStoreWith(path string, opts store.Options) (*screen.Database, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	db, err := screen.OpenStore(path, opts)
	if err != nil {
		return nil, err
	}
	if db.Version() == "" {
		db.Close()
		return nil, fmt.Errorf("store %s is empty: run amlscreen sync or amlscreen import first", path)
	}
	return db, nil
}
