package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/jsonl"
)

// Case selects the key casing written by Append.
type Case uint8

const (
	// Snake writes snake_case keys, as the /v1 API answers.
	Snake Case = iota
	// Camel writes camelCase keys, as consolidated files carry them.
	Camel
)

// TimestampFormat is how the /v1 API writes a moment, in check answers
// and webhook bodies alike: RFC 3339 in UTC with milliseconds
// (docs/API.md "Check responses").
const TimestampFormat = "2006-01-02T15:04:05.000Z07:00"

// WriteOptions controls Append.
type WriteOptions struct {
	Case Case
	// OmitListDate leaves list_date out, as records of delta changes carry
	// none (docs/API.md "Deltas").
	OmitListDate bool
	// OmitPEPLevel and OmitSourceCountry strip the attributes that are
	// enabled per API key by feature flag.
	OmitPEPLevel      bool
	OmitSourceCountry bool
}

// FieldError is a value that has the wrong JSON type for its attribute.
type FieldError struct {
	Field string // the key as written in the input
	Err   error
}

func (e *FieldError) Error() string { return fmt.Sprintf("field %q: %v", e.Field, e.Err) }
func (e *FieldError) Unwrap() error { return e.Err }

// MarshalJSON writes r with snake_case keys, as the /v1 API answers.
func (r Record) MarshalJSON() ([]byte, error) {
	return r.Append(nil, WriteOptions{}), nil
}

// Append appends r as one JSON object to dst. Empty attributes are omitted;
// list_date is written as a string ("0" when unavailable) unless omitted;
// Extra attributes follow the known ones, sorted by key.
func (r *Record) Append(dst []byte, o WriteOptions) []byte {
	dst = append(dst, '{')
	first := true
	key := func(a *attribute) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		k := a.snake
		if o.Case == Camel {
			k = a.camel
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
	}
	for i := range attributes {
		a := &attributes[i]
		switch a.kind {
		case kindString:
			if s := *a.str(r); s != "" {
				if o.OmitSourceCountry && a.snake == "source_country" {
					continue
				}
				key(a)
				dst = appendString(dst, s)
			}
		case kindList:
			if l := *a.list(r); len(l) > 0 {
				key(a)
				dst = append(dst, '[')
				for j, s := range l {
					if j > 0 {
						dst = append(dst, ',')
					}
					dst = appendString(dst, s)
				}
				dst = append(dst, ']')
			}
		case kindInt32:
			if r.PEPLevel != 0 && !o.OmitPEPLevel {
				key(a)
				dst = strconv.AppendInt(dst, int64(r.PEPLevel), 10)
			}
		case kindListDate:
			if !o.OmitListDate {
				key(a)
				dst = append(dst, '"')
				dst = strconv.AppendInt(dst, r.ListDate, 10)
				dst = append(dst, '"')
			}
		}
	}
	if len(r.Extra) > 0 {
		keys := make([]string, 0, len(r.Extra))
		for k := range r.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = append(dst, r.Extra[k]...)
		}
	}
	return append(dst, '}')
}

// UnmarshalJSON reads a record with keys in either casing. Unknown keys are
// kept in Extra; a value of the wrong type, a key given twice (also in two
// casings, as name and Name) is a *FieldError naming the key; a line that
// is not an object is ErrNotObject.
//
// A line of the usual shape is read by decodeFast in one pass; any other,
// and every line in error, by decodeGeneral, which gives the same Record
// and alone words the errors.
func (r *Record) UnmarshalJSON(data []byte) error {
	if decodeFast(data, r) {
		return nil
	}
	return r.decodeGeneral(data)
}

// decodeGeneral is UnmarshalJSON through encoding/json: every member into
// a map of raw values, then every known attribute's value on its own.
func (r *Record) decodeGeneral(data []byte) error {
	m, err := decodeObject(data)
	if err != nil {
		return err
	}
	*r = Record{}
	// Sorted keys make the error for a line with several bad fields
	// deterministic.
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var seen uint64 // by attribute index: set by a key already
	for _, k := range keys {
		v := m[k]
		a, ok := attrByKey[foldKey(k)]
		if !ok {
			if r.Extra == nil {
				r.Extra = make(map[string]json.RawMessage)
			}
			if len(v) > MaxValueLen {
				return &FieldError{Field: k, Err: fmt.Errorf("value is %d bytes long, more than %d", len(v), MaxValueLen)}
			}
			r.Extra[k] = v
			continue
		}
		if seen&(1<<a.index) != 0 {
			return &FieldError{Field: k, Err: fmt.Errorf("same attribute as key %q", firstKeyOf(keys, a))}
		}
		seen |= 1 << a.index
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		if err := a.decode(r, v); err != nil {
			return &FieldError{Field: k, Err: err}
		}
		if err := a.checkLen(r); err != nil {
			return &FieldError{Field: k, Err: err}
		}
	}
	return nil
}

// firstKeyOf returns the first of keys that names attribute a.
func firstKeyOf(keys []string, a *attribute) string {
	for _, k := range keys {
		if attrByKey[foldKey(k)] == a {
			return k
		}
	}
	return ""
}

func (a *attribute) decode(r *Record, v json.RawMessage) error {
	switch a.kind {
	case kindString:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("want a string")
		}
		*a.str(r) = s
	case kindList:
		var l []string
		if err := json.Unmarshal(v, &l); err != nil {
			// A single string where a list is expected is read as a list of
			// one: some producers flatten one-element arrays.
			var s string
			if json.Unmarshal(v, &s) != nil {
				return fmt.Errorf("want an array of strings")
			}
			l = []string{s}
		}
		l = dropEmpty(l)
		if len(l) > 0 {
			*a.list(r) = l
		}
	case kindInt32:
		n, err := parseNumber(v, 32)
		if err != nil {
			return err
		}
		r.PEPLevel = int32(n)
	case kindListDate:
		n, err := parseNumber(v, 64)
		if err != nil {
			return err
		}
		r.ListDate = n
	}
	return nil
}

// parseNumber reads an integer given as a JSON number or a string holding
// one ("" counts as 0).
func parseNumber(v json.RawMessage, bits int) (int64, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(v, &n); err != nil {
			return 0, fmt.Errorf("want a number or a string holding one")
		}
		s = n.String()
	}
	return intFromText(s, bits)
}

// intFromText reads the integer s holds for parseNumber: "" is 0, a float
// with no fraction is its integer.
func intFromText(s string, bits int) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		// Some producers write a long as 1.6e12.
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, fmt.Errorf("%q is not an integer", s)
		}
		n = int64(f)
		// A float past the field's width ("4294967298" for a pep level
		// fails ParseInt and reads as a float) would wrap when narrowed.
		if bits < 64 && (n < -(1<<(bits-1)) || n >= 1<<(bits-1)) {
			return 0, fmt.Errorf("%q is out of range", s)
		}
	}
	return n, nil
}

func dropEmpty(l []string) []string {
	out := l[:0]
	for _, s := range l {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// MarshalJSON writes c as a delta line: {"type":...,"record":{...}} with a
// camelCase record without list_date, as consolidated files carry them.
func (c Change) MarshalJSON() ([]byte, error) {
	return c.Append(nil), nil
}

// Append appends c as a delta line (without newline) to dst.
func (c *Change) Append(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = appendString(dst, c.Type)
	dst = append(dst, `,"record":`...)
	dst = c.Record.Append(dst, WriteOptions{Case: Camel, OmitListDate: true})
	return append(dst, '}')
}

// UnmarshalJSON reads a delta line with a record in either casing. Its
// errors name the field at fault: "type", "record", or "record.KEY" for
// one inside the record.
func (c *Change) UnmarshalJSON(data []byte) error {
	if c.decodeOwnLine(data) {
		return nil
	}
	return c.decodeGeneral(data)
}

// decodeOwnLine reads the line Append writes, {"type":"T","record":{...}}
// with those two keys in that order and a plain ASCII type, and reports
// true; for any other line, or a record with an error, it reports false
// and leaves the reading, and the error, to decodeGeneral. It saves the
// general path's first pass over the whole line into a map, which is half
// the cost of reading a change log.
func (c *Change) decodeOwnLine(data []byte) bool {
	i, ok := ownKey(data, skipSpace(data, 0), '{', "type")
	if !ok || i >= len(data) || data[i] != '"' {
		return false
	}
	start := i + 1
	for i = start; i < len(data) && data[i] != '"'; i++ {
		if data[i] < 0x20 || data[i] > 0x7e || data[i] == '\\' {
			return false
		}
	}
	if i >= len(data) {
		return false
	}
	typ := data[start:i]
	if i, ok = ownKey(data, skipSpace(data, i+1), ',', "record"); !ok || i >= len(data) || data[i] != '{' {
		return false
	}
	// The record's own reading checks it is valid JSON.
	end, ok := closingBracket(data, i)
	if !ok {
		return false
	}
	if j := skipSpace(data, end); j >= len(data) || data[j] != '}' || skipSpace(data, j+1) != len(data) {
		return false
	}
	var r Record
	if r.UnmarshalJSON(data[i:end]) != nil {
		return false
	}
	*c = Change{Type: string(typ), Record: r}
	return true
}

// ownKey expects the byte open, then the key "key" and a colon, at
// data[i:] (with JSON whitespace between), and returns the index of the
// value after them.
func ownKey(data []byte, i int, open byte, key string) (int, bool) {
	if i >= len(data) || data[i] != open {
		return 0, false
	}
	i = skipSpace(data, i+1)
	if len(data)-i < len(key)+2 || data[i] != '"' || string(data[i+1:i+1+len(key)]) != key || data[i+1+len(key)] != '"' {
		return 0, false
	}
	i = skipSpace(data, i+2+len(key))
	if i >= len(data) || data[i] != ':' {
		return 0, false
	}
	return skipSpace(data, i+1), true
}

// decodeGeneral reads any delta line: keys in either casing and any
// order, with an error naming the field at fault.
func (c *Change) decodeGeneral(data []byte) error {
	m, err := decodeObject(data)
	if err != nil {
		return err
	}
	var typ, rec json.RawMessage
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		switch strings.ToLower(k) {
		case "type":
			if typ != nil {
				return &FieldError{Field: k, Err: errors.New("key appears more than once in the object")}
			}
			typ = v
		case "record":
			if rec != nil {
				return &FieldError{Field: k, Err: errors.New("key appears more than once in the object")}
			}
			rec = v
		}
	}
	*c = Change{}
	if typ != nil && json.Unmarshal(typ, &c.Type) != nil {
		return &FieldError{Field: "type", Err: errors.New("want a string")}
	}
	if len(rec) == 0 {
		return &FieldError{Field: "record", Err: errors.New("missing")}
	}
	if notObject(rec) != nil {
		return &FieldError{Field: "record", Err: errors.New("want a JSON object")}
	}
	if err := c.Record.UnmarshalJSON(rec); err != nil {
		if fe, ok := err.(*FieldError); ok {
			return &FieldError{Field: "record." + fe.Field, Err: fe.Err}
		}
		return &FieldError{Field: "record", Err: err}
	}
	return nil
}

func appendString(dst []byte, s string) []byte { return jsonl.AppendString(dst, s) }
