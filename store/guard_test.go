package store

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestFullImportGuard: a full import that would empty the store, or
// remove more than half of its records, is refused before anything is
// written: the version, the records and the change log stay, the hook
// (the monitoring outbox) does not run, an ERROR line is logged and the
// refusal counted. --allow-shrink lets a shrink through (logged at WARN,
// counted), never an empty file.
func TestFullImportGuard(t *testing.T) {
	base := genRecords(1, 100)
	tests := []struct {
		name    string
		allow   bool
		feed    []*record.Record
		refused bool
		empty   bool
		removed int
	}{
		{"empty file", false, nil, true, true, 0},
		{"empty file with allow-shrink", true, nil, true, true, 0},
		{"51 of 100 removed", false, base[51:], true, false, 51},
		{"exactly half removed", false, base[50:], false, false, 0},
		{"same size, every id new", false, genRecords(2, 200)[100:], true, false, 100},
		{"51 removed, allowed", true, base[51:], false, false, 0},
		{"ten kept, allowed", true, base[:10], false, false, 0},
		{"grows", false, genRecords(1, 300), false, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logBuf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logBuf, nil))
			db, _ := openTest(t, Options{AllowShrink: tc.allow, Log: log})
			mustImport(t, db, "v1", base)
			hooked := false
			err := db.ReplaceAll("v2", Slice(tc.feed), func(*Tx, *Applied) error { hooked = true; return nil })
			var se *ShrinkError
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if v, _ := db.Version(); v.ID != "v2" || !hooked {
					t.Fatalf("allowed import not applied: version %q, hook ran %v", v.ID, hooked)
				}
				shrunk := len(tc.feed) < 50
				if got := db.GuardCounts(); got.Refused != 0 || (got.Allowed == 1) != (tc.allow && shrunk) {
					t.Errorf("counts %+v", got)
				}
				if (tc.allow && shrunk) != strings.Contains(logBuf.String(), "level=WARN") {
					t.Errorf("WARN line for an allowed shrink: %q", logBuf.String())
				}
				return
			}
			if !errors.As(err, &se) || se.Empty != tc.empty || se.Before != 100 || se.After != len(tc.feed) || se.Removed != tc.removed {
				t.Fatalf("got %v (%+v), want a ShrinkError empty=%v removed=%d", err, se, tc.empty, tc.removed)
			}
			if hooked {
				t.Error("the hook ran for a refused import: monitoring would notify")
			}
			if v, _ := db.Version(); v.ID != "v1" || v.Records != 100 {
				t.Errorf("store at %+v after a refused import", v)
			}
			sameSet(t, allRecords(t, db), byID(base))
			if vs, _ := db.Versions(); len(vs) != 1 {
				t.Errorf("versions %+v: the refused import was recorded", vs)
			}
			if got := db.GuardCounts(); got.Refused != 1 || got.Allowed != 0 {
				t.Errorf("counts %+v, want one refusal", got)
			}
			if !strings.Contains(logBuf.String(), "level=ERROR") || !strings.Contains(logBuf.String(), "records_before=100") {
				t.Errorf("no ERROR line with the counts: %q", logBuf.String())
			}
			if !tc.empty && !strings.Contains(err.Error(), "--allow-shrink") {
				t.Errorf("message does not say how to override: %v", err)
			}
		})
	}
}

// TestFullImportGuardEmptyStore: into an empty store any non-empty file
// goes (there is nothing to lose), an empty one does not.
func TestFullImportGuardEmptyStore(t *testing.T) {
	db, _ := openTest(t, Options{Log: slog.New(slog.DiscardHandler)})
	var se *ShrinkError
	if err := db.ReplaceAll("v1", Slice(nil), nil); !errors.As(err, &se) || !se.Empty {
		t.Fatalf("empty file into an empty store: %v", err)
	}
	if v, _ := db.Version(); v.ID != "" {
		t.Fatalf("empty store at version %q after a refused import", v.ID)
	}
	mustImport(t, db, "v1", genRecords(1, 1))
}

// TestReplaceAllValidatesRecords: a record the contract forbids (an id
// with a slash) stops the import, whoever feeds it.
func TestReplaceAllValidatesRecords(t *testing.T) {
	db, _ := openTest(t, Options{})
	err := db.ReplaceAll("v1", Slice([]*record.Record{{ID: "A1"}, {ID: "A/2"}}), nil)
	if err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Fatalf("got %v, want the second record refused", err)
	}
}
