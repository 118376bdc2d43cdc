// Package response writes the JSON bodies of /v1 check answers: the
// CheckResponse and each found record, byte for byte as the hosted service
// answers in strict mode. The matcher returns hits; only the front ends
// that answer with this JSON (the server, the CLI's check --format json
// and the webhook notifications' timestamp) import this package.
package response

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// AppendCheck appends the CheckResponse JSON of docs/API.md "Check
// responses" for r, stamped with ts, records written with o (snake_case
// for the API).
func AppendCheck(dst []byte, r *engine.Result, ts time.Time, o record.WriteOptions) []byte {
	dst = append(dst, `{"timestamp":"`...)
	dst = ts.UTC().AppendFormat(dst, record.TimestampFormat)
	dst = append(dst, `","total_hits":`...)
	dst = strconv.AppendInt(dst, int64(r.Total), 10)
	dst = append(dst, `,"found_records":[`...)
	for i := range r.Hits {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendHit(dst, &r.Hits[i], o)
	}
	return append(dst, "]}"...)
}

// AppendHit appends the found-record JSON of h: the record as
// record.Append writes it and, for a scored-mode hit, two more keys at the
// end, "match_score" (the score in [0, 1]) and "match_reason" (the
// ScoreReason, snake_case keys whatever o's case). A strict hit is the
// record alone, byte for byte, as the /v1 service answers.
func AppendHit(dst []byte, h *engine.Hit, o record.WriteOptions) []byte {
	dst = h.Record.Append(dst, o)
	if h.Reason == nil {
		return dst
	}
	reason, err := json.Marshal(h.Reason)
	if err != nil || len(dst) == 0 || dst[len(dst)-1] != '}' {
		return dst // a ScoreReason always marshals; a record is an object
	}
	dst = dst[:len(dst)-1]
	if len(dst) > 0 && dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, `"match_score":`...)
	dst = strconv.AppendFloat(dst, h.Score, 'f', -1, 64)
	dst = append(dst, `,"match_reason":`...)
	dst = append(dst, reason...)
	return append(dst, '}')
}
