package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Limits of one consolidated line. They are far above anything a real list
// holds (the longest OFAC SDN line is under 5 KB, its longest name 158
// bytes) and far below what would make one record cost the engine, the
// store or a PDF report real memory: a line past them is refused with its
// number and field, never read in part.
const (
	// MaxLine bounds one JSON line, in bytes, before it is parsed.
	MaxLine = 1 << 20
	// MaxIDLen bounds a record id, in bytes.
	MaxIDLen = 128
	// MaxNameLen bounds one name value (name, tl_name, last_names,
	// given_names, alias_given_names, alias_names), in bytes.
	MaxNameLen = 1 << 10
	// MaxValueLen bounds any other value, in bytes: a string, one element
	// of a list, or the raw JSON of an attribute amlscreen does not know.
	MaxValueLen = 64 << 10
)

// ErrNotObject is the error for a line that is valid JSON but not an
// object: an array (a JSON file rather than JSON Lines), a string, null.
var ErrNotObject = errors.New("expected one JSON object per line")

// errArray is ErrNotObject for an array, with the likely cause.
var errArray = fmt.Errorf("%w, found an array (a JSON file rather than JSON Lines? jq -c '.[]' converts one)", ErrNotObject)

// IDChars are the characters a record id may hold besides ASCII letters
// and digits. The service's interface says ids are alphanumeric; the separators are
// what the converters (OFAC-CONS-123, UN-9000001) and the generators
// (news-0000001) write and what upstream producers use between a prefix
// and a number. Spaces, slashes, quotes and control characters are
// refused: ids end up in URLs, file names and CSV cells.
const IDChars = "-_.:"

// ValidID reports why id is not a valid record id, or nil.
func ValidID(id string) error {
	switch {
	case id == "":
		return ErrNoID
	case len(id) > MaxIDLen:
		return fmt.Errorf("id is %d bytes long, more than %d", len(id), MaxIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || bytes.IndexByte([]byte(IDChars), c) >= 0 {
			continue
		}
		return fmt.Errorf("id %q has %s at byte %d: ids are ASCII letters, digits and %s", clip(id, 40), describeByte(c), i+1, IDChars)
	}
	return nil
}

func describeByte(c byte) string {
	switch {
	case c == ' ':
		return "a space"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("control character 0x%02x", c)
	case c >= 0x80:
		return "a non-ASCII character"
	}
	return fmt.Sprintf("%q", rune(c))
}

// clip shortens s for an error message, so that a huge value is never
// echoed whole.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xc0 == 0x80 { // do not cut a UTF-8 sequence
		i--
	}
	return s[:i] + "…"
}

// checkLengths reports the first value of r longer than its limit, as a
// *FieldError naming the attribute (snake_case) or the extra key.
func (r *Record) checkLengths() error {
	for i := range attributes {
		if err := attributes[i].checkLen(r); err != nil {
			return &FieldError{Field: attributes[i].snake, Err: err}
		}
	}
	for k, v := range r.Extra {
		if len(v) > MaxValueLen {
			return &FieldError{Field: k, Err: fmt.Errorf("value is %d bytes long, more than %d", len(v), MaxValueLen)}
		}
	}
	return nil
}

// checkLen reports a value of attribute a in r longer than its limit. The
// id has rules of its own (ValidID).
func (a *attribute) checkLen(r *Record) error {
	limit := MaxValueLen
	if a.name {
		limit = MaxNameLen
	}
	switch a.kind {
	case kindString:
		if s := *a.str(r); len(s) > limit && a.snake != "id" {
			return fmt.Errorf("value is %d bytes long, more than %d", len(s), limit)
		}
	case kindList:
		for j, s := range *a.list(r) {
			if len(s) > limit {
				return fmt.Errorf("value %d is %d bytes long, more than %d", j+1, len(s), limit)
			}
		}
	}
	return nil
}

// notObject returns ErrNotObject, with what was found instead, when data
// (valid JSON or not) does not start an object; nil when it does.
func notObject(data []byte) error {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		return nil
	}
	what := "nothing"
	if len(t) > 0 {
		switch t[0] {
		case '[':
			return errArray
		case '"':
			what = "a string"
		case 'n':
			what = "null"
		case 't', 'f':
			what = "a boolean"
		default:
			if t[0] == '-' || t[0] >= '0' && t[0] <= '9' {
				what = "a number"
			} else {
				what = fmt.Sprintf("%q", clip(string(t), 20))
			}
		}
	}
	return fmt.Errorf("%w, found %s", ErrNotObject, what)
}

// syntaxError turns encoding/json's error for a line that does not parse
// into a plain message with the byte offset.
func syntaxError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON at byte %d: %s", se.Offset, se.Error())
	}
	return fmt.Errorf("not valid JSON: %w", err)
}

// decodeObject reads a JSON object into its members. A key that occurs
// twice is refused with a *FieldError naming it: encoding/json would keep
// the last silently, and which of two names or ids a record holds must not
// depend on a parser's whim.
func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	if err := notObject(data); err != nil {
		// An array is named whatever follows it: the first line of a
		// pretty-printed JSON file is a lone "[".
		if json.Valid(data) || errors.Is(err, errArray) {
			return nil, err
		}
		return nil, syntaxError(json.Unmarshal(data, new(any)))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, syntaxError(err)
	}
	if n := countKeys(data); n != len(m) {
		return nil, duplicateKey(data)
	}
	return m, nil
}

// countKeys counts the member names of the top-level object of data,
// which must be valid JSON: one pass over the bytes, cheap beside the
// parse itself, so that duplicates are caught without a token decoder on
// every line.
func countKeys(data []byte) int {
	n, depth := 0, 0
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			if depth == 1 && expectKey {
				n++
				expectKey = false
			}
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			expectKey = depth == 1 && c == '{'
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		}
	}
	return n
}

// duplicateKey finds the first key of data's top-level object that occurs
// twice; data has one (countKeys said so).
func duplicateKey(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if _, err := d.Token(); err != nil {
		return syntaxError(err)
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return syntaxError(err)
		}
		k, _ := t.(string)
		if seen[k] {
			return &FieldError{Field: k, Err: errors.New("key appears more than once in the object")}
		}
		seen[k] = true
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return syntaxError(err)
		}
	}
	return errors.New("key appears more than once in the object")
}
