package conv

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/amlscreen/amlscreen/record"
)

// Converter is the shape of OFAC and UN once their input is bound: it calls
// emit with every record it reads.
type Converter func(emit func(*record.Record) error) error

// WriteJSONL runs conv and writes each record to w as one line of
// consolidated JSON Lines, with the camelCase keys of the service's
// consolidated files, gzip-compressed when gz is set. It returns the number
// of records written.
//
// Every record must pass the consolidated-file rules (CheckRecord), and no
// id may come twice: an import keeps the last of two records with one id,
// so a second one would silently hide the first from screening. Either
// stops the conversion with an error naming the record.
func WriteJSONL(w io.Writer, gz bool, conv Converter) (n int, err error) {
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(w)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	var buf []byte
	seen := map[string]struct{}{}
	err = conv(func(r *record.Record) error {
		if err := CheckRecord(r); err != nil {
			return err
		}
		if _, dup := seen[r.ID]; dup {
			return fmt.Errorf("record id %s comes twice: ids must be unique", r.ID)
		}
		seen[r.ID] = struct{}{}
		buf = r.Append(buf[:0], record.WriteOptions{Case: record.Camel})
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write record %s: %w", r.ID, err)
		}
		n++
		return nil
	})
	if err != nil {
		return n, err
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("write records: %w", err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return n, fmt.Errorf("write records: %w", err)
		}
	}
	return n, nil
}

// CheckRecord reports why r cannot go into a consolidated file: an id that
// breaks the rules (ValidID), no source_id, no name, or what
// record.Validate refuses.
func CheckRecord(r *record.Record) error {
	if !ValidID(r.ID) {
		return fmt.Errorf("record id %q: ids are 1 to %d bytes of letters, digits, '-', '_', '.' and ':'", r.ID, MaxIDLen)
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if r.SourceID == "" {
		return fmt.Errorf("record %s has no source_id", r.ID)
	}
	if strings.TrimSpace(r.Name) == "" {
		return fmt.Errorf("record %s has no name", r.ID)
	}
	return nil
}
