package convert

import (
	"io"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// Converter is a list's converter once its input is bound: it calls emit
// with every record it reads.
type Converter = conv.Converter

// MaxInputBytes bounds the text a converter reads from one list, after
// decompression: a damaged or hostile file stops with an error instead of
// filling the disk or the memory.
const MaxInputBytes = conv.MaxInputBytes

// WriteJSONL runs c and writes each record to w as one line of
// consolidated JSON Lines (camelCase keys), gzip-compressed when gz is
// set, and returns the number of records written. A record CheckRecord
// refuses, or an id that comes twice, stops it with an error naming the
// record.
func WriteJSONL(w io.Writer, gz bool, c Converter) (n int, err error) {
	return conv.WriteJSONL(w, gz, c)
}

// CheckRecord reports why r cannot go into a consolidated file: an id that
// breaks the rules, no source_id, no name, or what record.Validate
// refuses.
func CheckRecord(r *record.Record) error { return conv.CheckRecord(r) }
