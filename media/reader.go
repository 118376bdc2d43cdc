package media

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// LineError is a line of an article file that could not be read.
type LineError struct {
	Line  int    // 1-based line number
	Field string // offending key, or "" when the line is not a JSON object
	Err   error
}

// Error names the line and, when known, the field.
func (e *LineError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("line %d: field %q: %v", e.Line, e.Field, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *LineError) Unwrap() error { return e.Err }

// Reader streams articles from JSON Lines, one object a line:
//
//	{"id":"a1","timestamp":"2024-03-01T10:00:00Z","language":"en",
//	 "headline":"...","body":"<p>...</p>","source_link":"https://...",
//	 "categories":["financial_crime"]}
//
// id, timestamp (RFC 3339), language (ISO 639-1) and a headline or a body
// are required; categories is optional (absent: the lexicon classifies the
// article; [] the article has none). Unknown keys are ignored, so feeds may
// carry more. Blank lines are skipped; gzip input is detected from its first
// bytes. Memory use is one line at a time.
type Reader struct {
	br   *bufio.Reader
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
		return nil, fmt.Errorf("read articles: %w", err)
	}
	rd := &Reader{br: br}
	if bytes.Equal(head, gzipMagic) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("read articles: gzip header: %w", err)
		}
		rd.br = bufio.NewReaderSize(gz, 256<<10)
	}
	return rd, nil
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Next returns the next article, io.EOF after the last one, or a
// *LineError for a line that is not a valid article.
func (r *Reader) Next() (*Article, error) {
	line, err := r.nextLine()
	if err != nil {
		return nil, err
	}
	a, field, err := parseLine(line)
	if err != nil {
		return nil, &LineError{Line: r.line, Field: field, Err: err}
	}
	return a, nil
}

// parseLine reads and validates one import line; on error it names the
// offending field, or "" when the line is not a JSON object.
func parseLine(line []byte) (*Article, string, error) {
	var w wireArticle
	if err := json.Unmarshal(line, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, te.Field, fmt.Errorf("%s is not a %s", te.Value, te.Type)
		}
		return nil, "", err
	}
	a := new(Article)
	if field, err := w.article(a); err != nil {
		return nil, field, err
	}
	return a, "", nil
}

// nextLine returns the next non-blank line, or io.EOF.
func (r *Reader) nextLine() ([]byte, error) {
	for {
		r.buf = r.buf[:0]
		for {
			chunk, err := r.br.ReadSlice('\n')
			r.buf = append(r.buf, chunk...)
			if len(r.buf) > MaxArticleLength {
				return nil, &LineError{Line: r.line + 1, Err: fmt.Errorf("longer than %d bytes", MaxArticleLength)}
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
		if l := bytes.TrimSpace(r.buf); len(l) > 0 {
			return l, nil
		}
	}
}

// ReadAll reads every article of r, stopping at the first bad line.
func ReadAll(r io.Reader) ([]*Article, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	var out []*Article
	for {
		a, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
}
