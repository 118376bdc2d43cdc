package record

import (
	"encoding/json"
	"math"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// The fast path of Record.UnmarshalJSON.
//
// A consolidated line is one JSON object whose members are strings, arrays
// of strings, numbers or null: what amlscreen gen writes and the service
// serves. decodeFast reads such a line in one pass over its bytes, with no
// reflection and one string allocation for all its text. Its contract is
// strict: it either returns exactly the Record the general decoder
// (decodeObject and attribute.decode) returns for the line, or it reports
// false and the general decoder runs, so that every error (the field at
// fault, duplicate keys, limits, the byte offset of bad JSON) comes from
// one place. Anything it is not sure of makes it give up: a value of the
// wrong type, a key given twice, a value over its limit, invalid JSON,
// deep nesting. The differential test and FuzzFastPath pin the
// contract down.

// fastMaxDepth bounds the nesting of the raw value of an unknown attribute
// that the fast path copies; deeper values (encoding/json refuses past
// 10,000 levels, counted from the line's top) take the general decoder.
const fastMaxDepth = 64

// fastMaxExtras bounds the unknown attributes of a line the fast path
// reads: it checks their keys for duplicates pair by pair.
const fastMaxExtras = 32

// fastSpan is one decoded string of the line: the attribute it belongs to
// and its place in fastScratch.text.
type fastSpan struct {
	attr       uint8
	start, end int32
}

// fastExtra is one member whose key is no known attribute: its decoded key
// in fastScratch.text and its raw value in the line.
type fastExtra struct {
	keyStart, keyEnd int32
	raw              []byte
}

// fastScratch is the reusable working memory of one decodeFast call.
type fastScratch struct {
	text   []byte // the decoded strings of the line, one after another
	spans  []fastSpan
	extras []fastExtra
	// words are the values of source_type, entity_type and gender.
	words []fastWord
	// pepLevel and listDate are the numbers read; 0 when absent.
	pepLevel int32
	listDate int64
}

// fastWord is the value of an attribute with a small vocabulary.
type fastWord struct {
	attr  uint8
	value string
}

// vocabulary holds the values source_type, entity_type and gender take.
// Those attributes get the constant, or a string of their own, rather
// than a piece of the line's text: the store keeps them apart from a
// record it drops once encoded, and they must not keep its text alive.
var vocabulary = map[string]string{}

// hasVocabulary marks, by attribute index, the attributes vocabulary is
// for.
var hasVocabulary [64]bool

func init() {
	for _, w := range []string{
		SourceSanction, SourcePEP, SourceCriminal, SourceNonCompliantTaxpayer, SourceOther,
		EntityIndividual, EntityEntity, EntityVessel, EntityAircraft, EntityJurisdiction, EntityObject, EntityUnknown,
		GenderMale, GenderFemale, GenderUnknown,
	} {
		vocabulary[w] = w
	}
	for i, a := range attributes {
		switch a.snake {
		case "source_type", "entity_type", "gender":
			hasVocabulary[i] = true
		}
	}
}

var fastScratchPool = sync.Pool{New: func() any { return new(fastScratch) }}

// fastScratchKeep bounds the text buffer kept for the next line, so that
// one huge line does not pin its buffer for the life of the process.
const fastScratchKeep = 256 << 10

// decodeFast reads data into *r and reports true, or reports false,
// leaving *r untouched, when the line is not one it reads exactly as
// UnmarshalJSON's general decoder does.
func decodeFast(data []byte, r *Record) bool {
	if len(data) > MaxLine {
		// Longer than any line a Reader hands over: keeps the offsets
		// below in an int32.
		return false
	}
	sc := fastScratchPool.Get().(*fastScratch)
	sc.text, sc.spans, sc.extras, sc.words = sc.text[:0], sc.spans[:0], sc.extras[:0], sc.words[:0]
	sc.pepLevel, sc.listDate = 0, 0
	ok := sc.decode(data, r)
	for i := range sc.extras {
		sc.extras[i].raw = nil // do not keep the line alive
	}
	clear(sc.words)
	if cap(sc.text) <= fastScratchKeep {
		fastScratchPool.Put(sc)
	}
	return ok
}

func (sc *fastScratch) decode(data []byte, r *Record) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		i++
	} else {
		var seen uint64 // by attribute index, as in UnmarshalJSON
		for {
			if i >= len(data) || data[i] != '"' {
				return false
			}
			keyStart := len(sc.text)
			var ok bool
			if i, ok = sc.appendString(data, i); !ok {
				return false
			}
			a := lookupAttr(sc.text[keyStart:])
			i = skipSpace(data, i)
			if i >= len(data) || data[i] != ':' {
				return false
			}
			i = skipSpace(data, i+1)
			if i >= len(data) {
				return false
			}
			if a != nil {
				sc.text = sc.text[:keyStart]
				if seen&(1<<a.index) != 0 {
					return false
				}
				seen |= 1 << a.index
				if i, ok = sc.value(data, i, a); !ok {
					return false
				}
			} else {
				start := i
				if i, ok = sc.skipValue(data, i); !ok || i-start > MaxValueLen {
					return false
				}
				if len(sc.extras) == fastMaxExtras {
					return false
				}
				key := sc.text[keyStart:]
				for _, e := range sc.extras {
					if string(sc.text[e.keyStart:e.keyEnd]) == string(key) {
						return false
					}
				}
				sc.extras = append(sc.extras, fastExtra{keyStart: int32(keyStart), keyEnd: int32(len(sc.text)), raw: data[start:i]})
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return false
			}
			if data[i] == '}' {
				i++
				break
			}
			if data[i] != ',' {
				return false
			}
			i = skipSpace(data, i+1)
		}
	}
	if skipSpace(data, i) != len(data) {
		return false
	}
	// r is written only now: a line the fast path gives up on leaves it
	// as the general decoder expects to find it.
	*r = Record{PEPLevel: sc.pepLevel, ListDate: sc.listDate}
	sc.assemble(r)
	return true
}

// value reads the value at data[i] of known attribute a, keeping numbers
// and recording strings as spans, and returns the index after it.
func (sc *fastScratch) value(data []byte, i int, a *attribute) (int, bool) {
	if data[i] == 'n' {
		// null leaves the attribute unset.
		return literal(data, i, "null")
	}
	limit := MaxValueLen
	if a.name {
		limit = MaxNameLen
	}
	switch a.kind {
	case kindString:
		return sc.stringValue(data, i, a, limit)
	case kindList:
		return sc.listValue(data, i, a, limit)
	case kindInt32, kindListDate:
		return sc.intValue(data, i, a)
	}
	return 0, false
}

// stringValue reads the string at data[i] of attribute a: a word of a
// vocabulary attribute, or a span of text.
func (sc *fastScratch) stringValue(data []byte, i int, a *attribute, limit int) (int, bool) {
	if data[i] != '"' {
		return 0, false
	}
	start := len(sc.text)
	i, ok := sc.appendString(data, i)
	if !ok || len(sc.text)-start > limit && a.snake != "id" {
		return 0, false
	}
	if hasVocabulary[a.index] {
		if w := sc.text[start:]; len(w) > 0 {
			v, known := vocabulary[string(w)]
			if !known {
				v = string(w)
			}
			sc.words = append(sc.words, fastWord{attr: uint8(a.index), value: v})
		}
		sc.text = sc.text[:start]
		return i, true
	}
	sc.addSpan(a, start)
	return i, true
}

// listValue reads the list at data[i] of attribute a, or a single string
// as a list of one; every element becomes a span of text.
func (sc *fastScratch) listValue(data []byte, i int, a *attribute, limit int) (int, bool) {
	if data[i] == '"' {
		// A single string is a list of one, as in attribute.decode.
		start := len(sc.text)
		i, ok := sc.appendString(data, i)
		if !ok || len(sc.text)-start > limit {
			return 0, false
		}
		sc.addSpan(a, start)
		return i, true
	}
	if data[i] != '[' {
		return 0, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, true
	}
	for {
		if i >= len(data) {
			return 0, false
		}
		if data[i] == 'n' {
			// A null element reads as "", which is dropped.
			var ok bool
			if i, ok = literal(data, i, "null"); !ok {
				return 0, false
			}
		} else {
			if data[i] != '"' {
				return 0, false
			}
			start := len(sc.text)
			var ok bool
			if i, ok = sc.appendString(data, i); !ok || len(sc.text)-start > limit {
				return 0, false
			}
			sc.addSpan(a, start)
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return 0, false
		}
		if data[i] == ']' {
			return i + 1, true
		}
		if data[i] != ',' {
			return 0, false
		}
		i = skipSpace(data, i+1)
	}
}

// intValue reads the number at data[i], bare or quoted, as attribute a:
// the PEP level or the listing date.
func (sc *fastScratch) intValue(data []byte, i int, a *attribute) (int, bool) {
	var text []byte
	start := len(sc.text)
	if data[i] == '"' {
		var ok bool
		if i, ok = sc.appendString(data, i); !ok {
			return 0, false
		}
		text = sc.text[start:]
	} else {
		end, ok := scanNumber(data, i)
		if !ok {
			return 0, false
		}
		text, i = data[i:end], end
	}
	bits := 64
	if a.kind == kindInt32 {
		bits = 32
	}
	n, ok := intFromBytes(text, bits)
	sc.text = sc.text[:start]
	if !ok {
		return 0, false
	}
	if a.kind == kindInt32 {
		sc.pepLevel = int32(n)
	} else {
		sc.listDate = n
	}
	return i, true
}

// addSpan records the string from start to the end of text as a value of
// a; an empty one is dropped, as attribute.decode drops it.
func (sc *fastScratch) addSpan(a *attribute, start int) {
	if len(sc.text) == start {
		return
	}
	sc.spans = append(sc.spans, fastSpan{attr: uint8(a.index), start: int32(start), end: int32(len(sc.text))})
}

// assemble sets the strings, lists and extras of out from the spans: one
// string holds all text, one array all list elements.
func (sc *fastScratch) assemble(out *Record) {
	text := string(sc.text)
	elems := 0
	for _, s := range sc.spans {
		if attributes[s.attr].kind == kindList {
			elems++
		}
	}
	var backing []string
	if elems > 0 {
		backing = make([]string, 0, elems)
	}
	for k := 0; k < len(sc.spans); {
		s := sc.spans[k]
		a := &attributes[s.attr]
		if a.kind != kindList {
			*a.str(out) = text[s.start:s.end]
			k++
			continue
		}
		first := len(backing)
		for ; k < len(sc.spans) && sc.spans[k].attr == s.attr; k++ {
			backing = append(backing, text[sc.spans[k].start:sc.spans[k].end])
		}
		// A full slice expression, so that appending to one list never
		// writes into the next.
		*a.list(out) = backing[first:len(backing):len(backing)]
	}
	for _, w := range sc.words {
		*attributes[w.attr].str(out) = w.value
	}
	if len(sc.extras) > 0 {
		out.Extra = make(map[string]json.RawMessage, len(sc.extras))
		for _, e := range sc.extras {
			out.Extra[text[e.keyStart:e.keyEnd]] = append(json.RawMessage(nil), e.raw...)
		}
	}
}

// lookupAttr returns the attribute a decoded key names, folded as foldKey
// folds it, or nil for an unknown key.
func lookupAttr(key []byte) *attribute {
	var buf [32]byte
	n := 0
	for _, c := range key {
		switch {
		case c >= utf8.RuneSelf:
			// strings.ToLower maps a few non-ASCII letters to ASCII ones
			// (the Kelvin sign to k): fold such keys exactly as foldKey.
			return attrByKey[foldKey(string(key))]
		case c == '_':
			continue
		case n == len(buf):
			return nil // longer than every attribute's folded key
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return attrByKey[string(buf[:n])]
}

// appendString decodes the JSON string starting at data[i] (a quote) onto
// sc.text exactly as encoding/json unquotes it (escapes, surrogate pairs,
// invalid UTF-8 replaced by U+FFFD) and returns the index after its
// closing quote; false for a string encoding/json refuses.
func (sc *fastScratch) appendString(data []byte, i int) (int, bool) {
	i++
	for {
		run := i
		for i < len(data) {
			c := data[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				break
			}
			i++
		}
		sc.text = append(sc.text, data[run:i]...)
		if i >= len(data) {
			return 0, false
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				sc.text = utf8.AppendRune(sc.text, utf8.RuneError)
			} else {
				sc.text = append(sc.text, data[i:i+size]...)
			}
			i += size
		default: // backslash
			if i+1 >= len(data) {
				return 0, false
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				sc.text = append(sc.text, e)
			case 'b':
				sc.text = append(sc.text, '\b')
			case 'f':
				sc.text = append(sc.text, '\f')
			case 'n':
				sc.text = append(sc.text, '\n')
			case 'r':
				sc.text = append(sc.text, '\r')
			case 't':
				sc.text = append(sc.text, '\t')
			case 'u':
				r := hex4(data, i)
				if r < 0 {
					return 0, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if dec := utf16.DecodeRune(r, hex4(data, i)); dec != utf8.RuneError {
						sc.text = utf8.AppendRune(sc.text, dec)
						i += 6
						continue
					}
					r = utf8.RuneError
				}
				sc.text = utf8.AppendRune(sc.text, r)
				continue
			default:
				return 0, false
			}
			i += 2
		}
	}
}

// hex4 reads the escape \uXXXX at data[i], or returns -1.
func hex4(data []byte, i int) rune {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range data[i+2 : i+6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// skipValue returns the index after the JSON value at data[i], checking it
// is valid JSON; false for invalid or too deeply nested values.
func (sc *fastScratch) skipValue(data []byte, i int) (int, bool) {
	switch c := data[i]; {
	case c == '"':
		start := len(sc.text)
		end, ok := sc.appendString(data, i)
		sc.text = sc.text[:start]
		return end, ok
	case c == 'n':
		return literal(data, i, "null")
	case c == 't':
		return literal(data, i, "true")
	case c == 'f':
		return literal(data, i, "false")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(data, i)
	case c == '{' || c == '[':
		// Find the matching bracket, then let encoding/json say whether
		// what lies between is valid.
		end, ok := closingBracket(data, i)
		return end, ok && json.Valid(data[i:end])
	}
	return 0, false
}

// closingBracket returns the index after the bracket that closes the one
// at data[i], minding strings, without checking what lies between is
// valid JSON; false when it is not closed or nested too deeply.
func closingBracket(data []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(data); j++ {
		switch data[j] {
		case '"':
			for j++; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
		case '{', '[':
			if depth++; depth > fastMaxDepth {
				return 0, false
			}
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1, true
			}
		}
	}
	return 0, false
}

// literal checks that the literal lit (null, true, false) is at data[i]
// and returns the index after it.
func literal(data []byte, i int, lit string) (int, bool) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// scanNumber returns the index after the JSON number at data[i], or false
// when there is none (as JSON's grammar, not strconv's, defines it).
func scanNumber(data []byte, i int) (int, bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = skipDigits(data, i)
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		j := skipDigits(data, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := skipDigits(data, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// intFromBytes reads an integer as parseNumber does from the text of a
// string or number: plain digits that fit directly, anything else through
// intFromText, so that both paths agree on every input.
func intFromBytes(b []byte, bits int) (int64, bool) {
	if n, ok := plainDigits(b); ok && (bits == 64 || n <= math.MaxInt32) {
		return n, true
	}
	n, err := intFromText(string(b), bits)
	return n, err == nil
}

// plainDigits reads b when it is 1 to 18 ASCII digits, which always fit an
// int64.
func plainDigits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
