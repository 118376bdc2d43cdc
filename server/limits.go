package server

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/media"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/query"
)

// Limits on one request. They are far above what a real client sends and
// are checked before any other work on the request, so that no request
// can make the server parse, match or store more than they allow; a
// request beyond one is answered 400 with a message naming the parameter
// and the limit.
const (
	// MaxURLBytes bounds the request target: path and query string, as
	// sent (percent-encoded).
	MaxURLBytes = 8 << 10
	// MaxHeaderBytes is the http.Server limit on the request line and
	// headers together; beyond it net/http itself answers 431. Between
	// MaxURLBytes and it, the server answers its own 400.
	MaxHeaderBytes = 64 << 10
	// MaxParamChars bounds a parameter value without a limit of its own,
	// in characters.
	MaxParamChars = 1024
	// MaxTextChars bounds names and search_all, in characters: the
	// engine's limit (which also bounds their words), checked here before
	// any other work on the request.
	MaxTextChars = query.MaxTextRunes
	// MaxIncludesChars bounds includes: room for the 200 source ids the
	// engine accepts.
	MaxIncludesChars = 4096
	// MaxProfileIDBytes bounds profile_id as monitoring stores it
	// (monitor.MaxProfileIDLen, in bytes of UTF-8).
	MaxProfileIDBytes = monitor.MaxProfileIDLen
	// MaxKeyIDChars bounds the kid of /v1/keys/{kid}; key ids are 36.
	MaxKeyIDChars = 128
	// maxErrorMessage caps every error message sent: whatever a handler
	// or another package puts in one, an answer never echoes a large
	// input back.
	maxErrorMessage = 512
	// maxQuoted is how many characters of a value a message quotes.
	maxQuoted = 40
)

// maxCursorChars is the longest next_cursor media/search hands out: a
// version byte, a timestamp and an article id of media.MaxIDLength bytes,
// base64url.
var maxCursorChars = base64.RawURLEncoding.EncodedLen(9 + media.MaxIDLength)

// paramLimits are the parameters with a limit other than MaxParamChars,
// in characters. profile_id is counted in bytes (checkProfileID).
var paramLimits = map[string]int{
	"names":      MaxTextChars,
	"search_all": MaxTextChars,
	"includes":   MaxIncludesChars,
	"profile_id": MaxProfileIDBytes,
	"cursor":     maxCursorChars,
	// A month is 7 characters; 16 leaves room for the format message to
	// answer near misses such as 2026-11-01.
	"month": 16,
	// Versions are opaque; ours are about 25 characters.
	"previous": 256,
	// min_score is a number in (0, 1], which needs no more than a few
	// digits. match (strict or scored) keeps the general limit, as the
	// OpenAPI document states; its parser names any other value.
	"min_score": 32,
	// getChangeDigest: since is a version or a day, limit a number, next
	// a token holding three versions and a record id.
	"since": 256,
	"limit": 32,
	"next":  4096,
}

// checkURL refuses a request target longer than MaxURLBytes.
func checkURL(r *http.Request) error {
	n := len(r.RequestURI)
	if n == 0 {
		n = len(r.URL.RequestURI())
	}
	if n > MaxURLBytes {
		return Errorf(http.StatusBadRequest, "request URL: %d bytes, more than the %d allowed: no parameter needs that much", n, MaxURLBytes)
	}
	return nil
}

// checkValue refuses a value of parameter name beyond its limit. The value
// is valid UTF-8 by now.
func checkValue(name, v string) error {
	limit, ok := paramLimits[name]
	if !ok {
		limit = MaxParamChars
	}
	if name == "profile_id" {
		return checkProfileID(v)
	}
	// A byte count at or under the limit cannot exceed it in characters.
	if len(v) <= limit {
		return nil
	}
	if n := utf8.RuneCountInString(v); n > limit {
		return Errorf(http.StatusBadRequest, "%s: %d characters, more than the %d allowed", name, n, limit)
	}
	return nil
}

// checkProfileID applies the rule for profile ids of every monitoring
// endpoint (register, remove, test delivery): at most MaxProfileIDBytes
// bytes of UTF-8, no control characters (C0, DEL, C1). Ids are stored,
// sent in webhooks and printed in reports and logs.
func checkProfileID(id string) error {
	if len(id) > MaxProfileIDBytes {
		return Errorf(http.StatusBadRequest, "profile_id: %d bytes, more than the %d allowed (UTF-8)", len(id), MaxProfileIDBytes)
	}
	if i := strings.IndexFunc(id, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(id[i:])
		return Errorf(http.StatusBadRequest, "profile_id: holds the control character %U at byte %d; ids are printable text", r, i)
	}
	return nil
}

// quote returns v quoted for a message, cut to its first maxQuoted
// characters with "…" when longer: a message names a value, it does not
// echo it.
func quote(v string) string {
	if utf8.RuneCountInString(v) <= maxQuoted {
		return strconv.Quote(v)
	}
	i, n := 0, 0
	for i = range v {
		if n == maxQuoted {
			break
		}
		n++
	}
	return strconv.Quote(v[:i]) + "…"
}

// capMessage cuts a message to maxErrorMessage bytes at a character
// boundary.
func capMessage(msg string) string {
	if len(msg) <= maxErrorMessage {
		return msg
	}
	cut := maxErrorMessage - len("…")
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// maxWarned is how many unknown parameters the Warning header names.
const maxWarned = 5

// warnUnknown sets the one Warning header that names the unknown
// parameters of a request (sorted): the first maxWarned, and how many more.
// One header, whatever their number: common clients fail on responses with
// more than about a hundred headers.
func warnUnknown(h http.Header, unknown []string) {
	if len(unknown) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(`299 - "unknown parameter`)
	if len(unknown) > 1 {
		b.WriteByte('s')
	}
	b.WriteString(" ignored: ")
	for i, name := range unknown[:min(len(unknown), maxWarned)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteWarning(name))
	}
	if more := len(unknown) - maxWarned; more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	b.WriteByte('"')
	h.Set("Warning", b.String())
}

// quoteWarning makes a parameter name safe inside the quoted-string of a
// Warning header: printable ASCII, quotes and backslashes escaped, at most
// maxQuoted bytes.
func quoteWarning(name string) string {
	var b strings.Builder
	for i := 0; i < len(name) && b.Len() < maxQuoted; i++ {
		c := name[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteByte('?')
		default:
			b.WriteByte(c)
		}
	}
	if b.Len() >= maxQuoted && len(name) > maxQuoted {
		b.WriteString("...")
	}
	return b.String()
}
