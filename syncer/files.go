package syncer

import (
	"errors"
	"fmt"
	"io"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/klauspost/compress/gzip"
)

// ImportFile replaces the records of db with the consolidated file read
// from r (JSON Lines, plain or gzip, keys in either casing) and makes
// version current, in one transaction. A line that does not parse stops the
// import with its line number (a *record.LineError in the chain) and
// nothing of the file is applied.
func ImportFile(db *store.Store, r io.Reader, version string, hook store.Hook) (*store.Applied, error) {
	rs, err := newRecordStream(r)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", version, err)
	}
	defer rs.Close()
	var applied *store.Applied
	err = db.ReplaceAll(version, rs.Next, func(tx *store.Tx, a *store.Applied) error {
		applied = a
		if hook != nil {
			return hook(tx, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
}

// ReadChanges reads a whole delta file (JSON Lines of changes, plain or
// gzip). It stops at the first bad line with a *record.LineError naming
// it: an unknown change type, a record without id, JSON that does not
// parse.
func ReadChanges(r io.Reader) ([]record.Change, error) {
	rd, err := record.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var out []record.Change
	for {
		c, err := rd.Change()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *c)
	}
}

// ApplyFile applies the delta file read from r to db, which must be at
// previous, and makes version current, in one transaction; a bad line
// applies nothing.
func ApplyFile(db *store.Store, r io.Reader, previous, version string, hook store.Hook) (*store.Applied, error) {
	changes, err := ReadChanges(r)
	if err != nil {
		return nil, fmt.Errorf("read delta %s: %w", version, err)
	}
	return db.ApplyDelta(previous, version, changes, hook)
}

// ExportOptions controls ExportFile and ExportDelta.
type ExportOptions struct {
	Gzip bool // compress the output
	// Progress, when set, is told of every record or change written.
	Progress ProgressBar
}

// ExportFile writes the store's records to w as a consolidated file, as
// getConsolidatedFile serves one: camelCase JSON Lines with list_date. It
// returns the version the records are at, which the receiving side passes
// to import, and the number of records written.
func ExportFile(db *store.Store, w io.Writer, o ExportOptions) (string, int, error) {
	out, finish := exportWriter(w, o)
	var buf []byte
	n := 0
	bar := o.Progress
	if bar == nil {
		bar = noBar{}
	}
	v, err := db.LoadAll(func(r *record.Record) error {
		buf = append(r.Append(buf[:0], record.WriteOptions{Case: record.Camel}), '\n')
		n++
		bar.Add64(1)
		_, err := out.Write(buf)
		return err
	})
	if err == nil {
		err = finish()
	}
	if err != nil {
		return "", 0, fmt.Errorf("export: %w", err)
	}
	return v.ID, n, nil
}

// ExportDelta writes the changes from version since to the current one as
// a delta file, as getConsolidatedDelta serves one. It returns the current
// version and the number of changes; an error wrapping
// store.ErrUnknownVersion means the store cannot answer from since, and a
// full export is needed.
func ExportDelta(db *store.Store, w io.Writer, since string, o ExportOptions) (string, int, error) {
	changes, current, err := db.ChangesSince(since)
	if err != nil {
		return "", 0, fmt.Errorf("export delta: %w", err)
	}
	out, finish := exportWriter(w, o)
	bar := o.Progress
	if bar == nil {
		bar = noBar{}
	}
	var buf []byte
	for i := range changes {
		bar.Add64(1)
		buf = append(changes[i].Append(buf[:0]), '\n')
		if _, err := out.Write(buf); err != nil {
			return "", 0, fmt.Errorf("export delta: %w", err)
		}
	}
	if err := finish(); err != nil {
		return "", 0, fmt.Errorf("export delta: %w", err)
	}
	return current, len(changes), nil
}

func exportWriter(w io.Writer, o ExportOptions) (io.Writer, func() error) {
	if !o.Gzip {
		return w, func() error { return nil }
	}
	gz := gzip.NewWriter(w)
	return gz, gz.Close
}
