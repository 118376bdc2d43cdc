package store

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

func TestParseSince(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"last", "last", true},
		{"2026-11-25", "2026-11-25", true},
		{"2026-11-25T00:00:00Z~3", "2026-11-25T00:00:00Z~3", true},
		{"v7", "v7", true},
		{"2026-13-01", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		s, err := ParseSince(tt.in)
		if (err == nil) != tt.ok || (tt.ok && s.String() != tt.want) {
			t.Errorf("ParseSince(%q) = %q, %v", tt.in, s.String(), err)
		}
	}
	if s, _ := ParseSince("2026-11-25"); !s.Date.Equal(time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("day starts at %v", s.Date)
	}
}

// TestDigestOldAndNewValues applies three change sets and checks the
// digest of each period: the merged type, the version of the last change
// and the record before and after.
func TestDigestOldAndNewValues(t *testing.T) {
	clk := &clock{time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: clk.now})
	mustImport(t, db, "v1", []*record.Record{{ID: "A", Name: "a"}, {ID: "B", Name: "b"}, {ID: "C", Name: "c"}})
	step := func(prev, next string, changes ...record.Change) {
		t.Helper()
		clk.t = clk.t.Add(24 * time.Hour)
		if _, err := db.ApplyDelta(prev, next, changes, nil); err != nil {
			t.Fatal(err)
		}
	}
	ch := func(typ, id, name string) record.Change {
		return record.Change{Type: typ, Record: record.Record{ID: id, Name: name}}
	}
	step("v1", "v2", ch("ADD", "D", "d"), ch("UPDATE", "A", "a2"), ch("DELETE", "Q", "")) // 11-21
	step("v2", "v3", ch("UPDATE", "D", "d2"), ch("DELETE", "B", ""), ch("ADD", "E", "e")) // 11-22
	step("v3", "v4", ch("DELETE", "E", ""), ch("ADD", "B", "b again"), ch("UPDATE", "A", "a3"))

	name := func(r *record.Record) string {
		if r == nil {
			return "-"
		}
		return r.Name
	}
	tests := []struct {
		since string
		want  []string // type:id:version:before:after
	}{
		{"v1", []string{"UPDATE:A:v4:a:a3", "UPDATE:B:v4:b:b again", "ADD:D:v3:-:d2"}},
		{"v3", []string{"UPDATE:A:v4:a2:a3", "ADD:B:v4:-:b again", "DELETE:E:v4:e:-"}},
		{"last", []string{"UPDATE:A:v4:a2:a3", "ADD:B:v4:-:b again", "DELETE:E:v4:e:-"}},
		{"2026-11-22", []string{"UPDATE:A:v4:a2:a3", "UPDATE:B:v4:b:b again", "UPDATE:D:v3:d:d2"}},
		{"2026-11-30", nil},
		{"v4", nil},
	}
	for _, tt := range tests {
		s, err := ParseSince(tt.since)
		if err != nil {
			t.Fatal(err)
		}
		from, err := db.StartVersion(s)
		if err != nil {
			t.Fatalf("%s: %v", tt.since, err)
		}
		entries, cur, err := db.Digest(from)
		if err != nil || cur != "v4" {
			t.Fatalf("%s: %q %v", tt.since, cur, err)
		}
		var got []string
		for _, e := range entries {
			if e.OldUnknown {
				t.Errorf("%s: %s has no old value", tt.since, e.ID)
			}
			got = append(got, e.Type+":"+e.ID+":"+e.Version+":"+name(e.Before)+":"+name(e.After))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("since %s:\n got %v\nwant %v", tt.since, got, tt.want)
		}
	}
	if _, err := db.StartVersion(Since{Date: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("a period from before the first import: %v", err)
	}
	if _, _, err := db.Digest("v0"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("unknown version: %v", err)
	}

	// A period that ends at an earlier version leaves the later change
	// sets out, as a reader paging from the first page's version needs.
	until := []struct {
		from, until, cur string
		want             []string
	}{
		{"v1", "v2", "v2", []string{"UPDATE:A:v2:a:a2", "ADD:D:v2:-:d"}},
		{"v1", "v3", "v3", []string{"UPDATE:A:v2:a:a2", "DELETE:B:v3:b:-", "ADD:D:v3:-:d2", "ADD:E:v3:-:e"}},
		{"v2", "v2", "v2", nil},
		{"v3", "v4", "v4", []string{"UPDATE:A:v4:a2:a3", "ADD:B:v4:-:b again", "DELETE:E:v4:e:-"}},
	}
	for _, tt := range until {
		entries, cur, err := db.DigestUntil(tt.from, tt.until)
		if err != nil || cur != tt.cur {
			t.Fatalf("%s..%s: %q %v", tt.from, tt.until, cur, err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Type+":"+e.ID+":"+e.Version+":"+name(e.Before)+":"+name(e.After))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s..%s:\n got %v\nwant %v", tt.from, tt.until, got, tt.want)
		}
	}
	for _, bad := range [][2]string{{"v3", "v2"}, {"v1", "v9"}} {
		if _, _, err := db.DigestUntil(bad[0], bad[1]); !errors.Is(err, ErrUnknownVersion) {
			t.Errorf("%s..%s: %v, want ErrUnknownVersion", bad[0], bad[1], err)
		}
	}
}

// TestDigestOfOldLogHasNoOldValues checks that an UPDATE logged before the
// store kept old values says so rather than inventing them.
func TestDigestOfOldLogHasNoOldValues(t *testing.T) {
	db, _ := openTest(t, Options{})
	mustImport(t, db, "v1", []*record.Record{{ID: "A", Name: "a"}})
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: "UPDATE", Record: record.Record{ID: "A", Name: "a2"}}}, nil); err != nil {
		t.Fatal(err)
	}
	// Drop the old values, as a store written by an earlier version lacks them.
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketChangesBefore) }); err != nil {
		t.Fatal(err)
	}
	entries, _, err := db.Digest("v1")
	if err != nil || len(entries) != 1 {
		t.Fatalf("%v %v", entries, err)
	}
	if e := entries[0]; e.Type != "UPDATE" || !e.OldUnknown || e.Before != nil || e.After.Name != "a2" {
		t.Fatalf("%+v", e)
	}
}

// TestOldValuesArePruned checks that the old values leave with their
// change set.
func TestOldValuesArePruned(t *testing.T) {
	clk := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: clk.now})
	mustImport(t, db, "v1", []*record.Record{{ID: "A", Name: "a"}})
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: "UPDATE", Record: record.Record{ID: "A", Name: "a2"}}}, nil); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n := 0
		db.bolt.View(func(tx *bolt.Tx) error { n = tx.Bucket(bucketChangesBefore).Stats().KeyN; return nil })
		return n
	}
	if count() != 1 {
		t.Fatalf("old values after an update: %d chunks", count())
	}
	clk.t = clk.t.Add(30 * 24 * time.Hour)
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: "ADD", Record: record.Record{ID: "B", Name: "b"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if count() != 0 {
		t.Fatalf("old values after pruning: %d chunks", count())
	}
}
