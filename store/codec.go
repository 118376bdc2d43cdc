package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/amlscreen/amlscreen/record"
	"github.com/klauspost/compress/s2"
)

// Records are stored in a compact binary form rather than as JSON: decoding
// JSON costs ~30 µs a record, which alone would take half a minute to load a
// million records at start, while this form decodes in about a microsecond
// with two allocations a record.
//
// A blob is
//
//	format byte | uvarint schema id | payload
//
// where the payload is, for formatFields, a sequence of
// (uvarint field number+1, value) pairs ended by a 0, and for formatJSON the
// camelCase JSON of the record. formatFieldsS2 is formatFields with the
// payload compressed by s2, used only when that saves at least an eighth.
//
// Fields are numbered by their position in a schema: the list of
// record.Record field names and kinds at the time the blob was written,
// kept in the store's meta bucket. A record type that gains, loses or
// reorders fields therefore still reads every blob written before: fields
// are matched by name, and a stored field the type no longer has is skipped.
const (
	formatJSON     byte = 0
	formatFields   byte = 1
	formatFieldsS2 byte = 2
)

// Kinds of record fields the binary form knows.
const (
	kindString = 's'
	kindList   = 'l'
	kindInt    = 'i'
	kindExtra  = 'm'
)

type fieldInfo struct {
	name  string
	kind  byte
	index int // index in record.Record
}

// schema is the field layout of one version of record.Record.
type schema []fieldInfo

// String gives the form stored in the meta bucket: "Name:kind,...".
func (s schema) String() string {
	parts := make([]string, len(s))
	for i, f := range s {
		parts[i] = f.name + ":" + string(f.kind)
	}
	return strings.Join(parts, ",")
}

func parseSchema(s string) (schema, error) {
	if s == "" {
		return nil, nil
	}
	var out schema
	for _, p := range strings.Split(s, ",") {
		name, kind, ok := strings.Cut(p, ":")
		if !ok || len(kind) != 1 {
			return nil, fmt.Errorf("bad schema entry %q", p)
		}
		out = append(out, fieldInfo{name: name, kind: kind[0], index: -1})
	}
	return out, nil
}

var (
	recordType = reflect.TypeFor[record.Record]()
	extraType  = reflect.TypeFor[map[string]json.RawMessage]()
	// currentSchema describes record.Record as compiled in. unsupported
	// names fields of a kind the binary form cannot hold; when any exist,
	// records are written as JSON so that nothing is lost.
	currentSchema, unsupported = describeRecord()
)

func describeRecord() (schema, []string) {
	var s schema
	var bad []string
	for i := range recordType.NumField() {
		f := recordType.Field(i)
		if !f.IsExported() {
			continue
		}
		var k byte
		switch {
		case f.Type.Kind() == reflect.String:
			k = kindString
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			k = kindList
		case f.Type.Kind() >= reflect.Int && f.Type.Kind() <= reflect.Int64:
			k = kindInt
		case f.Type == extraType:
			k = kindExtra
		default:
			bad = append(bad, f.Name)
			continue
		}
		s = append(s, fieldInfo{name: f.Name, kind: k, index: i})
	}
	return s, bad
}

// bind resolves a stored schema against the compiled record type: each
// stored field gets the index of the same-named field of the same kind, or
// -1 to be skipped.
func bind(stored schema) schema {
	out := make(schema, len(stored))
	for i, f := range stored {
		f.index = -1
		for _, c := range currentSchema {
			if c.name == f.name && c.kind == f.kind {
				f.index = c.index
				break
			}
		}
		out[i] = f
	}
	return out
}

// codec encodes and decodes record blobs for one store. It is safe for
// concurrent use once built.
type codec struct {
	current uint64   // schema id used for writing
	schemas []schema // by id, bound to the compiled type; nil entries unused
}

var errCorrupt = errors.New("corrupt record blob")

// maxS2Decoded bounds the decoded size of a compressed blob. Records are
// kilobytes; encode never compresses a payload above it.
const maxS2Decoded = 16 << 20

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// encode returns the blob of r in a new slice of its own, since bbolt keeps
// a reference to every value put until its transaction ends.
func (c *codec) encode(r *record.Record) []byte {
	if len(unsupported) > 0 {
		return r.Append(dstHeader(0, formatJSON), record.WriteOptions{Case: record.Camel})
	}
	pp := bufPool.Get().(*[]byte)
	cp := bufPool.Get().(*[]byte)
	defer bufPool.Put(pp)
	defer bufPool.Put(cp)
	payload := appendFields((*pp)[:0], r)
	*pp = payload
	format, body := formatFields, payload
	// Small payloads hold too little repetition for s2 to gain anything;
	// huge ones stay plain so that decode can refuse any blob claiming more
	// than maxS2Decoded (a damaged length would otherwise allocate it).
	if len(payload) >= 128 && len(payload) <= maxS2Decoded {
		comp := s2.Encode((*cp)[:cap(*cp)], payload)
		*cp = comp
		if len(comp) <= len(payload)-len(payload)/8 {
			format, body = formatFieldsS2, comp
		}
	}
	head := dstHeader(c.current, format)
	out := make([]byte, 0, len(head)+len(body))
	return append(append(out, head...), body...)
}

func dstHeader(id uint64, format byte) []byte {
	return binary.AppendUvarint([]byte{format}, id)
}

func appendFields(dst []byte, r *record.Record) []byte {
	v := reflect.ValueOf(r).Elem()
	for i, f := range currentSchema {
		fv := v.Field(f.index)
		switch f.kind {
		case kindString:
			s := fv.String()
			if s == "" {
				continue
			}
			dst = binary.AppendUvarint(dst, uint64(i+1))
			dst = appendStr(dst, s)
		case kindList:
			n := fv.Len()
			if n == 0 {
				continue
			}
			dst = binary.AppendUvarint(dst, uint64(i+1))
			dst = binary.AppendUvarint(dst, uint64(n))
			for j := range n {
				dst = appendStr(dst, fv.Index(j).String())
			}
		case kindInt:
			n := fv.Int()
			if n == 0 {
				continue
			}
			dst = binary.AppendUvarint(dst, uint64(i+1))
			dst = binary.AppendVarint(dst, n)
		case kindExtra:
			m := fv.Interface().(map[string]json.RawMessage)
			if len(m) == 0 {
				continue
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			dst = binary.AppendUvarint(dst, uint64(i+1))
			dst = binary.AppendUvarint(dst, uint64(len(keys)))
			for _, k := range keys {
				dst = appendStr(dst, k)
				dst = appendStr(dst, string(m[k]))
			}
		}
	}
	return append(dst, 0)
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// decode reads a blob into a new record. The record's strings share one
// allocation and its lists another, which keeps a loaded database compact.
func (c *codec) decode(blob []byte) (*record.Record, error) {
	if len(blob) < 2 {
		return nil, errCorrupt
	}
	format := blob[0]
	id, n := binary.Uvarint(blob[1:])
	if n <= 0 {
		return nil, errCorrupt
	}
	payload := blob[1+n:]
	switch format {
	case formatJSON:
		r := new(record.Record)
		if err := r.UnmarshalJSON(payload); err != nil {
			return nil, fmt.Errorf("%w: %v", errCorrupt, err)
		}
		return r, nil
	case formatFieldsS2:
		bp := bufPool.Get().(*[]byte)
		defer bufPool.Put(bp)
		dl, err := s2.DecodedLen(payload)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errCorrupt, err)
		}
		if dl > maxS2Decoded {
			return nil, fmt.Errorf("%w: compressed record claims %d bytes", errCorrupt, dl)
		}
		buf := slices.Grow((*bp)[:0], dl)
		out, err := s2.Decode(buf[:dl], payload)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errCorrupt, err)
		}
		*bp = out
		payload = out
	case formatFields:
	default:
		return nil, fmt.Errorf("%w: unknown format %d", errCorrupt, format)
	}
	if id >= uint64(len(c.schemas)) || c.schemas[id] == nil {
		return nil, fmt.Errorf("%w: unknown schema %d", errCorrupt, id)
	}
	return decodeFields(c.schemas[id], payload)
}

// decodeFields makes two passes: the first checks the payload and sizes
// the shared string and list storage, the second fills the record. All
// the record's text lies in one buffer allocated at its exact size, and
// every field and list element is a string over its piece of it, made as
// the piece is copied in: the buffer is never written again, so the
// strings are as immutable as any. String fields are set through their
// offsets in record.Record, not reflection. A check reads the records of
// all its hits this way: with the copy, the pending list and reflection
// gone, BenchmarkCodec/decode went from 2.62 to 1.70 µs per record and
// from 5 to 3 allocations.
func decodeFields(s schema, p []byte) (*record.Record, error) {
	var sz fieldWalker
	if err := sz.walk(s, p, nil); err != nil {
		return nil, err
	}
	r := new(record.Record)
	w := fieldWalker{
		strs:  make([]byte, sz.strBytes),
		lists: make([]string, 0, sz.listLen),
	}
	if err := w.walk(s, p, r); err != nil {
		return nil, err
	}
	return r, nil
}

// stringFieldOffset holds, by field index of record.Record, the offset of
// each string field (^0 for the others).
var stringFieldOffset = func() []uintptr {
	t := reflect.TypeFor[record.Record]()
	out := make([]uintptr, t.NumField())
	for i := range out {
		out[i] = ^uintptr(0)
		if f := t.Field(i); f.Type.Kind() == reflect.String {
			out[i] = f.Offset
		}
	}
	return out
}()

// fieldWalker reads a payload. Without a record it only checks the payload
// and counts what the record will need; with one it fills it.
type fieldWalker struct {
	p                        []byte
	strBytes, listLen, nStrs int
	strs                     []byte // the record's text, at its exact size
	off                      int    // how much of strs is filled
	lists                    []string
	r                        *record.Record
}

func (w *fieldWalker) uvarint() (uint64, bool) {
	v, n := binary.Uvarint(w.p)
	if n <= 0 {
		return 0, false
	}
	w.p = w.p[n:]
	return v, true
}

func (w *fieldWalker) str() ([]byte, bool) {
	l, ok := w.uvarint()
	if !ok || l > uint64(len(w.p)) {
		return nil, false
	}
	b := w.p[:l]
	w.p = w.p[l:]
	return b, true
}

// keepStr records a string for field (elem -1) or for list element elem:
// counted in the first pass, copied into strs and set in the second.
func (w *fieldWalker) keepStr(b []byte, field, elem int, fill bool) {
	w.strBytes += len(b)
	w.nStrs++
	if !fill {
		return
	}
	var str string
	if len(b) > 0 {
		n := copy(w.strs[w.off:], b)
		str = unsafe.String(&w.strs[w.off], n)
		w.off += n
	}
	if elem >= 0 {
		w.lists[elem] = str
		return
	}
	*(*string)(unsafe.Add(unsafe.Pointer(w.r), stringFieldOffset[field])) = str
}

// walk reads the blob p field by field as schema s lays it out, filling
// r; with r nil it only checks p and sizes the storage (decodeFields'
// first pass).
func (w *fieldWalker) walk(s schema, p []byte, r *record.Record) error {
	w.p = p
	w.r = r
	fill := r != nil
	var v reflect.Value
	if fill {
		v = reflect.ValueOf(r).Elem()
	}
	for {
		num, ok := w.uvarint()
		if !ok {
			return errCorrupt
		}
		if num == 0 {
			return nil
		}
		if num > uint64(len(s)) {
			return errCorrupt
		}
		f := s[num-1]
		keep := f.index >= 0
		switch f.kind {
		case kindString:
			b, ok := w.str()
			if !ok {
				return errCorrupt
			}
			if keep {
				if stringFieldOffset[f.index] == ^uintptr(0) {
					return errCorrupt // a schema naming no string field
				}
				w.keepStr(b, f.index, -1, fill)
			}
		case kindList:
			cnt, ok := w.uvarint()
			if !ok || cnt > uint64(len(w.p)) {
				return errCorrupt
			}
			first := len(w.lists)
			for range cnt {
				b, ok := w.str()
				if !ok {
					return errCorrupt
				}
				if keep {
					w.listLen++
					if fill {
						w.lists = append(w.lists, "")
						w.keepStr(b, f.index, len(w.lists)-1, true)
					} else {
						w.keepStr(b, f.index, 0, false)
					}
				}
			}
			if keep && fill && cnt > 0 {
				// A full slice expression, so that appending to one list
				// never overwrites the next.
				l := w.lists[first:len(w.lists):len(w.lists)]
				*(v.Field(f.index).Addr().Interface().(*[]string)) = l
			}
		case kindInt:
			n, k := binary.Varint(w.p)
			if k <= 0 {
				return errCorrupt
			}
			w.p = w.p[k:]
			if keep && fill {
				fv := v.Field(f.index)
				if fv.OverflowInt(n) {
					return errCorrupt
				}
				fv.SetInt(n)
			}
		case kindExtra:
			cnt, ok := w.uvarint()
			if !ok || cnt > uint64(len(w.p)) {
				return errCorrupt
			}
			var m map[string]json.RawMessage
			if keep && fill {
				m = make(map[string]json.RawMessage, cnt)
			}
			for range cnt {
				k, ok1 := w.str()
				val, ok2 := w.str()
				if !ok1 || !ok2 {
					return errCorrupt
				}
				if m != nil {
					m[string(k)] = json.RawMessage(slices.Clone(val))
				}
			}
			if m != nil {
				*(v.Field(f.index).Addr().Interface().(*map[string]json.RawMessage)) = m
			}
		default:
			return errCorrupt
		}
	}
}
