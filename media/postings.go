package media

import (
	"encoding/binary"
	"slices"
	"strings"
)

// Posting lists are byte strings of postings in increasing document order.
// A posting is
//
//	uvarint(doc − previous doc)   the first relative to 0
//	uvarint(n)                    bytes of positions that follow
//	n bytes: uvarint positions, the first absolute, then deltas
//
// Carrying the byte length rather than the count of positions lets a
// reader step over a document's positions without decoding them, which is
// what intersecting the lists of a name's tokens mostly does.

// termPostings is the in-memory posting list of one term: every segment's
// postings concatenated, re-based so that the document deltas run on.
type termPostings struct {
	blob []byte
	last uint32 // last document in blob
	n    uint32 // postings in blob, dead documents included
}

// appendChunk appends a segment chunk whose first document delta is
// relative to 0 and whose last document is last.
func (t *termPostings) appendChunk(chunk []byte, last, n uint32) {
	first, k := binary.Uvarint(chunk)
	if k <= 0 || n == 0 {
		return
	}
	var head [binary.MaxVarintLen64]byte
	m := binary.PutUvarint(head[:], first-uint64(t.last))
	if t.n == 0 {
		m = binary.PutUvarint(head[:], first)
	}
	t.blob = slices.Grow(t.blob, m+len(chunk)-k)
	t.blob = append(t.blob, head[:m]...)
	t.blob = append(t.blob, chunk[k:]...)
	t.last, t.n = last, t.n+n
}

// postingIter walks a posting list.
type postingIter struct {
	b   []byte
	i   int
	doc uint32
	// pos is the byte range of the current document's positions.
	posStart, posEnd int
}

// next advances to the next posting; false at the end or on corrupt data,
// which is treated as the end so that a damaged list cannot crash a query.
func (it *postingIter) next() bool {
	if it.i >= len(it.b) {
		return false
	}
	d, k := binary.Uvarint(it.b[it.i:])
	if k <= 0 {
		it.i = len(it.b)
		return false
	}
	it.i += k
	n, k := binary.Uvarint(it.b[it.i:])
	if k <= 0 || uint64(len(it.b)-it.i-k) < n {
		it.i = len(it.b)
		return false
	}
	it.i += k
	it.doc += uint32(d)
	it.posStart, it.posEnd = it.i, it.i+int(n)
	it.i = it.posEnd
	return true
}

// appendPositions decodes the positions in b[start:end] onto dst.
func appendPositions(dst []uint32, b []byte, start, end int) []uint32 {
	var p uint32
	for i := start; i < end; {
		d, k := binary.Uvarint(b[i:end])
		if k <= 0 {
			break
		}
		p += uint32(d)
		dst = append(dst, p)
		i += k
	}
	return dst
}

// docTerms collects the tokens of one article with their positions. It is
// reused from article to article, so indexing allocates little.
type docTerms struct {
	idx   map[string]int
	terms []string
	pos   [][]uint32
}

func newDocTerms() *docTerms { return &docTerms{idx: make(map[string]int, 512)} }

func (d *docTerms) reset() {
	clear(d.idx)
	d.terms = d.terms[:0]
}

func (d *docTerms) add(tok string, pos uint32) {
	i, ok := d.idx[tok]
	if !ok {
		i = len(d.terms)
		d.idx[tok] = i
		d.terms = append(d.terms, tok)
		if i < len(d.pos) {
			d.pos[i] = d.pos[i][:0]
		} else {
			d.pos = append(d.pos, nil)
		}
	}
	d.pos[i] = append(d.pos[i], pos)
}

// segment is the postings of one import being built: per term, the
// postings of the documents of this import, first delta relative to 0.
type segment struct {
	terms map[string]*segTerm
	buf   []byte
}

type segTerm struct {
	buf  []byte
	last uint32
	n    uint32
}

func newSegment() *segment { return &segment{terms: make(map[string]*segTerm)} }

// add appends document doc, whose number is higher than any added before,
// with its terms and each term's sorted, distinct positions.
func (s *segment) add(doc uint32, terms []string, pos [][]uint32) {
	for i, tok := range terms {
		st := s.terms[tok]
		if st == nil {
			// Tokens may be substrings of the article: the segment keeps
			// copies, so that it does not pin every article's text.
			st = &segTerm{}
			s.terms[strings.Clone(tok)] = st
		}
		s.buf = s.buf[:0]
		var prev uint32
		for _, x := range pos[i] {
			s.buf = binary.AppendUvarint(s.buf, uint64(x-prev))
			prev = x
		}
		st.buf = binary.AppendUvarint(st.buf, uint64(doc-st.last))
		st.buf = binary.AppendUvarint(st.buf, uint64(len(s.buf)))
		st.buf = append(st.buf, s.buf...)
		st.last = doc
		st.n++
	}
}

// sortedTerms returns the segment's terms in byte order, the order their
// keys are written in.
func (s *segment) sortedTerms() []string {
	out := make([]string, 0, len(s.terms))
	for t := range s.terms {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// filterPostings returns the postings of blob whose document is alive,
// re-encoded with the first delta relative to 0, with their last document
// and count.
func filterPostings(blob []byte, alive func(uint32) bool) (out []byte, last, n uint32) {
	it := postingIter{b: blob}
	for it.next() {
		if !alive(it.doc) {
			continue
		}
		out = binary.AppendUvarint(out, uint64(it.doc-last))
		out = binary.AppendUvarint(out, uint64(it.posEnd-it.posStart))
		out = append(out, blob[it.posStart:it.posEnd]...)
		last = it.doc
		n++
	}
	return out, last, n
}
