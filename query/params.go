package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/country"
)

// Limits of a query, checked before any work beyond a length count: no
// real name comes near them, and they bound what one check can cost. The
// server and the docs cite them.
const (
	// MaxTextRunes is the most characters names or search_all may have.
	MaxTextRunes = 512
	// MaxTextWords is the most words names or search_all may have.
	MaxTextWords = 32
	// MaxIncludes is the most entries the includes list may have.
	MaxIncludes = 200
	// MaxQuotedRunes is the most characters of a value an error message
	// quotes: a message never echoes a whole huge input.
	MaxQuotedRunes = 40
)

// QuoteValue quotes s for an error message, cut to MaxQuotedRunes
// characters followed by "…" when it is longer.
func QuoteValue(s string) string {
	if len(s) <= MaxQuotedRunes {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == MaxQuotedRunes {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(s)
}

// checkText applies the limits to names or search_all: first the length
// in bytes (a cheap bound: a character is at most 4 bytes), then in
// characters, then the words as the tokenizer will split them, all before
// anything is folded or tokenised.
func checkText(searchAll bool, s string) error {
	param := "names"
	if searchAll {
		param = "search_all"
	}
	if len(s) > utf8.UTFMax*MaxTextRunes {
		return &ParamError{Param: param, Msg: fmt.Sprintf("longer than the %d characters allowed", MaxTextRunes)}
	}
	if n := utf8.RuneCountInString(s); n > MaxTextRunes {
		return &ParamError{Param: param, Msg: fmt.Sprintf("%d characters, more than the %d allowed", n, MaxTextRunes)}
	}
	if n := countWords(s); n > MaxTextWords {
		return &ParamError{Param: param, Msg: fmt.Sprintf("%d words, more than the %d allowed", n, MaxTextWords)}
	}
	return nil
}

// countWords counts the runs of letters, digits and marks of s, as
// normalize.Tokenize splits words (a hyphen splits, as in Abu-Bakr; an
// apostrophe or dot inside a word does not).
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if !in {
				n++
				in = true
			}
		case in && isJoinerRune(r):
		default:
			in = false
		}
	}
	return n
}

func isJoinerRune(r rune) bool {
	switch r {
	case '.', '\'', '’', '‘', 'ʼ', '`', '´', 'ʻ', '′', '\u00ad':
		return true
	}
	return false
}

// ParseFuzzy reads fuzzy_search: "" and "0" (which clients in the wild
// send) mean exact matching, "1" and "2" the edits allowed per word;
// anything else is a *ParamError.
func ParseFuzzy(s string) (int, error) {
	switch s {
	case "", "0":
		return 0, nil
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	}
	return 0, &ParamError{Param: "fuzzy_search", Msg: fmt.Sprintf("%s is not 0, 1 or 2", QuoteValue(s))}
}

// ParseGender reads the gender filter: male, female, m or f in any case,
// as MALE or FEMALE; "" (or only spaces) is no filter. Anything else (unknown, x, other) is
// a *ParamError rather than no filter, so a value the filter cannot use
// is never silently dropped: the caller leaves it empty to screen without
// one.
func ParseGender(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "male", "m":
		return "MALE", nil
	case "female", "f":
		return "FEMALE", nil
	}
	return "", &ParamError{Param: "gender", Msg: fmt.Sprintf("%s is not male or female (m or f); leave it empty for no gender filter", QuoteValue(s))}
}

// ParseCitizenship reads the citizenship filter: an assigned ISO 3166-1
// alpha-2 code, XK (Kosovo, which lists use) or a common non-ISO alias (UK
// for GB, EL for GR), in any case, as the upper-case ISO code; "" (or only
// spaces) is no filter. Anything else is a *ParamError naming the value: a code no
// record can carry would otherwise return no hits, silently.
func ParseCitizenship(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	if c, ok := country.ParseCode(s); ok {
		return c, nil
	}
	return "", &ParamError{Param: "citizenship", Msg: fmt.Sprintf("%s is not an ISO 3166-1 alpha-2 country code (e.g. GB, RU)", QuoteValue(s))}
}
