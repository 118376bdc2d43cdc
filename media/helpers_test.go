package media

import "io"

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
