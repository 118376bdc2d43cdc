package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestBatchSinceScoredWeighsTheWholeStore: batch --since in scored mode
// weighs words over the whole store, not over the records changed since
// (among which every word is rare): the hit on a changed record scores
// what a run over the whole store gives it, and only hits on changed
// records are written.
func TestBatchSinceScoredWeighsTheWholeStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aml.db")
	var v1 []record.Record
	for i := range 60 {
		v1 = append(v1, record.Record{ID: fmt.Sprintf("A%02d", i), SourceID: "eu_fsf", SourceType: record.SourceSanction,
			EntityType: record.EntityIndividual, Name: fmt.Sprintf("Mohammed Ali Surname%c%c", 'a'+i%26, 'a'+i/26)})
	}
	delta := []record.Change{{Type: record.ChangeAdd, Record: record.Record{ID: "NEW", SourceID: "eu_fsf", SourceType: record.SourceSanction,
		EntityType: record.EntityIndividual, Name: "Mohammed Ali Rahimi"}}}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	err = st.ReplaceAll("v1", func() (*record.Record, error) {
		if i == len(v1) {
			return nil, io.EOF
		}
		i++
		return &v1[i-1], nil
	}, nil)
	if err == nil {
		_, err = st.ApplyDelta("v1", "v2", delta, nil)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "book.csv")
	if err := os.WriteFile(book, []byte("id,name\nk1,Mohammed Ali Rahimi\nk2,Mohammed Ali Surnameaa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scores := func(flags ...string) map[string]float64 {
		out := filepath.Join(t.TempDir(), "hits.jsonl")
		args := append([]string{"batch", "--store", path, "--in", book, "--out", out, "--match", "scored", "--fuzzy", "1"}, flags...)
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Fatalf("batch %v: exit %d: %s", flags, code, errs)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got := map[string]float64{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var h batch.Hit
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
				t.Fatal(err)
			}
			got[h.CustomerID+" "+h.RecordID] = *h.Score
		}
		return got
	}
	whole, since := scores(), scores("--since", "v1")
	if len(since) != 1 {
		t.Fatalf("--since v1 hits %v, want only k1 on NEW", since)
	}
	if s, ok := since["k1 NEW"]; !ok || s != whole["k1 NEW"] {
		t.Errorf("k1 on NEW scores %v with --since, %v over the whole store", s, whole["k1 NEW"])
	}
}
