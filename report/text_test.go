package report

import (
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"tab\tand\nnew\r\nline", "tab and new  line"},
		{"nul\x00bell\x07", "nulbell"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"bidi \u202Eoverride\u202C and \u200Fmark", "bidi override and mark"},
		{"zwj \u200D kept for shaping", "zwj \u200D kept for shaping"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShapeArabic(t *testing.T) {
	all := func(rune) bool { return true }
	tests := []struct {
		name, in, want string
	}{
		{"Latin untouched", "Vladimir Putin", "Vladimir Putin"},
		{"isolated letter", "ب", "\uFE8F"},
		{"initial and final", "بب", "\uFE91\uFE90"},
		{"medial", "ببب", "\uFE91\uFE92\uFE90"},
		// Alef joins only to the letter before it, so meem after it stands
		// alone: salam = seen(initial) lam-alef(final ligature) meem(isolated).
		{"right-joining breaks the chain", "سلام", "\uFEB3\uFEFC\uFEE1"},
		{"right-joining without ligature", "بدب", "\uFE91\uFEAA\uFE8F"},
		{"lam-alef ligature", "لا", "\uFEFB"},
		{"lam-alef after a joining letter", "بلا", "\uFE91\uFEFC"},
		{"words shape separately", "بب بب", "\uFE91\uFE90 \uFE91\uFE90"},
		// A vowel mark between two letters does not break their join.
		{"transparent mark", "بَب", "\uFE91\u064E\uFE90"},
		{"tatweel joins", "بـ", "\uFE91\u0640"},
		{"Persian letters", "پی", "\uFB58\uFBFD"},
		{"zwj forces a join and disappears", "ب\u200D", "\uFE91"},
	}
	for _, tt := range tests {
		if got := shapeArabic(tt.in, all); got != tt.want {
			t.Errorf("%s: shapeArabic(%q) = %+q, want %+q", tt.name, tt.in, got, tt.want)
		}
	}
	// A form the font lacks leaves the letter as it is.
	none := func(rune) bool { return false }
	if got := shapeArabic("بب", none); got != "بب" {
		t.Errorf("without forms: %+q", got)
	}
}

func TestVisual(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"left to right untouched", "Hello, world (1)", "Hello, world (1)"},
		{"Hebrew reversed", "אבג", "גבא"},
		{"embedded in Latin", "abc אבג def", "abc גבא def"},
		{"two Hebrew words keep their order right to left", "abc אב גד def", "abc דג בא def"},
		{"numbers stay left to right", "אבג 123", "123 גבא"},
		{"brackets mirror", "(אב)", "(בא)"},
		{"Latin inside a right-to-left paragraph", "אב abc גד", "דג abc בא"},
		{"trailing space takes the paragraph direction", "abc אב ", "abc בא "},
		{"trailing space of a right-to-left line", "אב ", " בא"},
	}
	for _, tt := range tests {
		if got := visual(tt.in); got != tt.want {
			t.Errorf("%s: visual(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestCoverage(t *testing.T) {
	faces, err := loadFaces()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*face{}
	for _, f := range faces {
		byName[f.family] = f
	}
	tests := []struct {
		family string
		r      rune
		has    bool
	}{
		{"sans", 'A', true}, {"sans", 'é', true}, {"sans", 'Ж', true}, {"sans", 'ب', true},
		{"sans", '\uFEFB', true}, {"sans", 'א', true}, {"sans", '深', false}, {"sans", '김', false},
		{"han", '深', true}, {"han", 'ひ', true}, {"hangul", '김', true}, {"hangul", '\uD7A3', true},
		{"sans", 0x20000, false}, {"sans", -1, false}, {"sans", 0x110000, false},
	}
	for _, tt := range tests {
		if got := byName[tt.family].cover.has(tt.r); got != tt.has {
			t.Errorf("%s has %U: %v, want %v", tt.family, tt.r, got, tt.has)
		}
	}
}

func TestParseCoverageRejectsJunk(t *testing.T) {
	for _, n := range []int{0, 5, 12, 100, 1000, 5000, 50000} {
		if _, err := parseCoverage(dejaVuSans[:n]); err == nil && n < 1000 {
			t.Errorf("a %d-byte prefix of a font parsed", n)
		}
	}
	junk := []byte(strings.Repeat("\x00\x01\xff\xfe", 64))
	if _, err := parseCoverage(junk); err == nil {
		t.Error("junk parsed as a font")
	}
}

func TestLinesWrapWithinWidth(t *testing.T) {
	faces, err := loadFaces()
	if err != nil {
		t.Fatal(err)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddPage()
	ts := newTypesetter(pdf, faces)
	st := style{size: 10}
	text := "Responsible for actions which undermine or threaten the territorial integrity, sovereignty and independence of Ukraine"
	for _, w := range []float64{30, 60, 120, 400} {
		lines := ts.lines(text, st, w)
		var words []string
		for _, ln := range lines {
			if ln.width > w+0.01 {
				t.Errorf("width %v: a line is %v wide", w, ln.width)
			}
			var b strings.Builder
			for _, r := range ln.runs {
				b.WriteString(r.text)
			}
			words = append(words, strings.Fields(b.String())...)
		}
		if got := strings.Join(words, " "); got != text {
			t.Errorf("width %v: words changed: %q", w, got)
		}
		if w == 400 && len(lines) != 1 {
			t.Errorf("text broken into %d lines on a wide page", len(lines))
		}
	}
	// Chinese breaks between characters; an unbroken URL anywhere.
	for _, s := range []string{strings.Repeat("深圳", 40), "https://" + strings.Repeat("x", 200)} {
		lines := ts.lines(s, st, 50)
		if len(lines) < 2 {
			t.Errorf("%.10q… was not wrapped", s)
		}
		for _, ln := range lines {
			if ln.width > 50.01 {
				t.Errorf("%.10q…: a line is %v wide", s, ln.width)
			}
		}
	}
	// Mixed scripts use the font that has each character.
	lines := ts.lines("Kim 김영철 何永刚 Путин", st, 400)
	var fams []string
	for _, r := range lines[0].runs {
		fams = append(fams, r.face.family)
	}
	// Spaces stay in the font of the run they follow.
	if got := strings.Join(fams, ","); got != "sans,hangul,han,sans" {
		t.Errorf("font runs %s", got)
	}
	if err := pdf.Error(); err != nil {
		t.Fatal(err)
	}
}
