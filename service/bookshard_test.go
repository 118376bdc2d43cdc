package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/book"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestBookShardsOnLoopback runs a primary and three replicas of serve on
// loopback, each replica holding the same records and customer book: one
// screens the whole book, two screen shards 0/2 and 1/2. Each replica
// syncs the primary's change set over HTTP; the alerts the two shards
// raise together are the single node's, none of them twice.
func TestBookShardsOnLoopback(t *testing.T) {
	g := gen.New(99)
	var v1 []*record.Record
	for i := range 500 {
		v1 = append(v1, g.Record(i))
	}
	all := slices.Clone(v1)
	var delta []record.Change
	for i := 500; i < 560; i++ {
		r := g.Record(i)
		all = append(all, r)
		delta = append(delta, record.Change{Type: record.ChangeAdd, Record: *r})
	}
	for i := 3; i < 500; i += 17 {
		r := v1[i].Clone()
		r.AliasNames = append(r.AliasNames, all[(i*11)%len(all)].Name)
		all = append(all, r)
		delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
	}
	var csv strings.Builder
	csv.WriteString("customer_id,full_name,type\n")
	for k, q := range gen.Queries(all, 400, 99) {
		fmt.Fprintf(&csv, "C%04d,%s,%s\n", k, strings.NewReplacer(",", " ", `"`, " ").Replace(q.Names), q.EntityType)
	}
	rd, err := batch.NewReader(strings.NewReader(csv.String()), batch.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := book.Config{Match: "strict", Fuzzy: 1}
	customers, rejects, err := book.Read(rd, cfg)
	if err != nil {
		t.Fatalf("%v %+v", err, rejects)
	}

	dir := t.TempDir()
	keys := filepath.Join(dir, "keys.json")
	writeFile(t, keys, `[{"key":"client-key"},{"key":"replica-key","include_other":true,"features":{"pep_level":true,"source_country":true}}]`)
	// newStore writes v1, and with the delta v2, into a store at path.
	newStore := func(path string, withDelta bool, withBook bool) {
		t.Helper()
		st, err := store.Open(path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		i := 0
		if err := st.ReplaceAll("v1", func() (*record.Record, error) {
			if i == len(v1) {
				return nil, io.EOF
			}
			i++
			return v1[i-1], nil
		}, nil); err != nil {
			t.Fatal(err)
		}
		if err := st.PutSources(gen.Sources()); err != nil {
			t.Fatal(err)
		}
		if withBook {
			if _, err := book.Import(st, customers, cfg, "book.csv", time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if withDelta {
			if _, err := st.ApplyDelta("v1", "v2", delta, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	primaryDB := filepath.Join(dir, "primary.db")
	newStore(primaryDB, true, false)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	primary := start(t, Config{Store: primaryDB, KeysFile: keys, Log: quiet})

	shards := []book.Shard{{}, {Index: 0, Count: 2}, {Index: 1, Count: 2}}
	var paths []string
	var replicas []*running
	for k, s := range shards {
		p := filepath.Join(dir, fmt.Sprintf("replica%d.db", k))
		newStore(p, false, true)
		paths = append(paths, p)
		replicas = append(replicas, start(t, Config{Store: p, KeysFile: keys, BookShard: s,
			Upstream: "http://" + primary.Addr() + "/v1", UpstreamKey: "replica-key", Every: time.Hour, Log: quiet}))
	}
	deadline := time.Now().Add(30 * time.Second)
	for k, r := range replicas {
		for {
			code, body := get(r.Addr(), "/readyz")
			var ready struct{ Version string }
			if code == 200 && json.Unmarshal([]byte(body), &ready) == nil && ready.Version == "v2" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %s not at v2 after 30 s: %d %s", shards[k], code, body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, r := range replicas {
		r.stop(t, context.Background())
	}
	primary.stop(t, context.Background())

	alerts := make([][]*casework.Alert, len(shards))
	for k, p := range paths {
		st, err := store.Open(p, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		alerts[k], err = casework.New(st, casework.Options{}).Alerts(casework.Filter{Origin: casework.OriginMonitor})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	key := func(a *casework.Alert) string {
		return strings.Join([]string{a.Subject, a.Hit.RecordID, a.Version, a.Hit.Reason, a.Hit.MatchedName}, "|")
	}
	var single, union []string
	for _, a := range alerts[0] {
		single = append(single, key(a))
	}
	for k := 1; k < len(shards); k++ {
		for _, a := range alerts[k] {
			if !shards[k].Owns(a.Subject) {
				t.Errorf("shard %s alerted on %s, which it does not own", shards[k], a.Subject)
			}
			union = append(union, key(a))
		}
	}
	slices.Sort(single)
	slices.Sort(union)
	if len(single) < 10 || len(alerts[1]) == 0 || len(alerts[2]) == 0 {
		t.Fatalf("too few alerts to compare: %d on one node, %d and %d on the shards", len(single), len(alerts[1]), len(alerts[2]))
	}
	if len(slices.Compact(slices.Clone(union))) != len(union) {
		t.Errorf("an alert was raised on both shards: %v", union)
	}
	if !slices.Equal(single, union) {
		t.Errorf("one node: %d alerts, the shards together %d\none node: %v\nshards:   %v", len(single), len(union), single, union)
	}
	t.Logf("%d alerts: %d on shard 0/2, %d on shard 1/2", len(single), len(alerts[1]), len(alerts[2]))
}
