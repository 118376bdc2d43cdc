package response

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestCheckResponse: a strict answer is the records alone, byte for byte;
// a scored hit's record gains match_score and match_reason as its last
// keys.
func TestCheckResponse(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	rec := &record.Record{ID: "smith", SourceID: "un", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "SMITH, John"}
	strict := &engine.Result{Total: 3, Hits: []engine.Hit{{ID: "smith", Record: rec}}}
	got := AppendCheck(nil, strict, ts, record.WriteOptions{})
	want := []byte(`{"timestamp":"2026-01-02T02:04:05.000Z","total_hits":3,"found_records":[`)
	want = rec.Append(want, record.WriteOptions{})
	want = append(want, "]}"...)
	if !bytes.Equal(got, want) {
		t.Errorf("strict response:\n got %s\nwant %s", got, want)
	}
	if got := AppendCheck(nil, &engine.Result{}, ts, record.WriteOptions{}); string(got) != `{"timestamp":"2026-01-02T02:04:05.000Z","total_hits":0,"found_records":[]}` {
		t.Errorf("empty response %s", got)
	}

	scored := &engine.Result{Total: 1, Hits: []engine.Hit{{ID: "smith", Record: rec, Score: 0.875,
		Reason: &engine.ScoreReason{Field: "name", Name: "SMITH, John"}}}}
	body := AppendCheck(nil, scored, ts, record.WriteOptions{})
	var resp struct {
		TotalHits    int `json:"total_hits"`
		FoundRecords []struct {
			ID          string             `json:"id"`
			MatchScore  float64            `json:"match_score"`
			MatchReason engine.ScoreReason `json:"match_reason"`
		} `json:"found_records"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if resp.TotalHits != 1 || resp.FoundRecords[0].ID != "smith" || resp.FoundRecords[0].MatchScore != 0.875 ||
		resp.FoundRecords[0].MatchReason.Name != "SMITH, John" {
		t.Errorf("scored response %s", body)
	}
	if !strings.HasSuffix(string(AppendHit(nil, &scored.Hits[0], record.WriteOptions{})), "}}") {
		t.Error("match_reason is not the record's last key")
	}
}
