package server

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// usageOf asks /v1/usage for key (month "" for the default) after the
// counters had time to reach the store.
func usageOf(t *testing.T, f *fixture, key, month string) Usage {
	t.Helper()
	path := "/v1/usage"
	if month != "" {
		path += "?month=" + month
	}
	a := f.get(key, path)
	if a.StatusCode != 200 {
		t.Fatalf("usage: %d %s", a.StatusCode, a.body)
	}
	var u Usage
	if err := json.Unmarshal(a.body, &u); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUsageCounts: a mix of billed, free and refused calls, over two days
// and across the UTC month boundary, persisted across a restart.
func TestUsageCounts(t *testing.T) {
	f := newFixture(t)
	calls := []string{
		"/v1/checkIndividual?names=putin",
		"/v1/checkIndividual?names=kim",
		"/v1/checkIndividual?names=putin&fuzzy_search=1",
		"/v1/checkEntity?names=acme",
		"/v1/checkName?names=putin&fuzzy_search=7", // 400: not counted
		"/v1/getSourceList",
		"/v1/getSourceList?scope=all",
		"/v1/keys/current",
		"/v1/keys/nope", // 404: not counted
		"/v1/getConsolidatedFile",
	}
	for _, p := range calls {
		f.get(keyBasic, p)
	}
	f.get(keyFull, "/v1/checkName?names=putin") // another key's call
	u := usageOf(t, f, keyBasic, "")
	want := `{"month":"2026-11","timezone":"UTC","summary":{"billed_requests_monthly_used":4},"endpoints":[` +
		`{"path":"/v1/checkEntity","monthly_used":1,"daily":[{"date":"2026-11-22","used":1}]},` +
		`{"path":"/v1/checkIndividual","monthly_used":3,"daily":[{"date":"2026-11-22","used":3}]},` +
		`{"path":"/v1/getConsolidatedFile","monthly_used":1,"daily":[{"date":"2026-11-22","used":1}]},` +
		`{"path":"/v1/getSourceList","monthly_used":2,"daily":[{"date":"2026-11-22","used":2}]},` +
		`{"path":"/v1/keys","monthly_used":1,"daily":[{"date":"2026-11-22","used":1}]}]}`
	if got := mustJSON(t, u); got != want {
		t.Errorf("usage\n got %s\nwant %s", got, want)
	}

	// The next day, and the last second of the month.
	f.clock.Add(24 * time.Hour)
	f.get(keyBasic, "/v1/checkIndividual?names=putin")
	f.clock.Set(time.Date(2026, 11, 30, 23, 59, 59, 999e6, time.UTC))
	f.get(keyBasic, "/v1/checkName?names=putin")
	// The first instant of December (UTC), seen from a UTC+1 clock where
	// it is already 01:00.
	f.clock.Set(time.Date(2026, 12, 1, 1, 0, 0, 0, time.FixedZone("CET", 3600)))
	f.get(keyBasic, "/v1/checkName?names=putin")
	f.get(keyBasic, "/v1/checkName?names=kim")

	dec := usageOf(t, f, keyBasic, "")
	want = `{"month":"2026-12","timezone":"UTC","summary":{"billed_requests_monthly_used":2},"endpoints":[` +
		`{"path":"/v1/checkName","monthly_used":2,"daily":[{"date":"2026-12-01","used":2}]}]}`
	if got := mustJSON(t, dec); got != want {
		t.Errorf("December\n got %s\nwant %s", got, want)
	}

	// Wait for the flusher, then check the store holds the counts, then
	// restart: usage survives.
	deadline := time.Now().Add(5 * time.Second)
	for f.srv.usage.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := f.srv.usage.Pending(); n > 0 {
		t.Fatalf("%d counters still pending after 5 s", n)
	}
	f.stop()
	f.start()
	nov := usageOf(t, f, keyBasic, "2026-11")
	byPath := map[string]EndpointUsage{}
	for _, e := range nov.Endpoints {
		byPath[e.Path] = e
	}
	if nov.Summary.BilledUsed != 6 {
		t.Errorf("November billed %d, want 6 (4 + 1 on the 23rd + 1 on the 30th)", nov.Summary.BilledUsed)
	}
	ci := byPath["/v1/checkIndividual"]
	if ci.MonthlyUsed != 4 || len(ci.Daily) != 2 || ci.Daily[0] != (DayUsage{"2026-11-22", 3}) || ci.Daily[1] != (DayUsage{"2026-11-23", 1}) {
		t.Errorf("checkIndividual %+v", ci)
	}
	if cn := byPath["/v1/checkName"]; cn.MonthlyUsed != 1 || cn.Daily[0].Date != "2026-11-30" {
		t.Errorf("checkName %+v", cn)
	}
	// The December usage call above counts as a free call of December.
	if us := byPath["/v1/usage"]; us.MonthlyUsed != 1 {
		t.Errorf("usage calls in November %+v, want the one made before December", us)
	}
	if empty := usageOf(t, f, keyBasic, "2025-01"); len(empty.Endpoints) != 0 || empty.Summary.BilledUsed != 0 {
		t.Errorf("a month without calls: %+v", empty)
	}
	// Another key sees only its own calls, and its limits.
	q := usageOf(t, f, keyQuota, "2026-11")
	if mustJSON(t, q.Summary) != `{"billed_requests_monthly_used":0,"billed_requests_quota":3,"ongoing_monitoring_profiles_quota":5}` {
		t.Errorf("quota key summary %s", mustJSON(t, q.Summary))
	}
}

// TestMonthlyQuota: the billed quota refuses the call after the last one
// with 429 and Retry-After until the next UTC month, counts only billed
// calls, survives a restart, holds under concurrent calls, and renews.
func TestMonthlyQuota(t *testing.T) {
	f := newFixture(t)
	ok := func(path string) {
		t.Helper()
		if a := f.get(keyQuota, path); a.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, a.StatusCode, a.body)
		}
	}
	ok("/v1/checkIndividual?names=putin")
	f.get(keyQuota, "/v1/checkIndividual?names=putin&gender=x") // refused: not counted
	ok("/v1/getSourceList")
	ok("/v1/checkEntity?names=acme")
	f.stop()
	f.start()
	ok("/v1/checkName?names=putin")
	a := f.get(keyQuota, "/v1/checkName?names=putin")
	if msg := a.errorMessage(t, 429); !strings.Contains(msg, "3 of 3") {
		t.Errorf("message %q", msg)
	}
	// 2026-11-22T10:00Z to 2026-12-01T00:00Z.
	if ra := a.Header.Get("Retry-After"); ra != strconv.Itoa(8*86400+14*3600) {
		t.Errorf("Retry-After %q", ra)
	}
	ok("/v1/usage")
	ok("/v1/getSourceList?scope=all")
	if u := usageOf(t, f, keyQuota, ""); u.Summary.BilledUsed != 3 {
		t.Errorf("billed %d", u.Summary.BilledUsed)
	}

	f.clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 12 {
		wg.Go(func() {
			a := f.get(keyQuota, "/v1/checkIndividual?names=putin")
			mu.Lock()
			codes[a.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[200] != 3 || codes[429] != 9 {
		t.Errorf("12 concurrent calls with 3 left: %v", codes)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
