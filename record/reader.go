package record

import (
	"errors"
	"io"

	"github.com/amlscreen/amlscreen/jsonl"
)

// LineError is a line of a JSON Lines input that could not be read: its
// number and, when known, the offending field.
type LineError = jsonl.LineError

// Reader streams records or changes from JSON Lines. Blank lines are
// skipped; the input may be gzip-compressed, which is detected from its
// first bytes, and may start with a UTF-8 byte-order mark. Memory use is
// one line at a time, whatever the size of the input; a line longer than
// MaxLine is refused.
type Reader struct {
	jr *jsonl.Reader
}

// NewReader returns a Reader over r, decompressing it when it starts with
// the gzip magic bytes.
func NewReader(r io.Reader) (*Reader, error) {
	jr, err := jsonl.NewReader(r, MaxLine)
	if err != nil {
		return nil, err
	}
	return &Reader{jr: jr}, nil
}

// lineError places err on line, with the field a *FieldError names.
func lineError(line int, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return &LineError{Line: line, Field: fe.Field, Err: fe.Err}
	}
	return &LineError{Line: line, Err: err}
}

// ParseRecordLine reads one consolidated line (without its newline) as
// a valid record: what Reader.Record does with each line, for readers
// that cut lines themselves. Errors are *LineError on line.
func ParseRecordLine(b []byte, line int) (*Record, error) {
	rec := new(Record)
	if err := rec.UnmarshalJSON(b); err != nil {
		return nil, lineError(line, err)
	}
	if err := rec.Validate(); err != nil {
		return nil, lineError(line, err)
	}
	return rec, nil
}

// Record reads the next record. It returns io.EOF at the end of the input
// and a *LineError for a line that is not a valid record.
func (r *Reader) Record() (*Record, error) {
	b, err := r.jr.Next()
	if err != nil {
		return nil, err
	}
	return ParseRecordLine(b, r.jr.Line())
}

// Change reads the next delta change. It returns io.EOF at the end of the
// input and a *LineError for a line that is not a valid change.
func (r *Reader) Change() (*Change, error) {
	b, err := r.jr.Next()
	if err != nil {
		return nil, err
	}
	c := new(Change)
	if err := c.UnmarshalJSON(b); err != nil {
		return nil, lineError(r.jr.Line(), err)
	}
	if err := c.Validate(); err != nil {
		return nil, lineError(r.jr.Line(), err)
	}
	return c, nil
}

// Close releases the decompressor, if any. It does not close the
// underlying reader.
func (r *Reader) Close() error { return r.jr.Close() }

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
