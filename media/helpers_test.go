package media

import (
	"errors"
	"io"
)

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

// Add upserts articles that come from code, in one transaction, with the
// rules of Import; a *LineError's Line is then the 1-based position of the
// article in the arguments. Articles are validated (see Article.Validate)
// and may be normalised in place.
func (c *Corpus) Add(articles ...*Article) (*ImportStats, error) {
	i := 0
	return c.upsert(func() (*Article, error) {
		if i >= len(articles) {
			return nil, io.EOF
		}
		a := articles[i]
		i++
		if err := a.Validate(); err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				return nil, &LineError{Line: i, Field: fe.field, Err: fe.err}
			}
			return nil, &LineError{Line: i, Err: err}
		}
		return a, nil
	})
}
