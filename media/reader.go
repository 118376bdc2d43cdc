package media

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/amlscreen/amlscreen/jsonl"
)

// LineError is a line of an article file that could not be read.
type LineError = jsonl.LineError

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
	jr *jsonl.Reader
}

// NewReader returns a Reader over r, decompressing it when it starts with
// the gzip magic bytes.
func NewReader(r io.Reader) (*Reader, error) {
	jr, err := jsonl.NewReader(r, MaxArticleLength)
	if err != nil {
		return nil, fmt.Errorf("read articles: %w", err)
	}
	return &Reader{jr: jr}, nil
}

// Next returns the next article, io.EOF after the last one, or a
// *LineError for a line that is not a valid article.
func (r *Reader) Next() (*Article, error) {
	line, err := r.jr.Next()
	if err != nil {
		return nil, err
	}
	a, field, err := parseLine(line)
	if err != nil {
		return nil, &LineError{Line: r.jr.Line(), Field: field, Err: err}
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
