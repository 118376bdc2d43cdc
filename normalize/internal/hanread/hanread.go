// Package hanread holds what the Han reading table's generator and its
// reader share: the code point range the table covers.
package hanread

// First and Last bound the table: CJK Extension A and the Unified
// Ideographs, where nearly every character of a name is.
const (
	First rune = 0x3400
	Last  rune = 0x9FFF
)
