package syncer

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// TestSyncEmptyFullFileKeepsTheStore: an upstream that no longer knows
// the stored version ("Provided previous version does not exist.") and
// then answers getConsolidatedFile with an empty body must not wipe the
// store. It used to: the store went to 0 records (logged at INFO) and the
// monitoring hook queued a DELETE for every matched profile.
func TestSyncEmptyFullFileKeepsTheStore(t *testing.T) {
	for name, body := range map[string][]byte{
		"empty":           nil,
		"whitespace only": []byte("\n  \r\n\t\n"),
		"gzip of nothing": gzipped(nil),
	} {
		t.Run(name, func(t *testing.T) {
			up, srv := newUpstream(t)
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			c := testClient(srv, &logs, &sleeps, nil)
			if _, err := c.Sync(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			before, _ := db.Version()
			hooked := false
			db.OnApply(func(*store.Tx, *store.Applied) error { hooked = true; return nil })
			up.current, up.full = "v-empty", body

			res, err := c.Sync(context.Background(), db)
			var se *store.ShrinkError
			if !errors.As(err, &se) || !se.Empty || se.Before != len(wantV1) {
				t.Fatalf("got %v, want a ShrinkError for an empty file", err)
			}
			if up.callsTo("getConsolidatedDelta") != 1 || up.callsTo("getConsolidatedFile") != 2 {
				t.Fatalf("calls %v: the test did not take the fallback path", up.calls)
			}
			if res != nil && res.Applied != nil {
				t.Errorf("result reports an applied change: %+v", res.Applied)
			}
			if hooked {
				t.Error("the monitoring hook ran for a refused import")
			}
			if v, _ := db.Version(); v.ID != before.ID {
				t.Errorf("store at %q, want %q", v.ID, before.ID)
			}
			if got := contents(t, db); !reflect.DeepEqual(got, wantV1) {
				t.Errorf("records after the refused import: %v", got)
			}
			if st, _ := db.SyncState(); !strings.Contains(st.LastError, "no records") {
				t.Errorf("sync state does not say why: %q", st.LastError)
			}
			if db.GuardCounts().Refused != 1 {
				t.Errorf("guard counts %+v", db.GuardCounts())
			}
		})
	}
}

// TestImportFileRefusesEmptyFiles: import of a 0-byte or whitespace-only
// file leaves the store as it was.
func TestImportFileRefusesEmptyFiles(t *testing.T) {
	db := openStore(t)
	importFixture(t, db, "full_v1.jsonl", "v1")
	for _, body := range []string{"", " \n\n\t \r\n"} {
		_, err := ImportFile(db, strings.NewReader(body), "v2", nil)
		var se *store.ShrinkError
		if !errors.As(err, &se) || !se.Empty {
			t.Fatalf("%q: got %v, want a ShrinkError", body, err)
		}
		if v, _ := db.Version(); v.ID != "v1" || !reflect.DeepEqual(contents(t, db), wantV1) {
			t.Fatalf("%q: store changed to %q", body, v.ID)
		}
	}
}
