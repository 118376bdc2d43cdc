package decision

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

// keysOf resolves the key names of the tests.
func keysOf(name string) (Owner, bool) {
	switch name {
	case "acme":
		return Owner{ID: ownerA, Name: "acme"}, true
	case "bank":
		return Owner{ID: ownerB, Name: "bank"}, true
	}
	return Owner{}, false
}

// fillBook stores a few decisions of two owners, one superseded.
func fillBook(t *testing.T, book *Book, db interface {
	Get(string) (*record.Record, error)
}) {
	t.Helper()
	for i, d := range []struct {
		owner, subject, id, status, note string
	}{
		{ownerA, "C-1", "R1", FalsePositive, "born 1971, not 1960"},
		{ownerA, "C-1", "R1", TrueMatch, "passport matches, \"really\"\nsecond line"},
		{ownerA, "q:individual:names=gonzalez maria", "R2", Escalated, ""},
		{ownerB, "C-1", "R3", FalsePositive, "=SUM(A1)"},
	} {
		r, err := db.Get(d.id)
		if err != nil {
			t.Fatal(err)
		}
		dd := decided(d.owner, d.subject, r, d.status)
		dd.Note = d.note
		dd.At = t0.Add(time.Duration(i) * time.Minute)
		if _, _, err := book.Decide(dd); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	for _, f := range []Format{CSV, JSONL} {
		src := newStore(t)
		book := New(src, Options{})
		fillBook(t, book, src)
		var first bytes.Buffer
		n, err := book.Export(&first, "", f)
		if err != nil || n != 4 {
			t.Fatalf("export: %d, %v", n, err)
		}
		dst := newStore(t)
		into := New(dst, Options{})
		ds, err := ReadImport(bytes.NewReader(first.Bytes()), ImportOptions{})
		if err != nil {
			t.Fatalf("format %d: %v\n%s", f, err, first.String())
		}
		res, err := into.Import(ds)
		if err != nil || res.Stored != 4 || res.Duplicates != 0 {
			t.Fatalf("import: %+v, %v", res, err)
		}
		var second bytes.Buffer
		if _, err := into.Export(&second, "", f); err != nil {
			t.Fatal(err)
		}
		if first.String() != second.String() {
			t.Errorf("format %d: export of the import differs:\n%s\n---\n%s", f, first.String(), second.String())
		}
		// Importing the same file again adds nothing.
		res, err = into.Import(ds)
		if err != nil || res.Stored != 0 || res.Duplicates != 4 {
			t.Errorf("second import: %+v, %v", res, err)
		}
		// One owner's export holds only its decisions.
		var onlyB bytes.Buffer
		if n, err := into.Export(&onlyB, ownerB, f); n != 1 || err != nil || strings.Contains(onlyB.String(), ownerA) {
			t.Errorf("export of owner B: %d, %v:\n%s", n, err, onlyB.String())
		}
	}
}

func TestExportMarksCurrent(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{})
	fillBook(t, book, db)
	var buf bytes.Buffer
	if _, err := book.Export(&buf, ownerA, JSONL); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var e exported
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Status+" "+map[bool]string{true: "current", false: "superseded"}[e.Current])
	}
	want := []string{"false_positive superseded", "true_match current", "escalated current"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("export = %v, want %v", got, want)
	}
}

func TestImportSpreadsheet(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{})
	f, err := os.Open("testdata/import_spreadsheet.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, _ := io.ReadAll(f)
	now := t0
	acme, _ := keysOf("acme")
	// Without fingerprints and without --pin-current: refused.
	if _, err := ReadImport(bytes.NewReader(data), ImportOptions{Default: &acme, Now: now}); err == nil || !strings.Contains(err.Error(), "line 2: fingerprint") {
		t.Fatalf("import without fingerprints: %v", err)
	}
	pin := func(id string) (*record.Record, error) {
		r, err := db.Get(id)
		if err != nil {
			return nil, nil
		}
		return r, nil
	}
	ds, err := ReadImport(bytes.NewReader(data), ImportOptions{Default: &acme, Pin: pin, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 3 {
		t.Fatalf("%d decisions", len(ds))
	}
	r1 := getRecord(t, db, "R1")
	want0 := Decision{Owner: ownerA, Subject: "C-1001", RecordID: "R1", Status: FalsePositive,
		Note: "Different date of birth, checked passport", Who: "j.smith", At: time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC),
		Fingerprint: Content(r1), IdentityFingerprint: Identity(r1)}
	if !sameDecision(ds[0], want0) {
		t.Errorf("row 1 = %+v\nwant %+v", ds[0], want0)
	}
	if ds[1].Status != TrueMatch || !ds[1].At.Equal(time.Date(2024, 3, 6, 10, 15, 0, 0, time.UTC)) {
		t.Errorf("row 2 = %+v", ds[1])
	}
	if ds[2].Who != "a.jones" || !ds[2].At.Equal(now) || ds[2].Status != Escalated {
		t.Errorf("row 3 = %+v (decided_at defaults to now)", ds[2])
	}
	if res, err := book.Import(ds); err != nil || res.Stored != 3 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	set, _ := book.LoadSet(ownerA)
	if !set.Judge("C-1001", r1).Suppressed {
		t.Error("the imported false positive does not suppress")
	}
}

func TestImportErrors(t *testing.T) {
	db := newStore(t)
	pinMissing := func(string) (*record.Record, error) { return nil, nil }
	pinAny := func(id string) (*record.Record, error) { return &record.Record{ID: id, Name: "x"}, nil }
	acme, _ := keysOf("acme")
	fp := Content(getRecord(t, db, "R1"))
	tests := []struct {
		name string
		file string
		o    ImportOptions
		want string
	}{
		{"empty", "", ImportOptions{}, "the file is empty"},
		{"header only", "subject,record_id,status\n", ImportOptions{Default: &acme}, "no decisions"},
		{"unknown column", "subject,record_id,stauts\n", ImportOptions{}, `line 1: unknown column "stauts"`},
		{"column twice", "subject,record_id,status,Status\n", ImportOptions{}, "line 1: column status given twice"},
		{"no status column", "subject,record_id\n", ImportOptions{}, "line 1: the header has no status column"},
		{"bad status", "", ImportOptions{Key: keysOf, Pin: pinAny}, `line 4: status: "fp" is not`},
		{"no owner", "subject,record_id,status\nC-1,R1,escalated\n", ImportOptions{}, "line 2: owner: required"},
		{"unknown key", "key,subject,record_id,status\nnobody,C-1,R1,escalated\n", ImportOptions{Key: keysOf}, `line 2: key: no key named "nobody"`},
		{"key without keys file", "key,subject,record_id,status\nacme,C-1,R1,escalated\n", ImportOptions{}, "line 2: key: naming keys needs the keys file"},
		{"owner and key disagree", "owner,key,subject,record_id,status\n" + ownerB + ",acme,C-1,R1,escalated\n", ImportOptions{Key: keysOf}, "line 2: owner:"},
		{"record not in store", "subject,record_id,status\nC-1,R404,escalated\n", ImportOptions{Default: &acme, Pin: pinMissing}, `line 2: record_id: no record "R404"`},
		{"one fingerprint", "subject,record_id,status,fingerprint\nC-1,R1,escalated," + fp + "\n", ImportOptions{Default: &acme}, "line 2: fingerprint: give both"},
		{"bad time", "subject,record_id,status,decided_at\nC-1,R1,escalated,yesterday\n", ImportOptions{Default: &acme, Pin: pinMissing}, `line 2: decided_at: "yesterday" is not a time`},
		{"wrong field count", "subject,record_id,status\nC-1,R1\n", ImportOptions{Default: &acme}, "line 2: wrong number of fields"},
		{"stray quote", "subject,record_id,status\n\"C-1,R1,escalated\n", ImportOptions{Default: &acme}, "line 2:"},
		{"JSON not an object", `{"subject":"C-1","record_id":"R1","status":"escalated"}` + "\n[1]\n", ImportOptions{Default: &acme, Pin: pinAny}, "line 2: not a JSON object"},
		{"JSON unknown key", `{"subject":"C-1","record_id":"R1","status":"escalated","stauts":"x"}`, ImportOptions{Default: &acme}, `line 1: unknown key "stauts"`},
		{"JSON not a string", `{"subject":"C-1","record_id":"R1","status":1}`, ImportOptions{Default: &acme}, "line 1: status: not a string"},
		{"JSON line too long", `{"subject":"` + strings.Repeat("x", maxImportLine) + `"}`, ImportOptions{Default: &acme}, "line 1: longer than"},
	}
	bad, _ := os.ReadFile("testdata/import_bad_status.csv")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if tt.name == "bad status" {
				file = string(bad)
			}
			ds, err := ReadImport(strings.NewReader(file), tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadImport error %v, want one containing %q", err, tt.want)
			}
			if ds != nil {
				t.Errorf("ReadImport returned %d decisions with its error", len(ds))
			}
		})
	}
}

// TestImportSizeLimit reads a stream longer than the limit: refused, at
// the limit, without reading it all. The stream is a decision and then
// lines of 64 KiB of blanks, which JSON Lines skips; the CSV stream of
// empty lines, a line per byte and twenty times the CPU, runs with
// AMLSCREEN_LONG_TESTS=1.
func TestImportSizeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 64 MiB of input, ten times slower under the race detector; runs without -short")
	}
	acme, _ := keysOf("acme")
	pinAny := func(id string) (*record.Record, error) { return &record.Record{ID: id, Name: "x"}, nil }
	blanks := append(bytes.Repeat([]byte(" "), 64<<10-1), '\n')
	streams := map[string]io.Reader{
		"JSON Lines": io.MultiReader(strings.NewReader(`{"subject":"C-1","record_id":"R1","status":"escalated"}`+"\n"),
			io.LimitReader(&repeated{chunk: blanks}, MaxImportBytes+10)),
	}
	if longTests() {
		streams["CSV"] = io.MultiReader(strings.NewReader("subject,record_id,status\n"), &newlines{n: MaxImportBytes + 10})
	}
	for name, r := range streams {
		_, err := ReadImport(r, ImportOptions{Default: &acme, Pin: pinAny})
		if err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") {
			t.Errorf("ReadImport of an oversized %s file: %v", name, err)
		}
	}
}

// repeated yields chunk over and over.
type repeated struct {
	chunk []byte
	at    int
}

func (r *repeated) Read(p []byte) (int, error) {
	n := copy(p, r.chunk[r.at:])
	r.at = (r.at + n) % len(r.chunk)
	return n, nil
}

// newlines yields n line feeds.
type newlines struct{ n int }

func (nl *newlines) Read(p []byte) (int, error) {
	if nl.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), nl.n)
	for i := range k {
		p[i] = '\n'
	}
	nl.n -= k
	return k, nil
}

// TestImportIsAllOrNothing has Import refuse a batch whose last decision is
// invalid: nothing of it is stored.
func TestImportIsAllOrNothing(t *testing.T) {
	db := newStore(t)
	book := New(db, Options{})
	r := getRecord(t, db, "R1")
	good := decided(ownerA, "C-1", r, FalsePositive)
	good.At = t0
	bad := good
	bad.Status = "maybe"
	if _, err := book.Import([]Decision{good, good, bad}); err == nil || !strings.Contains(err.Error(), "decision 3: status") {
		t.Errorf("Import error %v", err)
	}
	if n, _ := book.Count(""); n != 0 {
		t.Errorf("%d decisions stored by a refused import", n)
	}
}

func FuzzReadImport(f *testing.F) {
	f.Add([]byte("subject,record_id,status,note\nC-1,R1,false_positive,x\n"))
	f.Add([]byte(`{"subject":"C-1","record_id":"R1","status":"escalated","fingerprint":"00000000000000000000000000000000","identity_fingerprint":"00000000000000000000000000000000"}`))
	f.Add([]byte("\xef\xbb\xbfkey,subject,record_id,status\nacme,\"C,1\",R1,true match\n"))
	if b, err := os.ReadFile("testdata/import_spreadsheet.csv"); err == nil {
		f.Add(b)
	}
	acme, _ := keysOf("acme")
	pin := func(id string) (*record.Record, error) { return &record.Record{ID: id, Name: "x"}, nil }
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := ReadImport(bytes.NewReader(data), ImportOptions{Key: keysOf, Default: &acme, Pin: pin, Now: t0})
		if err != nil {
			if ds != nil {
				t.Fatal("decisions returned with an error")
			}
			return
		}
		for i := range ds {
			if err := ds[i].Validate(); err != nil {
				t.Fatalf("decision %d is invalid: %v", i+1, err)
			}
		}
	})
}
