package book

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/store"
)

func read(t *testing.T, text string) ([]Customer, []batch.Reject, error) {
	t.Helper()
	rd, err := batch.NewReader(strings.NewReader(text), batch.ReadOptions{KeepExtra: true})
	if err != nil {
		t.Fatal(err)
	}
	return Read(rd, DefaultConfig)
}

func ids(t *testing.T, db *store.Store) []string {
	t.Helper()
	var out []string
	if err := ForEach(db, func(c *Customer) error { out = append(out, c.ID+"="+c.Name); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportIsADiff imports a book, re-imports a changed one and checks
// the counts, the customers and the status; a book with bad rows changes
// nothing.
func TestImportIsADiff(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st, err := GetStatus(db); err != nil || st.Customers != 0 || st.Match != "strict" || st.LastImport != nil {
		t.Fatalf("empty book: %+v %v", st, err)
	}
	first, _, err := read(t, "id,name,dob,nationality,branch,rm\n1,Anna Sokolova,01/02/1970,RU,Riga, J. Ozols\n2,Boris Kuznetsov,,,,\n3,Acme Ltd,,,Tallinn,\n")
	if err != nil {
		t.Fatal(err)
	}
	if e := first[0].Extra; len(e) != 2 || e["branch"] != "Riga" || e["rm"] != "J. Ozols" || first[1].Extra != nil || len(first[2].Extra) != 1 {
		t.Fatalf("extra columns: %v %v %v", first[0].Extra, first[1].Extra, first[2].Extra)
	}
	jl, _, err := read(t, `{"id":"9","name":"Eva Novak","segment":"retail","score":3}`+"\n")
	if err != nil || len(jl) != 1 || jl[0].Extra["segment"] != "retail" || jl[0].Extra["score"] != "3" || len(jl[0].Extra) != 2 {
		t.Fatalf("extra keys: %+v %v", jl, err)
	}
	res, err := Import(db, first, DefaultConfig, "a.csv", time.Now())
	if err != nil || res.Added != 3 || res.Changed+res.Removed+res.Unchanged != 0 {
		t.Fatalf("first import: %+v %v", res, err)
	}
	second, _, err := read(t, "id,name,dob,nationality\n1,Anna Sokolova,01/02/1970,RU\n2,Boris Kusnezow,,\n4,Dmitri Volkov,,\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Match: "scored", Fuzzy: 2}
	res, err = Import(db, second, cfg, "b.csv", time.Now())
	if err != nil || res.Added != 1 || res.Changed != 2 || res.Removed != 1 || res.Unchanged != 0 {
		t.Fatalf("re-import: %+v %v", res, err)
	}
	want := []string{"1=Anna Sokolova", "2=Boris Kusnezow", "4=Dmitri Volkov"}
	if got := ids(t, db); !slices.Equal(got, want) {
		t.Fatalf("book %v, want %v", got, want)
	}
	st, err := GetStatus(db)
	if err != nil || st.Customers != 3 || st.Match != "scored" || st.Fuzzy != 2 || st.LastImport == nil || st.LastImport.File != "b.csv" {
		t.Fatalf("status %+v %v", st, err)
	}

	// Bad rows: every one rejected by line and field, nothing imported.
	_, rejects, err := read(t, "id,name,dob,nationality,gender\n5,Eva Novak,31/02/1980,,\n6,,,,\n7,Ivan Ivanov,,Atlantis,\n5,Eva Novak,,,\n8,Olga,,,unknown\n")
	if !errors.Is(err, ErrRejected) {
		t.Fatalf("bad rows: %v", err)
	}
	var got []string
	for _, r := range rejects {
		got = append(got, strings.Join([]string{r.CustomerID, r.Field}, ":")+":"+string(rune('0'+r.Line)))
	}
	if w := []string{"5:dob:2", "6:name:3", "7:citizenship:4", "8:gender:6"}; !slices.Equal(got, w) {
		t.Errorf("rejects %v, want %v", got, w)
	}
	if _, rejects, err := read(t, "id,name\n5,Eva Novak\n5,Eva Nowak\n"); !errors.Is(err, ErrRejected) || len(rejects) != 1 || rejects[0].Field != "id" || rejects[0].Line != 3 {
		t.Errorf("duplicate id: %v %+v", err, rejects)
	}
	if _, err := Import(db, second, Config{Match: "loose"}, "c.csv", time.Now()); err == nil {
		t.Error("a bad match mode was accepted")
	}
	if got := ids(t, db); !slices.Equal(got, want) {
		t.Fatalf("book changed by refused imports: %v", got)
	}

	missing, err := Remove(db, []string{"2", "9"})
	if err != nil || !slices.Equal(missing, []string{"9"}) {
		t.Fatalf("remove: %v %v", missing, err)
	}
	if got := ids(t, db); !slices.Equal(got, []string{"1=Anna Sokolova", "4=Dmitri Volkov"}) {
		t.Fatalf("after remove: %v", got)
	}
}
