package convert

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
func WriteJSONL(w io.Writer, gz bool, conv Converter) (n int, err error) {
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(w)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	var buf []byte
	err = conv(func(r *record.Record) error {
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

// WriteFile is WriteJSONL into the file at path, gzip-compressed when the
// name ends in ".gz". The records are written under a temporary name in the
// same directory and renamed into place only when all went well, so a failed
// conversion never leaves a truncated file that looks complete.
func WriteFile(path string, conv Converter) (n int, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if n, err = WriteJSONL(f, strings.HasSuffix(path, ".gz"), conv); err != nil {
		return n, err
	}
	if err = f.Sync(); err != nil {
		return n, fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return n, fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return n, fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return n, fmt.Errorf("write %s: %w", path, err)
	}
	return n, nil
}
