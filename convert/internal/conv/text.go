package conv

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
)

// Clean collapses the runs of white space and line breaks the UN file
// carries inside values.
func Clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// JoinNonEmpty joins the parts that are not blank once cleaned (Clean)
// with sep.
func JoinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = Clean(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// SplitList cuts s at sep and returns the trimmed, non-empty parts.
func SplitList(s, sep string) []string {
	var out []string
	for p := range strings.SplitSeq(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// MaybeGunzip returns r decompressed when it starts with the gzip magic
// bytes, else r as it is; the decompressed text is limited like the input.
func MaybeGunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(2)
	if !bytes.Equal(head, []byte{0x1f, 0x8b}) {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip header: %w", err)
	}
	return LimitReader(zr, MaxInputBytes, "decompressed input"), nil
}

// Blank reports whether every field of a row is empty or white space.
func Blank(f []string) bool {
	for _, v := range f {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

// Remarks returns a remark column as the list the XML elements hold.
func Remarks(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

// EntityType is the record entity type of a list's type column, given
// lower-cased: individual, entity, vessel and aircraft are the record's
// own types (their names upper-cased), any other value is kept
// upper-cased, and an empty one is empty (each list says what a missing
// type means).
func EntityType(t, empty string) string {
	if t == "" {
		return empty
	}
	return strings.ToUpper(t)
}
