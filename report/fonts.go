package report

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// The fonts travel inside the binary so that a report looks the same on
// every machine and never depends on what a server has installed. See
// fonts/README.md for origins and licences.
var (
	//go:embed fonts/DejaVuSans.ttf
	dejaVuSans []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	dejaVuSansBold []byte
	//go:embed fonts/DroidSansFallbackFull.ttf
	droidFallback []byte
	//go:embed fonts/NanumSquareR.ttf
	nanumSquare []byte
)

// face is one embedded font family, in the order glyphs are looked up.
type face struct {
	family  string // fpdf family name
	regular []byte
	bold    []byte // nil: the regular font also serves bold text
	cover   *coverage
}

var (
	facesOnce sync.Once
	faces     []*face
	facesErr  error
)

// loadFaces parses the character maps of the embedded fonts once per
// process; fpdf parses the fonts themselves per document.
func loadFaces() ([]*face, error) {
	facesOnce.Do(func() {
		list := []*face{
			{family: "sans", regular: dejaVuSans, bold: dejaVuSansBold},
			{family: "han", regular: droidFallback},
			{family: "hangul", regular: nanumSquare},
		}
		for _, f := range list {
			c, err := parseCoverage(f.regular)
			if err != nil {
				facesErr = fmt.Errorf("embedded font %s: %w", f.family, err)
				return
			}
			f.cover = c
		}
		faces = list
	})
	return faces, facesErr
}

// coverage is the set of code points a font's character map holds.
type coverage struct {
	bits []uint64
}

const maxRune = 0x110000

func (c *coverage) has(r rune) bool {
	if r < 0 || r >= maxRune {
		return false
	}
	return c.bits[r>>6]&(1<<(uint(r)&63)) != 0
}

func (c *coverage) set(r uint32) {
	if r < maxRune {
		c.bits[r>>6] |= 1 << (r & 63)
	}
}

var errBadFont = errors.New("not a TrueType font with a Unicode character map")

// parseCoverage reads the Unicode character map of a TrueType font: a
// format 12 subtable (full Unicode) when there is one, else format 4 (the
// Basic Multilingual Plane). Only glyphs other than .notdef count. Every
// offset read from the font is checked against its length before use.
func parseCoverage(font []byte) (*coverage, error) {
	cmap, err := findCmap(font)
	if err != nil {
		return nil, err
	}
	fmt4, fmt12, err := unicodeSubtables(cmap)
	if err != nil {
		return nil, err
	}
	c := &coverage{bits: make([]uint64, maxRune/64)}
	switch {
	case fmt12 != nil:
		err = c.addFormat12(fmt12)
	case fmt4 != nil:
		err = c.addFormat4(fmt4)
	default:
		err = errBadFont
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// findCmap returns the font's cmap table.
func findCmap(font []byte) ([]byte, error) {
	be := binary.BigEndian
	if len(font) < 12 {
		return nil, errBadFont
	}
	n := int(be.Uint16(font[4:]))
	var cmap []byte
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(font) {
			return nil, errBadFont
		}
		if string(font[rec:rec+4]) == "cmap" {
			off, length := int(be.Uint32(font[rec+8:])), int(be.Uint32(font[rec+12:]))
			if off < 0 || length < 4 || off+length > len(font) {
				return nil, errBadFont
			}
			cmap = font[off : off+length]
		}
	}
	if cmap == nil {
		return nil, errBadFont
	}
	return cmap, nil
}

// unicodeSubtables returns the cmap's Unicode subtables of format 4 and
// 12, nil when absent.
func unicodeSubtables(cmap []byte) (fmt4, fmt12 []byte, err error) {
	be := binary.BigEndian
	subtables := int(be.Uint16(cmap[2:]))
	for i := 0; i < subtables; i++ {
		rec := 4 + 8*i
		if rec+8 > len(cmap) {
			return nil, nil, errBadFont
		}
		platform, encoding := be.Uint16(cmap[rec:]), be.Uint16(cmap[rec+2:])
		off := int(be.Uint32(cmap[rec+4:]))
		if off < 0 || off+4 > len(cmap) {
			continue
		}
		unicode := platform == 0 || platform == 3 && (encoding == 1 || encoding == 10)
		if !unicode {
			continue
		}
		switch be.Uint16(cmap[off:]) {
		case 4:
			fmt4 = cmap[off:]
		case 12:
			fmt12 = cmap[off:]
		}
	}
	return fmt4, fmt12, nil
}

// addFormat12 marks the runes a format 12 subtable maps to a glyph.
func (c *coverage) addFormat12(fmt12 []byte) error {
	be := binary.BigEndian
	if len(fmt12) < 16 {
		return errBadFont
	}
	groups := int(be.Uint32(fmt12[12:]))
	for g := 0; g < groups; g++ {
		p := 16 + 12*g
		if p+12 > len(fmt12) {
			return errBadFont
		}
		start, end, glyph := be.Uint32(fmt12[p:]), be.Uint32(fmt12[p+4:]), be.Uint32(fmt12[p+8:])
		for r := start; r <= end && r < maxRune; r++ {
			if glyph+(r-start) != 0 {
				c.set(r)
			}
		}
	}
	return nil
}

// addFormat4 marks the runes a format 4 subtable maps to a glyph.
func (c *coverage) addFormat4(fmt4 []byte) error {
	be := binary.BigEndian
	if len(fmt4) < 14 {
		return errBadFont
	}
	segs := int(be.Uint16(fmt4[6:])) / 2
	ends, starts, deltas, ranges := 14, 16+2*segs, 16+4*segs, 16+6*segs
	if ranges+2*segs > len(fmt4) {
		return errBadFont
	}
	for s := 0; s < segs; s++ {
		end := uint32(be.Uint16(fmt4[ends+2*s:]))
		start := uint32(be.Uint16(fmt4[starts+2*s:]))
		delta := be.Uint16(fmt4[deltas+2*s:])
		ro := int(be.Uint16(fmt4[ranges+2*s:]))
		for r := start; r <= end && r != 0xFFFF; r++ {
			var glyph uint16
			if ro == 0 {
				glyph = uint16(r) + delta
			} else {
				p := ranges + 2*s + ro + 2*int(r-start)
				if p+2 > len(fmt4) {
					continue
				}
				if glyph = be.Uint16(fmt4[p:]); glyph != 0 {
					glyph += delta
				}
			}
			if glyph != 0 {
				c.set(r)
			}
		}
	}
	return nil
}
