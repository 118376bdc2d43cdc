package media

import (
	"context"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

func TestSampleCorpus(t *testing.T) {
	if n := len(SampleFile()); n > 3<<20 {
		t.Errorf("embedded sample is %d bytes, over 3 MB", n)
	}
	c, err := Sample(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() < 3000 {
		t.Fatalf("sample has %d articles, want a few thousand", c.Len())
	}
	// The invented seed records of the AML sample, which the README
	// queries, are in the news, in more than one category.
	for _, q := range []struct {
		kind query.Kind
		name string
	}{
		{query.Individual, "Katharina Brandtner"},
		{query.Entity, "Acme Holdings LLC"},
		{query.Entity, "Romashka LLC"},
	} {
		r, err := c.Check(context.Background(), CheckQuery{Kind: q.kind, Text: q.name})
		if err != nil {
			t.Fatal(err)
		}
		cats := 0
		for _, ne := range r.NewsExposures {
			if ne.Hits > 0 {
				cats++
			}
		}
		if r.TotalHits < 5 || cats < 2 {
			t.Errorf("%s: %d hits in %d categories", q.name, r.TotalHits, cats)
		}
	}
	// The real entries of the AML sample are never in the generated news.
	for _, name := range []string{"Vladimir Putin", "Abdul Rahman Al-Zahrani"} {
		r, err := c.Check(context.Background(), CheckQuery{Kind: query.Individual, Text: name})
		if err != nil {
			t.Fatal(err)
		}
		if r.TotalHits != 0 {
			t.Errorf("%s: %d hits in the generated sample", name, r.TotalHits)
		}
	}
	// Russian articles write Romashka in Cyrillic; a Latin query finds them.
	r, err := c.Search(context.Background(), SearchQuery{Text: "romashka", PageSize: MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	ru := 0
	for _, a := range r.Articles {
		if a.Language == "ru" {
			ru++
		}
	}
	if ru == 0 {
		t.Error("no Russian article found for romashka")
	}
}
