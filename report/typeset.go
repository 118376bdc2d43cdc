package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"

	"codeberg.org/go-pdf/fpdf"
)

// typesetter draws text in several fonts on one fpdf document: it picks
// for each character the first embedded font that has it, breaks lines
// itself (fpdf's own wrapping knows only one font per call) and puts each
// line in visual order.
type typesetter struct {
	pdf        *fpdf.Fpdf
	faces      []*face
	registered map[string]bool
}

func newTypesetter(pdf *fpdf.Fpdf, faces []*face) *typesetter {
	return &typesetter{pdf: pdf, faces: faces, registered: map[string]bool{}}
}

// style is how a piece of text is drawn.
type style struct {
	size  float64 // points
	bold  bool
	color [3]int
}

// run is a piece of one line in one font, in visual order.
type run struct {
	face  *face
	text  string
	width float64
}

// line is one typeset line: its runs left to right and its width in mm.
type line struct {
	runs   []run
	width  float64
	actual string // text of a line whose glyphs do not spell it, else ""
}

// faceFor returns the first font that holds r; characters no font holds
// are drawn (as the missing-glyph box) with the first font, which keeps
// their code point in the text layer.
func (t *typesetter) faceFor(r rune) *face {
	if r == ' ' {
		return t.faces[0]
	}
	for _, f := range t.faces {
		if f.cover.has(r) {
			return f
		}
	}
	return t.faces[0]
}

// use makes f the current font of the document, registering it with fpdf
// on first use so that a report without Chinese never parses the Chinese
// font.
func (t *typesetter) use(f *face, st style) {
	fs := ""
	data := f.regular
	if st.bold && f.bold != nil {
		fs, data = "B", f.bold
	}
	key := f.family + fs
	if !t.registered[key] {
		t.pdf.AddUTF8FontFromBytes(f.family, fs, data)
		t.registered[key] = true
	}
	t.pdf.SetFont(f.family, fs, st.size)
}

// split cuts s (in any order) into runs of one font each and measures them.
func (t *typesetter) split(s string, st style) []run {
	var out []run
	var cur *face
	var b strings.Builder
	flush := func() {
		if b.Len() == 0 {
			return
		}
		t.use(cur, st)
		out = append(out, run{face: cur, text: b.String(), width: t.pdf.GetStringWidth(b.String())})
		b.Reset()
	}
	for _, r := range bmp(s) {
		f := t.faceFor(r)
		if r == ' ' && cur != nil {
			f = cur // spaces never start a font change
		}
		if f != cur {
			flush()
			cur = f
		}
		b.WriteRune(r)
	}
	flush()
	return out
}

func (t *typesetter) width(s string, st style) float64 {
	w := 0.0
	for _, r := range t.split(s, st) {
		w += r.width
	}
	return w
}

// breakable reports whether a line may break between a and b: after
// spaces, after a hyphen or slash inside a long word, and between two
// CJK characters, which are written without spaces.
func breakable(a, b rune) bool {
	switch {
	case a == ' ' && b != ' ':
		return true
	case (a == '-' || a == '/') && b != ' ':
		return true
	case isCJK(a) || isCJK(b):
		return a != ' ' && b != ' '
	}
	return false
}

// isCJK: Chinese and Japanese, written without spaces between words.
// Korean separates words with spaces and breaks like Latin text.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// lines typesets s into lines at most maxW mm wide. Lines are broken in
// logical order and then shaped and reordered for display, so a wrapped
// Arabic name continues on the next line where a reader expects it.
func (t *typesetter) lines(s string, st style, maxW float64) []line {
	s = strings.TrimSpace(clean(s))
	if s == "" {
		return nil
	}
	rs := []rune(s)
	// Segments end where a line may break.
	var segs []string
	start := 0
	for i := 1; i < len(rs); i++ {
		if breakable(rs[i-1], rs[i]) {
			segs = append(segs, string(rs[start:i]))
			start = i
		}
	}
	segs = append(segs, string(rs[start:]))

	has := t.faces[0].cover.has
	measure := func(s string) float64 { return t.width(shapeArabic(s, has), st) }
	var out []line
	var cur strings.Builder
	curW := 0.0
	emit := func() {
		if text := strings.TrimRight(cur.String(), " "); text != "" {
			out = append(out, t.layout(text, st))
		}
		cur.Reset()
		curW = 0
	}
	for _, seg := range segs {
		word := strings.TrimRight(seg, " ")
		wordW := measure(word)
		if cur.Len() > 0 && curW+wordW > maxW {
			emit()
		}
		if cur.Len() == 0 && wordW > maxW {
			// A word wider than the line (a long URL): break it anywhere.
			for _, r := range word {
				rw := measure(string(r))
				if cur.Len() > 0 && curW+rw > maxW {
					emit()
				}
				cur.WriteRune(r)
				curW += rw
			}
		} else {
			cur.WriteString(word)
			curW += wordW
		}
		if len(word) < len(seg) {
			cur.WriteString(seg[len(word):])
			curW += measure(seg[len(word):])
		}
	}
	emit()
	return out
}

// layout shapes one logical line, puts it in visual order and measures its
// runs. A left-to-right line with characters fpdf cannot draw keeps its
// original text for the text layer. Right-to-left lines get no ActualText:
// extractors such as poppler treat it as display order and reverse it
// again, while they read the drawn presentation forms correctly.
func (t *typesetter) layout(text string, st style) line {
	shaped := shapeArabic(bmp(text), t.faces[0].cover.has)
	ln := line{runs: t.split(visual(shaped), st)}
	for _, r := range ln.runs {
		ln.width += r.width
	}
	if bmp(text) != text && !isRTL(shaped) {
		ln.actual = text
	}
	return ln
}

// draw writes ln with its left end at x and its baseline at y, wrapped in
// an /ActualText span when the drawn glyphs do not spell its text.
func (t *typesetter) draw(ln line, x, y float64, st style) {
	t.pdf.SetTextColor(st.color[0], st.color[1], st.color[2])
	if ln.actual != "" {
		t.pdf.RawWriteStr("/Span <</ActualText " + pdfTextString(ln.actual) + ">> BDC")
	}
	for _, r := range ln.runs {
		t.use(r.face, st)
		t.pdf.Text(x, y, r.text)
		x += r.width
	}
	if ln.actual != "" {
		t.pdf.RawWriteStr("EMC")
	}
}

// bmp replaces characters beyond the Basic Multilingual Plane (emoji, rare
// CJK ideographs), which fpdf's font code cannot draw, by U+FFFD; the line's
// ActualText keeps them in the text layer.
func bmp(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r > 0xFFFF }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r > 0xFFFF {
			return '\uFFFD'
		}
		return r
	}, s)
}

// pdfTextString encodes s as a PDF text string: UTF-16BE with a byte order
// mark, in hex so that no character needs escaping.
func pdfTextString(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
