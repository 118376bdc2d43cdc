package book

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

var benchCustomers = flag.Int("book.customers", 20000, "customers in the book benchmarks")

// benchBook returns n customers derived from a generated database of
// 100,000 records, and the first changed records of it.
func benchBook(n, changed int) ([]Customer, []*record.Record) {
	g := gen.New(7)
	var recs []*record.Record
	for i := range 100_000 {
		recs = append(recs, g.Record(i))
	}
	var cs []Customer
	for k, q := range gen.Queries(recs, n, 7) {
		cs = append(cs, Customer{ID: fmt.Sprintf("C%07d", k), Name: q.Names, Type: q.EntityType, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship})
	}
	return cs, recs[:changed]
}

// BenchmarkMatchChanged matches a change set against a book: -book.customers
// customers (20,000 by default; the cost grows with it linearly, one check
// per customer) against 10,000 and 100 changed records.
func BenchmarkMatchChanged(b *testing.B) {
	for _, changed := range []int{10_000, 100} {
		customers, recs := benchBook(*benchCustomers, changed)
		for _, cfg := range []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} {
			b.Run(fmt.Sprintf("changed=%d/%s", changed, cfg.Match), func(b *testing.B) {
				var n int
				for b.Loop() {
					res, err := MatchChanged(customers, cfg, recs, nil, "v", nil)
					if err != nil {
						b.Fatal(err)
					}
					n = len(res.Matches)
				}
				b.ReportMetric(float64(n), "matches")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(customers)), "ns/customer")
			})
		}
	}
}

// BenchmarkMatchKeptIndex is BenchmarkMatchChanged in strict mode with the
// customers' reverse index kept from an earlier change set, as the store
// hook of a long-running serve keeps it: the cost of one more change set.
func BenchmarkMatchKeptIndex(b *testing.B) {
	for _, changed := range []int{10_000, 100} {
		customers, recs := benchBook(*benchCustomers, changed)
		cfg := Config{Match: "strict", Fuzzy: 1}
		m, err := newMatcher(customers, cfg)
		if err != nil {
			b.Fatal(err)
		}
		m.strictReverse()
		b.Run(fmt.Sprintf("changed=%d/%s", changed, cfg.Match), func(b *testing.B) {
			var n int
			for b.Loop() {
				res, err := m.match(recs, nil, "v", nil)
				if err != nil {
					b.Fatal(err)
				}
				n = len(res.Matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// BenchmarkImport imports -book.customers customers into an empty book.
func BenchmarkImport(b *testing.B) {
	customers, _ := benchBook(*benchCustomers, 0)
	for b.Loop() {
		b.StopTimer()
		db, err := store.Open(filepath.Join(b.TempDir(), "aml.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := Import(db, customers, DefaultConfig, "bench", time.Now()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}
