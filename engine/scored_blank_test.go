package engine

import (
	"strings"
	"testing"
)

// TestBlankAsTrimSpace: blank agrees with strings.TrimSpace on ASCII and
// Unicode white space, before, after and between other letters.
func TestBlankAsTrimSpace(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", " ", "\t\n\v\f\r ", "a", " a", "a ", "\u00a0", " \u0085 ", "\u2003\u3000",
		" \u00a0x", "\u2003 ", "Иван", " 李 ", "\u200b", " \ufeff", "\xff", " \xff ", "\t\u00a0\t",
	} {
		if got, want := blank(s), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("blank(%q) = %v, want %v", s, got, want)
		}
	}
}
