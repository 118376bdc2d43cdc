package store

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// deletes returns DELETE changes of the first n records.
func deletes(recs []*record.Record, n int) []record.Change {
	out := make([]record.Change, n)
	for i := range n {
		out[i] = record.Change{Type: record.ChangeDelete, Record: record.Record{ID: recs[i].ID}}
	}
	return out
}

// TestChangeSetGuard: a change set (ApplyDelta) or a merge (MergeSources)
// that would remove more than half of the store's records is refused like
// a full import, unless AllowShrink; one that would empty the store is
// refused always. A refusal leaves records, version and outbox as they
// were.
func TestChangeSetGuard(t *testing.T) {
	base := genRecords(1, 100)
	local := genRecords(2, 100)
	for i, r := range local {
		r.SourceID = "bank-list"
		local[i] = r
	}
	delta := func(n int) func(db *Store, hook Hook) (*Applied, error) {
		return func(db *Store, hook Hook) (*Applied, error) {
			return db.ApplyDelta("v1", "v2", deletes(base, n), hook)
		}
	}
	merge := func(keep int) func(db *Store, hook Hook) (*Applied, error) {
		return func(db *Store, hook Hook) (*Applied, error) {
			return db.MergeSources("v2", Slice(local[:keep]), MergeOptions{Sources: []string{"bank-list"}}, hook)
		}
	}
	tests := []struct {
		name    string
		merged  bool // the store holds local instead of base
		allow   bool
		write   func(db *Store, hook Hook) (*Applied, error)
		refused bool
		empty   bool
	}{
		{"delta deletes 90 of 100", false, false, delta(90), true, false},
		{"delta deletes 90, allowed", false, true, delta(90), false, false},
		{"delta deletes half", false, false, delta(50), false, false},
		{"delta deletes every record", false, false, delta(100), true, true},
		{"delta deletes every record, allow-shrink", false, true, delta(100), true, true},
		{"merge of an empty file over every source", true, false, merge(0), true, true},
		{"merge of an empty file, allow-shrink", true, true, merge(0), true, true},
		{"merge keeps 30 of 100", true, false, merge(30), true, false},
		{"merge keeps 30, allowed", true, true, merge(30), false, false},
		{"merge keeps 60", true, false, merge(60), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logBuf bytes.Buffer
			db, _ := openTest(t, Options{AllowShrink: tc.allow, Log: slog.New(slog.NewTextHandler(&logBuf, nil))})
			want := base
			if tc.merged {
				want = local
				if _, err := db.MergeSources("v1", Slice(local), MergeOptions{}, nil); err != nil {
					t.Fatal(err)
				}
			} else {
				mustImport(t, db, "v1", base)
			}
			hooked := false
			_, err := tc.write(db, func(*Tx, *Applied) error { hooked = true; return nil })
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if v, _ := db.Version(); v.ID != "v2" {
					t.Errorf("store at %q", v.ID)
				}
				if allowed := db.GuardCounts().Allowed == 1; allowed != tc.allow {
					t.Errorf("counts %+v", db.GuardCounts())
				}
				return
			}
			var se *ShrinkError
			if !errors.As(err, &se) || se.Empty != tc.empty || se.Before != 100 || se.Kind == "full import" {
				t.Fatalf("got %v (%+v), want a ShrinkError empty=%v", err, se, tc.empty)
			}
			if hooked {
				t.Error("the hook ran for a refused change: monitoring would notify")
			}
			if v, _ := db.Version(); v.ID != "v1" || v.Records != 100 {
				t.Errorf("store at %+v after a refusal", v)
			}
			sameSet(t, allRecords(t, db), byID(want))
			if n, _ := db.Count(); n != 100 {
				t.Errorf("count %d", n)
			}
			if db.GuardCounts().Refused != 1 || !strings.Contains(logBuf.String(), "level=ERROR") {
				t.Errorf("counts %+v, log %q", db.GuardCounts(), logBuf.String())
			}
			if !tc.empty && !strings.Contains(err.Error(), "--allow-shrink") {
				t.Errorf("message does not say how to override: %v", err)
			}
		})
	}
}
