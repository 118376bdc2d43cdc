package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// LineError is a line of a JSON Lines input that could not be read.
type LineError struct {
	Line  int    // 1-based line number
	Field string // offending key, or "" when the line is not a JSON object
	Err   error
}

func (e *LineError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("line %d: field %q: %v", e.Line, e.Field, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Reader streams records or changes from JSON Lines. Blank lines are skipped;
// the input may be gzip-compressed, which is detected from its first bytes.
// Memory use is one line at a time, whatever the size of the input.
type Reader struct {
	br   *bufio.Reader
	gz   *gzip.Reader
	line int
	buf  []byte
}

var gzipMagic = []byte{0x1f, 0x8b}

// NewReader returns a Reader over r, decompressing it when it starts with
// the gzip magic bytes.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	head, err := br.Peek(2)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	rd := &Reader{br: br}
	if bytes.Equal(head, gzipMagic) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip header: %w", err)
		}
		rd.gz = gz
		rd.br = bufio.NewReaderSize(gz, 256<<10)
	}
	return rd, nil
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// nextLine returns the next non-blank line, or io.EOF.
func (r *Reader) nextLine() ([]byte, error) {
	for {
		r.buf = r.buf[:0]
		for {
			chunk, err := r.br.ReadSlice('\n')
			r.buf = append(r.buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF {
				if len(r.buf) == 0 {
					return nil, io.EOF
				}
				break
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", r.line+1, err)
			}
			break
		}
		r.line++
		if b := bytes.TrimSpace(r.buf); len(b) > 0 {
			return b, nil
		}
	}
}

func (r *Reader) lineError(err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return &LineError{Line: r.line, Field: fe.Field, Err: fe.Err}
	}
	return &LineError{Line: r.line, Err: err}
}

// Record reads the next record. It returns io.EOF at the end of the input
// and a *LineError for a line that is not a valid record.
func (r *Reader) Record() (*Record, error) {
	b, err := r.nextLine()
	if err != nil {
		return nil, err
	}
	rec := new(Record)
	if err := rec.UnmarshalJSON(b); err != nil {
		return nil, r.lineError(err)
	}
	if err := rec.Validate(); err != nil {
		return nil, &LineError{Line: r.line, Field: "id", Err: err}
	}
	return rec, nil
}

// Change reads the next delta change. It returns io.EOF at the end of the
// input and a *LineError for a line that is not a valid change.
func (r *Reader) Change() (*Change, error) {
	b, err := r.nextLine()
	if err != nil {
		return nil, err
	}
	c := new(Change)
	if err := c.UnmarshalJSON(b); err != nil {
		return nil, r.lineError(err)
	}
	if err := c.Validate(); err != nil {
		field := "type"
		if errors.Is(err, ErrNoID) {
			field = "record.id"
		}
		return nil, &LineError{Line: r.line, Field: field, Err: err}
	}
	return c, nil
}

// Close releases the decompressor, if any. It does not close the
// underlying reader.
func (r *Reader) Close() error {
	if r.gz != nil {
		return r.gz.Close()
	}
	return nil
}

// ReadAll reads every record of r, stopping at the first bad line.
func ReadAll(r io.Reader) ([]*Record, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var out []*Record
	for {
		rec, err := rd.Record()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
}
