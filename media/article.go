package media

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/jsonl"
)

// Article is one news article of the corpus.
type Article struct {
	ID        string
	Timestamp time.Time // publication time; kept to the millisecond, in UTC
	Language  string    // ISO 639-1 code, lower case
	Headline  string
	// Body is the text, paragraphs marked with <p></p> (docs/API.md "Media").
	Body       string
	SourceLink string
	// Categories are the categories the publisher assigned. Nil means none
	// were given and the lexicon decides; an empty, non-nil slice means the
	// article is known to carry none.
	Categories []string
}

// ArticleTimeFormat is how article timestamps are written: RFC 3339 in UTC,
// with milliseconds only when there are any.
const ArticleTimeFormat = "2006-01-02T15:04:05.999Z07:00"

// ResponseTimeFormat is the timestamp of a response: RFC 3339 in UTC with
// milliseconds, as every response of the local /v1 API.
const ResponseTimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Limits on imported articles. They keep one bad feed from exhausting
// memory and keep ids usable as bbolt keys.
const (
	MaxIDLength      = 512     // bytes
	MaxArticleLength = 8 << 20 // bytes of one JSON line
)

// MarshalJSON writes the Article of docs/API.md "Media": timestamp, id,
// language, headline, body, source_link. Categories are not part of that
// shape; they show as the keys of news_exposures.
func (a *Article) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil), nil }

// AppendJSON appends the JSON of a (docs/API.md "Media") to dst.
func (a *Article) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"timestamp":"`...)
	dst = a.Timestamp.UTC().AppendFormat(dst, ArticleTimeFormat)
	dst = append(dst, `","id":`...)
	dst = appendString(dst, a.ID)
	dst = append(dst, `,"language":`...)
	dst = appendString(dst, a.Language)
	dst = append(dst, `,"headline":`...)
	dst = appendString(dst, a.Headline)
	dst = append(dst, `,"body":`...)
	dst = appendString(dst, a.Body)
	dst = append(dst, `,"source_link":`...)
	dst = appendString(dst, a.SourceLink)
	return append(dst, '}')
}

// AppendLine appends a as one line of an import file (the 2.3 fields plus
// categories when they were given), newline included: what Reader reads.
func (a *Article) AppendLine(dst []byte) []byte {
	dst = a.AppendJSON(dst)
	if a.Categories != nil {
		dst = dst[:len(dst)-1]
		dst = append(dst, `,"categories":[`...)
		for i, c := range a.Categories {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, c)
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, '\n')
}

// UnmarshalJSON reads and validates one import line with the rules of
// Reader, without the line number Reader adds to errors.
func (a *Article) UnmarshalJSON(b []byte) error {
	var w wireArticle
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	_, err := w.article(a)
	return err
}

// wireArticle is the JSON of an import line. Categories is a pointer so
// that an absent field (classify) and an empty list (none) differ.
type wireArticle struct {
	ID         string    `json:"id"`
	Timestamp  string    `json:"timestamp"`
	Language   string    `json:"language"`
	Headline   string    `json:"headline"`
	Body       string    `json:"body"`
	SourceLink string    `json:"source_link"`
	Categories *[]string `json:"categories"`
}

// fieldError is a validation failure of one field, before a line number is
// known.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }

// article validates w and fills a. It returns the offending field on error.
func (w *wireArticle) article(a *Article) (string, error) {
	if err := checkID(w.ID); err != nil {
		return "id", err
	}
	if w.Timestamp == "" {
		return "timestamp", fmt.Errorf("required, RFC 3339 (2024-03-01T10:00:00Z)")
	}
	ts, err := time.Parse(time.RFC3339Nano, w.Timestamp)
	if err != nil {
		return "timestamp", fmt.Errorf("%q is not RFC 3339 (2024-03-01T10:00:00Z)", w.Timestamp)
	}
	lang := strings.ToLower(w.Language)
	if len(lang) != 2 || !isLower(lang[0]) || !isLower(lang[1]) {
		return "language", fmt.Errorf("%q is not a two-letter ISO 639-1 code", w.Language)
	}
	if strings.TrimSpace(w.Headline) == "" && strings.TrimSpace(w.Body) == "" {
		return "headline", fmt.Errorf("headline and body are both empty")
	}
	for _, f := range []struct{ name, v string }{{"headline", w.Headline}, {"body", w.Body}, {"source_link", w.SourceLink}} {
		if !utf8.ValidString(f.v) {
			return f.name, fmt.Errorf("not valid UTF-8")
		}
	}
	var cats []string
	if w.Categories != nil {
		cats = make([]string, 0, len(*w.Categories))
		for _, c := range *w.Categories {
			n, err := NormalizeCategory(c)
			if err != nil {
				return "categories", err
			}
			if !contains(cats, n) {
				cats = append(cats, n)
			}
		}
	}
	*a = Article{
		ID: w.ID, Timestamp: ts.UTC().Truncate(time.Millisecond), Language: lang,
		Headline: w.Headline, Body: w.Body, SourceLink: w.SourceLink, Categories: cats,
	}
	return "", nil
}

// Validate checks a as an import line would be checked, for articles that
// come from code rather than from a file. It normalises Language,
// Timestamp and Categories in place.
func (a *Article) Validate() error {
	w := wireArticle{
		ID: a.ID, Language: a.Language, Headline: a.Headline, Body: a.Body, SourceLink: a.SourceLink,
	}
	if !a.Timestamp.IsZero() {
		w.Timestamp = a.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	if a.Categories != nil {
		c := a.Categories
		w.Categories = &c
	}
	var out Article
	if field, err := w.article(&out); err != nil {
		return &fieldError{field, err}
	}
	*a = out
	return nil
}

func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("required")
	case len(id) > MaxIDLength:
		return fmt.Errorf("longer than %d bytes", MaxIDLength)
	case !utf8.ValidString(id):
		return fmt.Errorf("not valid UTF-8")
	}
	for _, r := range id {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return fmt.Errorf("%q contains spaces or control characters", id)
		}
	}
	return nil
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// appendString appends s as a JSON string, leaving <, > and & alone:
// bodies are full of <p>.
func appendString(dst []byte, s string) []byte { return jsonl.AppendString(dst, s) }
