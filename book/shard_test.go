package book

import (
	"encoding/csv"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"", Shard{}, true},
		{"0/2", Shard{0, 2}, true},
		{"1/2", Shard{1, 2}, true},
		{"0/1", Shard{0, 1}, true},
		{"2/2", Shard{}, false},
		{"-1/2", Shard{}, false},
		{"0/0", Shard{}, false},
		{"0/1025", Shard{}, false},
		{"1", Shard{}, false},
		{"a/b", Shard{}, false},
		{"0/2/3", Shard{}, false},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseShard(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

// TestShardsPartitionTheBook: every id belongs to exactly one of N shards,
// and the split is near even.
func TestShardsPartitionTheBook(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		counts := make([]int, n)
		for i := range 7000 {
			id := fmt.Sprintf("C%06d", i)
			owners := 0
			for k := range n {
				if (Shard{k, n}).Owns(id) {
					owners++
					counts[k]++
				}
			}
			if owners != 1 {
				t.Fatalf("%s has %d owners among %d shards", id, owners, n)
			}
		}
		for k, c := range counts {
			if c < 7000/n*8/10 {
				t.Errorf("shard %d/%d owns %d of 7000 ids", k, n, c)
			}
		}
	}
	// The hash is the id's alone: a pinned value catches a change of it,
	// which would move customers between replicas that run different
	// versions.
	if !(Shard{1, 2}).Owns("C1") || (Shard{0, 2}).Owns("C1") {
		t.Error("C1 moved shard: the hash changed")
	}
}

// shardedStore is watchedStore with the book's hook for shard s (the zero
// Shard: the whole book).
func shardedStore(t *testing.T, recs []*record.Record, s Shard) (*store.Store, *casework.Casework) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cw := casework.New(db, casework.Options{})
	db.OnApply(cw.Hook)
	db.OnApply(Hook(cw, s, screen.Follow(db, nil).Index))
	if err := db.ReplaceAll("v1", store.Slice(recs), nil); err != nil {
		t.Fatal(err)
	}
	return db, cw
}

// TestShardsUnionIsOneNode gives three stores the same records and book:
// one screens the whole book, two screen shard 0/2 and 1/2. The same
// change sets applied to each raise, over the two shards together, the
// alerts of the single node, none on both shards, each on the shard that
// owns its customer; in strict and in scored mode. The database has 400
// records and the book 300 customers (AMLSCREEN_LONG_TESTS=1: 800 and
// 600).
func TestShardsUnionIsOneNode(t *testing.T) {
	g := gen.New(42)
	n, added, nCustomers := 400, 60, 300
	if longTests() {
		n, nCustomers = 800, 600
	}
	var recs []*record.Record
	for i := range n {
		recs = append(recs, g.Record(i))
	}
	all := slices.Clone(recs)
	var delta1, delta2 []record.Change
	for i := n; i < n+added; i++ {
		r := g.Record(i)
		all = append(all, r)
		delta1 = append(delta1, record.Change{Type: record.ChangeAdd, Record: *r})
	}
	for i := 5; i < n; i += 20 {
		r := recs[i].Clone()
		r.AliasNames = append(r.AliasNames, all[(i*7)%len(all)].Name)
		delta2 = append(delta2, record.Change{Type: record.ChangeUpdate, Record: *r})
	}
	var book strings.Builder
	w := csv.NewWriter(&book)
	w.Write([]string{"customer_id", "full_name", "type", "date_of_birth", "gender", "nationality"})
	for k, q := range gen.Queries(all, nCustomers, 42) {
		w.Write([]string{fmt.Sprintf("C%04d", k), q.Names, q.EntityType, q.DOB, q.Gender, q.Citizenship})
	}
	w.Flush()
	customers, rejects, err := read(t, book.String())
	if err != nil {
		t.Fatalf("%v %+v", err, rejects)
	}

	for _, cfg := range []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} {
		t.Run(cfg.Match, func(t *testing.T) {
			shards := []Shard{{}, {0, 2}, {1, 2}}
			alerts := make([][]*casework.Alert, len(shards))
			for k, s := range shards {
				db, cw := shardedStore(t, recs, s)
				if _, err := Import(db, customers, cfg, "book.csv", time.Now()); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ApplyDelta("v1", "v2", delta1, nil); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ApplyDelta("v2", "v3", delta2, nil); err != nil {
					t.Fatal(err)
				}
				if alerts[k], err = cw.Alerts(casework.Filter{Origin: casework.OriginMonitor}); err != nil {
					t.Fatal(err)
				}
			}
			key := func(a *casework.Alert) string {
				score := ""
				if a.Hit.Score != nil {
					score = fmt.Sprintf("%.6f", *a.Hit.Score)
				}
				return strings.Join([]string{a.Subject, a.Hit.RecordID, a.Version, a.Hit.Reason, a.Hit.MatchedName, score, a.Status}, "|")
			}
			var single, union []string
			for _, a := range alerts[0] {
				single = append(single, key(a))
			}
			seen := map[string]int{}
			for k := 1; k < len(shards); k++ {
				for _, a := range alerts[k] {
					if !shards[k].Owns(a.Subject) {
						t.Errorf("shard %s raised an alert for %s, which it does not own", shards[k], a.Subject)
					}
					seen[a.Subject+"|"+a.Hit.RecordID]++
					union = append(union, key(a))
				}
			}
			for pair, c := range seen {
				if c > 1 {
					t.Errorf("%s alerted %d times across the shards", pair, c)
				}
			}
			slices.Sort(single)
			slices.Sort(union)
			if len(single) < 20 || len(alerts[1]) == 0 || len(alerts[2]) == 0 {
				t.Fatalf("too few alerts to compare: %d on one node, %d and %d on the shards", len(single), len(alerts[1]), len(alerts[2]))
			}
			if !slices.Equal(single, union) {
				t.Errorf("one node raised %d alerts, the shards %d together\none node: %v\nshards:   %v", len(single), len(union), single, union)
			}
			t.Logf("%s: %d alerts, %d on shard 0/2 and %d on shard 1/2", cfg.Match, len(single), len(alerts[1]), len(alerts[2]))
		})
	}
}
