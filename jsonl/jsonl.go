// Package jsonl reads and writes JSON Lines, the format of consolidated
// files, deltas and article feeds: a line reader that counts lines, skips
// blank ones and detects gzip, the error that names a bad line and field,
// and a JSON string writer that leaves HTML characters alone.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
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

// Reader returns the non-blank lines of its input, one at a time, whatever
// the input's size. Input that starts with the gzip magic bytes is
// decompressed; a UTF-8 byte-order mark at the start is skipped.
type Reader struct {
	br      *bufio.Reader
	closeFn func() error
	line    int
	buf     []byte
	maxLine int
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	utf8BOM   = []byte{0xef, 0xbb, 0xbf}
)

// Open buffers r for reading lines: it decompresses r when it starts with
// the gzip magic bytes and skips a UTF-8 byte-order mark (editors on
// Windows write one), the start of every JSON Lines input. closeFn
// releases the decompressor; it does not close r.
func Open(r io.Reader) (br *bufio.Reader, closeFn func() error, err error) {
	br = bufio.NewReaderSize(r, 256<<10)
	closeFn = func() error { return nil }
	head, err := br.Peek(2)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, nil, err
	}
	if bytes.Equal(head, gzipMagic) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("gzip header: %w", err)
		}
		closeFn = gz.Close
		br = bufio.NewReaderSize(gz, 256<<10)
	}
	head, err = br.Peek(3)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		closeFn()
		return nil, nil, err
	}
	if bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	return br, closeFn, nil
}

// NewReader returns a Reader over r (see Open). maxLine bounds a line's
// length in bytes (0: no bound), so that a feed without newlines cannot
// take all memory.
func NewReader(r io.Reader, maxLine int) (*Reader, error) {
	br, closeFn, err := Open(r)
	if err != nil {
		return nil, err
	}
	return &Reader{br: br, closeFn: closeFn, maxLine: maxLine}, nil
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Next returns the next non-blank line without its surrounding space, or
// io.EOF. The bytes are valid until the next call.
func (r *Reader) Next() ([]byte, error) {
	for {
		r.buf = r.buf[:0]
		for {
			chunk, err := r.br.ReadSlice('\n')
			r.buf = append(r.buf, chunk...)
			if r.maxLine > 0 && len(r.buf) > r.maxLine {
				return nil, &LineError{Line: r.line + 1, Err: fmt.Errorf("longer than %d bytes", r.maxLine)}
			}
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

// Close releases the decompressor, if any. It does not close the
// underlying reader.
func (r *Reader) Close() error { return r.closeFn() }

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Unlike encoding/json it does not
// escape <, > and &: records and articles are data, not HTML, and article
// bodies are full of <p>. Invalid UTF-8 becomes U+FFFD; U+2028 and U+2029,
// which end lines in JavaScript, are escaped.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
