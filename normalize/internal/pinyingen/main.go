// Command pinyingen writes normalize's Han reading table (han_pinyin.bin)
// from github.com/mozillazg/go-pinyin, the maintained Go port of
// python-pinyin's dictionary: the first (most common) reading of every
// character from U+3400 to U+9FFF, without tone marks, ü written u.
//
// The table is generated rather than read from go-pinyin at run time
// because go-pinyin keeps its dictionary in a 42,000-entry map that every
// program importing it builds at start-up (about 3 MB); the generated
// table is 55 KB and read only when Han text is first folded. Run it
// through go generate in normalize; TestHanTableMatchesGoPinyin checks that
// the file is current.
//
// File layout: uint16 syllable count N; N syllables, each a length byte and
// its ASCII letters; then one uint16 per code point from U+3400 to U+9FFF,
// 0 for no reading, else the syllable's index plus one. Little endian.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"

	"github.com/amlscreen/amlscreen/normalize/internal/hanread"
	"github.com/mozillazg/go-pinyin"
	"golang.org/x/text/unicode/norm"
)

func main() {
	out := flag.String("o", "han_pinyin.bin", "file to write")
	flag.Parse()
	if err := os.WriteFile(*out, Table(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pinyingen:", err)
		os.Exit(1)
	}
}

// Table builds the file's bytes.
func Table() []byte {
	readings := make([]string, hanread.Last-hanread.First+1)
	seen := map[string]bool{}
	for r := hanread.First; r <= hanread.Last; r++ {
		v, ok := pinyin.PinyinDict[int(r)]
		if !ok {
			continue
		}
		s := toneless(v)
		if s == "" {
			continue
		}
		readings[r-hanread.First] = s
		seen[s] = true
	}
	syllables := make([]string, 0, len(seen))
	for s := range seen {
		syllables = append(syllables, s)
	}
	sort.Strings(syllables)
	index := make(map[string]uint16, len(syllables))
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, uint16(len(syllables)))
	for i, s := range syllables {
		index[s] = uint16(i + 1)
		buf.WriteByte(byte(len(s)))
		buf.WriteString(s)
	}
	for _, s := range readings {
		binary.Write(&buf, binary.LittleEndian, index[s])
	}
	return buf.Bytes()
}

// toneless returns the first reading of a go-pinyin dictionary value
// ("zhōng,zhòng") without tone marks and with ü written u ("zhong"), the
// way Latin lists write Chinese names; "" when it has no Latin letters.
func toneless(v string) string {
	if i := strings.IndexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(v) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		} else if r >= 'A' && r <= 'Z' {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
