package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

// lineIDs returns "TYPE:id" (deltas) or "id" (files) for every line.
func lineIDs(t *testing.T, body []byte) []string {
	t.Helper()
	var out []string
	for line := range bytes.Lines(body) {
		var v struct {
			Type   string         `json:"type"`
			ID     string         `json:"id"`
			Record map[string]any `json:"record"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if v.Type != "" {
			if _, ok := v.Record["listDate"]; ok {
				t.Errorf("delta record with listDate: %s", line)
			}
			out = append(out, v.Type+":"+v.Record["id"].(string))
			continue
		}
		out = append(out, v.ID)
	}
	return out
}

func TestConsolidatedFile(t *testing.T) {
	f := newFixture(t)
	plain := f.get(keyBasic, "/v1/getConsolidatedFile")
	if plain.StatusCode != 200 || plain.Header.Get("File-Version") != testVersion || plain.Header.Get("Content-Encoding") != "" {
		t.Fatalf("%d %v", plain.StatusCode, plain.Header)
	}
	if ct := plain.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	if got := strings.Join(lineIDs(t, plain.body), " "); got != "AML001 AML002 AML003 AML004 AML005 AML006 AML007 AML009 AML010 AML011" {
		t.Errorf("basic key file: %s", got)
	}
	first, _, _ := bytes.Cut(plain.body, []byte("\n"))
	if !bytes.Contains(first, []byte(`"sourceId":"ofac_sdn"`)) || !bytes.Contains(first, []byte(`"listDate":"1646092800000"`)) || !bytes.Contains(first, []byte(`"givenNames":["Vladimir"]`)) {
		t.Errorf("not camelCase with listDate: %s", first)
	}
	if bytes.Contains(plain.body, []byte("pepLevel")) {
		t.Error("pepLevel sent to a key without the feature")
	}

	gz := f.get(keyBasic, "/v1/getConsolidatedFile", "Accept-Encoding", "br, gzip;q=0.8")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("no gzip: %v", gz.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.body))
	if err != nil {
		t.Fatal(err)
	}
	unz, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(unz, plain.body) {
		t.Error("gzip body differs from the plain one")
	}
	if a := f.get(keyBasic, "/v1/getConsolidatedFile", "Accept-Encoding", "gzip;q=0, identity"); a.Header.Get("Content-Encoding") != "" {
		t.Error("gzip sent although refused with q=0")
	}

	sub := f.get(keyBasic, "/v1/getConsolidatedFile?includes=un_sc,media_watch")
	if got := strings.Join(lineIDs(t, sub.body), " "); got != "AML003 AML008 AML010 AML012" {
		t.Errorf("includes: %s", got)
	}

	// The full key gets every record, exactly as the store holds them.
	full := f.get(keyFull, "/v1/getConsolidatedFile")
	recs, err := record.ReadAll(bytes.NewReader(full.body))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recordSet(t, recs), storeSet(t, f.st); got != want {
		t.Errorf("file differs from the store:\n got %s\nwant %s", got, want)
	}
}

func TestConsolidatedDelta(t *testing.T) {
	f := newFixture(t)
	f.applyDelta("delta1.jsonl", "2026-11-22T11:00:00Z~2")
	a := f.get(keyBasic, "/v1/getConsolidatedDelta?previous="+testVersion)
	if a.StatusCode != 200 || a.Header.Get("File-Version") != "2026-11-22T11:00:00Z~2" {
		t.Fatalf("%d %v %s", a.StatusCode, a.Header, a.body)
	}
	if got := strings.Join(lineIDs(t, a.body), " "); got != "UPDATE:AML011 ADD:AML013" {
		t.Errorf("delta: %s", got)
	}
	if !bytes.Contains(a.body, []byte(`"aliasNames":["Johnny Smith"]`)) {
		t.Errorf("delta records are not camelCase: %s", a.body)
	}
	// From the newest version: empty, same version.
	a = f.get(keyBasic, "/v1/getConsolidatedDelta?previous=2026-11-22T11:00:00Z~2")
	if a.StatusCode != 200 || len(a.body) != 0 || a.Header.Get("File-Version") != "2026-11-22T11:00:00Z~2" {
		t.Errorf("delta from the newest version: %d %q %v", a.StatusCode, a.body, a.Header)
	}

	f.applyDelta("delta2.jsonl", "2026-11-22T12:00:00Z~3")
	cases := []struct{ key, query, want string }{
		// media_watch is not the basic key's: its UPDATE becomes a DELETE.
		{keyBasic, "previous=2026-11-22T11:00:00Z~2", "DELETE:AML009 DELETE:AML012 ADD:AML014"},
		{keyFull, "previous=2026-11-22T11:00:00Z~2", "DELETE:AML009 UPDATE:AML012 ADD:AML014"},
		// Merged over two change sets, sorted by id.
		{keyFull, "previous=" + testVersion, "DELETE:AML009 UPDATE:AML011 UPDATE:AML012 ADD:AML013 ADD:AML014"},
		{keyBasic, "previous=" + testVersion + "&includes=un_sc", "DELETE:AML011 DELETE:AML012 ADD:AML013"},
	}
	for _, c := range cases {
		a := f.get(c.key, "/v1/getConsolidatedDelta?"+c.query)
		if a.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.query, a.StatusCode, a.body)
		}
		if got := strings.Join(lineIDs(t, a.body), " "); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.key, c.query, got, c.want)
		}
	}
	full := f.get(keyFull, "/v1/getConsolidatedDelta?previous=2026-11-22T11:00:00Z~2")
	if !bytes.Contains(full.body, []byte(`"pepLevel":3`)) {
		t.Errorf("pepLevel missing for the full key: %s", full.body)
	}
	gz := f.get(keyFull, "/v1/getConsolidatedDelta?previous=2026-11-22T11:00:00Z~2", "Accept-Encoding", "gzip")
	zr, err := gzip.NewReader(bytes.NewReader(gz.body))
	if err != nil {
		t.Fatal(err)
	}
	if unz, _ := io.ReadAll(zr); !bytes.Equal(unz, full.body) {
		t.Error("gzip delta differs")
	}
}

// TestDownloadLimit: getConsolidatedFile and getConsolidatedDelta share a
// per-key daily limit; refused calls do not use it up.
func TestDownloadLimit(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.DailyDownloads = 3 })
	f.get(keyBasic, "/v1/getConsolidatedDelta?previous=nope").errorMessage(t, 400)
	for _, p := range []string{"/v1/getConsolidatedFile", "/v1/getConsolidatedDelta?previous=" + testVersion, "/v1/getConsolidatedFile?includes=un_sc"} {
		if a := f.get(keyBasic, p); a.StatusCode != 200 {
			t.Fatalf("%s: %d %s", p, a.StatusCode, a.body)
		}
	}
	a := f.get(keyBasic, "/v1/getConsolidatedDelta?previous="+testVersion)
	if msg := a.errorMessage(t, 429); !strings.Contains(msg, "3 of 3") {
		t.Errorf("message %q", msg)
	}
	if ra := a.Header.Get("Retry-After"); ra != strconv.Itoa(14*3600) {
		t.Errorf("Retry-After %q, want the seconds to midnight UTC", ra)
	}
	if a := f.get(keyFull, "/v1/getConsolidatedFile"); a.StatusCode != 200 {
		t.Errorf("another key was limited: %d", a.StatusCode)
	}
	if a := f.get(keyBasic, "/v1/checkName?names=putin"); a.StatusCode != 200 {
		t.Errorf("checks were limited: %d", a.StatusCode)
	}
	f.clock.Add(14 * time.Hour)
	if a := f.get(keyBasic, "/v1/getConsolidatedFile"); a.StatusCode != 200 {
		t.Errorf("the next day: %d", a.StatusCode)
	}
}

// TestPrimaryReplica: a replica synced with syncer.Client from a primary
// amlscreen server has the primary's records and version after a full
// download and after each of three deltas; when the primary's change log no
// longer reaches the replica's version, the replica falls back to the full
// file.
func TestPrimaryReplica(t *testing.T) {
	primary := newFixture(t)
	replicaClock := &clock{t: primary.clock.Now()}
	rst, err := store.Open(filepath.Join(t.TempDir(), "replica.db"), store.Options{Now: replicaClock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer rst.Close()
	client := &syncer.Client{Upstream: primary.ts.URL, APIKey: keyFull, Now: replicaClock.Now,
		Retry: syncer.Retry{Attempts: 1}}
	ctx := context.Background()
	sync := func(wantFull bool, wantFallback string) {
		t.Helper()
		res, err := client.Sync(ctx, rst)
		if err != nil {
			t.Fatalf("sync: %v", err)
		}
		if res.Full != wantFull || !strings.Contains(res.Fallback, wantFallback) || (wantFallback == "" && res.Fallback != "") {
			t.Errorf("sync full=%v fallback=%q, want full=%v fallback ~%q", res.Full, res.Fallback, wantFull, wantFallback)
		}
		pv, _ := primary.st.Version()
		rv, _ := rst.Version()
		if pv.ID != rv.ID {
			t.Errorf("replica at %q, primary at %q", rv.ID, pv.ID)
		}
		if got, want := storeSet(t, rst), storeSet(t, primary.st); got != want {
			t.Errorf("replica records differ at %s:\n got %s\nwant %s", pv.ID, got, want)
		}
	}
	sync(true, "")
	srcs, err := rst.Sources()
	if err != nil || len(srcs) != 6 {
		t.Errorf("replica catalogue: %d entries, %v", len(srcs), err)
	}
	for i, d := range []string{"delta1.jsonl", "delta2.jsonl", "delta3.jsonl"} {
		primary.clock.Add(time.Hour)
		replicaClock.Add(time.Hour)
		primary.applyDelta(d, store.NewVersion(primary.clock.Now(), uint64(i+2)))
		sync(false, "")
	}
	// Up to date: nothing to apply.
	if res, err := client.Sync(ctx, rst); err != nil || !res.UpToDate {
		t.Errorf("sync when up to date: %+v %v", res, err)
	}

	// Two more change sets on the primary, fifteen days apart: the first
	// leaves the change log, so the replica's version can no longer be
	// answered with a delta. The replica's own clock does not move, so it
	// asks for the delta and learns from the primary's 400.
	primary.clock.Add(time.Hour)
	applyOK(t, primary, mustApply(t, primary.st, "v5", record.Change{Type: record.ChangeAdd,
		Record: record.Record{ID: "AML016", SourceID: "un_sc", SourceType: "SANCTION", EntityType: "ENTITY", Name: "Blue Ocean Shipping"}}))
	primary.clock.Add(15 * 24 * time.Hour)
	applyOK(t, primary, mustApply(t, primary.st, "v6", record.Change{Type: record.ChangeDelete,
		Record: record.Record{ID: "AML002"}}))
	sync(true, "no longer knows")
}

func mustApply(t *testing.T, st *store.Store, version string, changes ...record.Change) *store.Applied {
	t.Helper()
	cur, err := st.Version()
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.ApplyDelta(cur.ID, version, changes, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// recordSet renders records as sorted JSON lines, for comparison.
func recordSet(t *testing.T, recs []*record.Record) string {
	t.Helper()
	var lines []string
	for _, r := range recs {
		lines = append(lines, string(r.Append(nil, record.WriteOptions{Case: record.Camel})))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func storeSet(t *testing.T, st *store.Store) string {
	t.Helper()
	var recs []*record.Record
	if _, err := st.LoadAll(func(r *record.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return recordSet(t, recs)
}

func applyOK(t *testing.T, f *fixture, a *store.Applied) {
	t.Helper()
	if err := f.srv.Apply(f.st, a); err != nil {
		t.Fatal(err)
	}
}

// TestDownloadLimitPerKey: a key's daily_download_limit replaces the
// default (0: none), and every download answer announces the key's limit
// and what is left of it after the answer (a refused call gives its place
// back).
func TestDownloadLimitPerKey(t *testing.T) {
	zero, two := int64(0), int64(2)
	f := newFixture(t, func(c *Config) {
		c.KeysFile = ""
		c.Keys = []*access.Key{{Key: "replica-key", DailyDownloadLimit: &zero}, {Key: "two-key", DailyDownloadLimit: &two}, {Key: keyBasic}}
	})
	headers := func(a answer) string {
		return a.Header.Get(store.HeaderDownloadLimit) + "/" + a.Header.Get(store.HeaderDownloadsRemaining)
	}
	for i := range store.DailyDownloadLimit + 10 {
		a := f.get("replica-key", "/v1/getConsolidatedDelta?previous="+testVersion)
		if a.StatusCode != 200 || headers(a) != "0/" {
			t.Fatalf("download %d with no limit: %d, headers %s: %s", i+1, a.StatusCode, headers(a), a.body)
		}
	}
	for i, want := range []struct {
		path    string
		status  int
		headers string
	}{
		{"/v1/getConsolidatedFile", 200, "2/1"},
		{"/v1/getConsolidatedDelta?previous=unknown", 400, "2/1"},
		{"/v1/getConsolidatedDelta?previous=" + testVersion, 200, "2/0"},
		{"/v1/getConsolidatedFile", 429, "2/0"},
	} {
		a := f.get("two-key", want.path)
		if a.StatusCode != want.status || headers(a) != want.headers {
			t.Errorf("call %d %s: %d, headers %s; want %d, %s", i+1, want.path, a.StatusCode, headers(a), want.status, want.headers)
		}
	}
	if a := f.get(keyBasic, "/v1/getConsolidatedFile"); headers(a) != "50/49" {
		t.Errorf("a key without a limit of its own: headers %s, want the service's 50", headers(a))
	}
	if a := f.get(keyBasic, "/v1/checkName?names=putin"); a.Header.Get(store.HeaderDownloadLimit) != "" {
		t.Error("a check announces a download limit")
	}
	if _, err := access.Parse([]byte(`[{"key":"k","daily_download_limit":-1}]`)); err == nil || !strings.Contains(err.Error(), "daily_download_limit") {
		t.Errorf("negative limit: %v", err)
	}
}

// TestReplicaPollsPastFifty: a replica whose key on the primary has
// daily_download_limit 0 syncs more than 50 times a day: it follows the
// limit the primary announces instead of the service's 50. (Before, poll
// 51 failed with "daily download limit reached: 50 of 50".)
func TestReplicaPollsPastFifty(t *testing.T) {
	zero := int64(0)
	primary := newFixture(t, func(c *Config) {
		c.KeysFile = ""
		c.Keys = []*access.Key{{Key: "replica-key", IncludeOther: true, DailyDownloadLimit: &zero}}
	})
	rst, err := store.Open(filepath.Join(t.TempDir(), "replica.db"), store.Options{Now: primary.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer rst.Close()
	client := &syncer.Client{Upstream: primary.ts.URL, APIKey: "replica-key", Now: primary.clock.Now, Retry: syncer.Retry{Attempts: 1}}
	for i := range store.DailyDownloadLimit + 5 {
		if _, err := client.Sync(context.Background(), rst); err != nil {
			t.Fatalf("poll %d: %v", i+1, err)
		}
	}
	if n, _ := rst.DownloadsToday(primary.clock.Now()); n != store.DailyDownloadLimit+5 {
		t.Errorf("replica counted %d downloads", n)
	}
}
