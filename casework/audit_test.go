package casework

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// auditFixture makes a store whose log holds users, alerts, a review and
// two screenings: 14 entries.
func auditFixture(t *testing.T) (*Casework, func(func(bk *store.Bucket))) {
	c, db := openTest(t)
	addUsers(t, c) // 6 users added, 1 disabled: 7 entries
	id := raiseOne(t, c, "C-1", testRecord(1, "SANCTION"))
	if err := c.Propose(User("ana"), []uint64{id}, FalsePositive, "born 1971"); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rev"), []uint64{id}, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.LogScreening("ana", "checkIndividual names=vladimir putin", "v1", []string{"R00001", "R00002"}); err != nil {
		t.Fatal(err)
	}
	if err := c.LogScreening("acme", "checkEntity names=romashka", "v1", nil); err != nil {
		t.Fatal(err)
	}
	if n := mustVerify(t, c); n != 13 {
		t.Fatalf("%d entries, want 13", n)
	}
	tamper := func(fn func(bk *store.Bucket)) {
		t.Helper()
		if err := db.Write(func(tx *store.Tx) error { fn(store.Audit.Bucket(tx)); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return c, tamper
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// rewrite changes entry n with edit; with rehash the forger also
// recomputes the entry's own hash.
func rewrite(bk *store.Bucket, n uint64, rehash bool, edit func(*Entry)) {
	var e Entry
	json.Unmarshal(bk.Get(seqKey(n)), &e)
	edit(&e)
	v, _ := json.Marshal(e)
	if rehash {
		_, v, _ = hashOf(e)
	}
	bk.Put(seqKey(n), v)
}

// TestAuditChainNamesTheBrokenEntry tampers with the log in every way a
// writer of the file could and checks Verify names the first entry at
// fault.
func TestAuditChainNamesTheBrokenEntry(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(bk *store.Bucket)
		seq    uint64
		reason string
	}{
		{"changed actor", func(bk *store.Bucket) { rewrite(bk, 9, false, func(e *Entry) { e.Actor = "adm" }) }, 9, "does not match its hash"},
		{"changed ids, rehashed", func(bk *store.Bucket) { rewrite(bk, 12, true, func(e *Entry) { e.IDs = e.IDs[:1] }) }, 13, "hash of the entry before"},
		{"changed time, rehashed", func(bk *store.Bucket) {
			rewrite(bk, 3, true, func(e *Entry) { e.Time = e.Time.Add(-time.Hour) })
		}, 4, "hash of the entry before"},
		{"deleted", func(bk *store.Bucket) { bk.Delete(seqKey(5)) }, 5, "missing"},
		{"last deleted", func(bk *store.Bucket) { bk.Delete(seqKey(13)) }, 13, "ends at entry 12"},
		{"spaces added", func(bk *store.Bucket) {
			v := bytes.Replace(bk.Get(seqKey(2)), []byte(`,"actor"`), []byte(`, "actor"`), 1)
			bk.Put(seqKey(2), v)
		}, 2, "canonical"},
		{"not JSON", func(bk *store.Bucket) { bk.Put(seqKey(7), []byte("{")) }, 7, "unreadable"},
		{"renumbered", func(bk *store.Bucket) { rewrite(bk, 6, true, func(e *Entry) { e.Seq = 60 }) }, 6, "says it is entry 60"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, tamper := auditFixture(t)
			tamper(tc.tamper)
			_, err := c.Verify()
			var be *BrokenError
			if !errors.As(err, &be) || be.Seq != tc.seq || !strings.Contains(be.Reason, tc.reason) {
				t.Fatalf("Verify: %v, want entry %d (%s)", err, tc.seq, tc.reason)
			}
		})
	}
}

func TestAuditExport(t *testing.T) {
	c, _ := auditFixture(t)
	var js bytes.Buffer
	n, err := c.Export(&js, zeroTime, zeroTime, "json")
	if err != nil || n != 13 {
		t.Fatalf("json export: %d, %v", n, err)
	}
	sc := bufio.NewScanner(&js)
	var prev string = genesis
	lines := 0
	var screening Entry
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v", lines+1, err)
		}
		if e.Prev != prev {
			t.Fatalf("line %d: prev %s, want %s", lines+1, e.Prev, prev)
		}
		prev = e.Hash
		if e.Action == ActionScreening && screening.Seq == 0 {
			screening = e
		}
		lines++
	}
	if lines != 13 || screening.Query != "checkIndividual names=vladimir putin" || screening.Version != "v1" || strings.Join(screening.IDs, ",") != "R00001,R00002" || screening.Actor != "ana" {
		t.Fatalf("%d lines, screening %+v", lines, screening)
	}

	// A window of time: the clock moves a second per change, from 09:00:01.
	var cs bytes.Buffer
	from := time.Date(2026, 11, 1, 9, 0, 3, 0, time.UTC)
	to := time.Date(2026, 11, 1, 9, 0, 5, 0, time.UTC)
	n, err = c.Export(&cs, from, to, "csv")
	if err != nil || n != 2 {
		t.Fatalf("csv export of two seconds: %d, %v", n, err)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(rows) != 3 || strings.Join(rows[0], ",") != strings.Join(AuditColumns, ",") {
		t.Fatalf("csv: %v, %q", err, rows)
	}
	if rows[1][1] != "2026-11-01T09:00:03Z" || rows[2][1] != "2026-11-01T09:00:04Z" {
		t.Fatalf("times %s, %s", rows[1][1], rows[2][1])
	}
	if err := c.LogScreening("ana", "=HYPERLINK(\"x\")", "v1", nil); err != nil {
		t.Fatal(err)
	}
	cs.Reset()
	if _, err := c.Export(&cs, zeroTime, zeroTime, "csv"); err != nil || !strings.Contains(cs.String(), `"'=HYPERLINK(""x"")"`) {
		t.Fatalf("a formula in the csv export: %v\n%s", err, cs.String())
	}
	if _, err := c.Export(&cs, zeroTime, zeroTime, "xml"); err == nil {
		t.Fatal("format xml taken")
	}
}

func TestLogScreeningLimits(t *testing.T) {
	c, _ := openTest(t)
	if err := c.LogScreening("", "q", "v1", nil); err == nil {
		t.Fatal("screening without actor logged")
	}
	if err := c.LogScreening("ana", strings.Repeat("x", maxText+1), "v1", nil); err == nil {
		t.Fatal("over-long query logged")
	}
	ids := make([]string, MaxScreeningIDs+10)
	for i := range ids {
		ids[i] = "R"
	}
	if err := c.LogScreening("ana", "q", "v1", ids); err != nil {
		t.Fatal(err)
	}
	c.Each(zeroTime, zeroTime, func(e Entry) error {
		if len(e.IDs) != MaxScreeningIDs {
			t.Fatalf("%d ids kept", len(e.IDs))
		}
		return nil
	})
}

// TestCanonicalEncoding: the encoding hashOf builds is json.Marshal's of
// the entry with its hash set.
func TestCanonicalEncoding(t *testing.T) {
	e := Entry{Seq: 3, Time: time.Date(2026, 11, 1, 9, 0, 0, 5, time.UTC), Actor: "ana", Action: ActionScreening,
		Query: `names="x" <y>`, IDs: []string{"R1"}, Prev: genesis}
	h, enc, err := hashOf(e)
	if err != nil {
		t.Fatal(err)
	}
	e.Hash = h
	want, _ := json.Marshal(e)
	if !bytes.Equal(enc, want) {
		t.Fatalf("encoding\n%s\nwant\n%s", enc, want)
	}
}
