package syncer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// TestSyncRefusesCloseDelimitedFile: a full file sent with neither a
// Content-Length nor chunked encoding, cut by the connection closing at a
// line boundary, reads as a whole file of fewer records; the sync refuses
// it before importing anything. The same file with a length, or chunked,
// is imported. The upstream is a real loopback server that writes the
// answer by hand on the hijacked connection.
func TestSyncRefusesCloseDelimitedFile(t *testing.T) {
	for _, framing := range []string{"close", "length", "chunked"} {
		t.Run(framing, func(t *testing.T) {
			up, _ := newUpstream(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !strings.HasSuffix(r.URL.Path, "/getConsolidatedFile") {
					up.ServeHTTP(w, r)
					return
				}
				body := up.full
				if framing == "close" {
					// Cut after the first line: what a connection lost
					// mid-transfer leaves.
					body = body[:bytes.IndexByte(body, '\n')+1]
				}
				conn, rw, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nFile-Version: %s\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n", up.current)
				switch framing {
				case "length":
					fmt.Fprintf(rw, "Content-Length: %d\r\n\r\n%s", len(body), body)
				case "chunked":
					fmt.Fprintf(rw, "Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(body), body)
				default:
					fmt.Fprintf(rw, "\r\n%s", body)
				}
				rw.Flush()
			}))
			t.Cleanup(srv.Close)
			var logs bytes.Buffer
			var sleeps []time.Duration
			db := openStore(t)
			c := testClient(srv, &logs, &sleeps, nil)
			res, err := c.Sync(context.Background(), db)
			v, _ := db.Version()
			if framing != "close" {
				if err != nil || v.ID != up.current || len(contents(t, db)) != len(wantV1) {
					t.Fatalf("%s: %v, store at %q with %d records", framing, err, v.ID, len(contents(t, db)))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "Content-Length") {
				t.Fatalf("got %v, want the close-delimited file refused", err)
			}
			if v.ID != "" || len(contents(t, db)) != 0 || (res != nil && res.Applied != nil) {
				t.Errorf("store at %q with %d records after a refused file", v.ID, len(contents(t, db)))
			}
		})
	}
}

// TestSyncRefusesDeltaDeletingMost: a delta that deletes 3 of the store's
// 4 records is refused by the shrink guard, as a full file would be; the
// store stays at its version, and says why in its sync state.
func TestSyncRefusesDeltaDeletingMost(t *testing.T) {
	up, srv := newUpstream(t)
	var logs bytes.Buffer
	var sleeps []time.Duration
	db := openStore(t)
	c := testClient(srv, &logs, &sleeps, nil)
	if _, err := c.Sync(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	v1 := up.current
	up.current = "v-most-gone"
	up.deltas[v1] = "delta_v1_delete_most.jsonl"
	_, err := c.Sync(context.Background(), db)
	var se *store.ShrinkError
	if !errors.As(err, &se) || se.Kind != "change set" || se.Removed != 3 {
		t.Fatalf("got %v, want the delta refused", err)
	}
	if v, _ := db.Version(); v.ID != v1 || !reflect.DeepEqual(contents(t, db), wantV1) {
		t.Errorf("store at %q with %v", v.ID, contents(t, db))
	}
	if up.callsTo("getConsolidatedFile") != 1 {
		t.Errorf("calls %v: a refused delta fell back to the full file", up.calls)
	}
}
