package service

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/store"
)

// TestLogChecks: with LogChecks every /v1 check answered is in the audit
// log once the service stops, and the chain verifies; without it none is.
func TestLogChecks(t *testing.T) {
	for _, on := range []bool{true, false} {
		db, keys := importedStore(t)
		r := start(t, Config{Store: db, KeysFile: keys, LogChecks: on})
		for range 3 {
			if code, body := get(r.Addr(), check); code != 200 {
				t.Fatalf("check: %d %s", code, body)
			}
		}
		r.stop(t, context.Background())
		st, err := store.Open(db, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		cw := casework.New(st, casework.Options{})
		n, err := cw.Verify()
		if err != nil {
			t.Fatal(err)
		}
		var logged []casework.Entry
		cw.Each(timeZero, timeZero, func(e casework.Entry) error {
			if e.Action == casework.ActionScreening {
				logged = append(logged, e)
			}
			return nil
		})
		st.Close()
		want := 0
		if on {
			want = 3
		}
		if len(logged) != want || n < want {
			t.Fatalf("LogChecks %v: %d checks logged (%d entries), want %d", on, len(logged), n, want)
		}
		if on && (!strings.HasPrefix(logged[0].Actor, "key:") || !strings.HasPrefix(logged[0].Query, "checkName ") || logged[0].Version != "v1" || len(logged[0].IDs) == 0) {
			t.Errorf("logged %+v", logged[0])
		}
	}
}

var timeZero time.Time
