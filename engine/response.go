package engine

import (
	"strconv"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// TimestampFormat is the response timestamp: RFC 3339 in UTC with
// milliseconds (SEMANTICS.md "Requests and errors").
const TimestampFormat = "2006-01-02T15:04:05.000Z07:00"

// AppendCheckResponse appends the CheckResponse JSON of SERVICE.md 2.2 for
// r, stamped with ts, records written with o (snake_case for the API).
func (r *Result) AppendCheckResponse(dst []byte, ts time.Time, o record.WriteOptions) []byte {
	dst = append(dst, `{"timestamp":"`...)
	dst = ts.UTC().AppendFormat(dst, TimestampFormat)
	dst = append(dst, `","total_hits":`...)
	dst = strconv.AppendInt(dst, int64(r.Total), 10)
	dst = append(dst, `,"found_records":[`...)
	for i := range r.Hits {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.Hits[i].Record.Append(dst, o)
	}
	return append(dst, "]}"...)
}
