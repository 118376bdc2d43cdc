// Package hanread holds what the Han reading table's generator and its
// test share: the code point range the table covers and how a go-pinyin
// reading becomes the table's toneless spelling.
package hanread

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// First and Last bound the table: CJK Extension A and the Unified
// Ideographs, where nearly every character of a name is.
const (
	First rune = 0x3400
	Last  rune = 0x9FFF
)

// Toneless returns the first reading of a go-pinyin dictionary value
// ("zhōng,zhòng") without tone marks and with ü written u ("zhong"), the
// way Latin lists write Chinese names; "" when it has no Latin letters.
func Toneless(v string) string {
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
