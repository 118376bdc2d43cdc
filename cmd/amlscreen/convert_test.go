package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

const convertFixtures = "../../convert/testdata/"

// readJSONL reads a converted file back.
func readJSONL(t *testing.T, path string) []*record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

func TestConvertListsCLI(t *testing.T) {
	dir := t.TempDir()
	// The non-SDN CSV files, made from the SDN fixture under their names.
	cons := filepath.Join(dir, "cons")
	os.Mkdir(cons, 0o700)
	for from, to := range map[string]string{"sdn.csv": "cons_prim.csv", "alt.csv": "cons_alt.csv", "add.csv": "cons_add.csv", "sdn_comments.csv": "cons_comments.csv"} {
		b, err := os.ReadFile(convertFixtures + "ofac/" + from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(cons, to), b, 0o600)
	}
	for _, c := range []struct {
		name   string
		args   []string
		n      int
		source string
	}{
		{"csl", []string{"csl", "--file", convertFixtures + "csl/consolidated.csv"}, 6, "us_csl_sdn"},
		{"csl lists", []string{"csl", "--file", convertFixtures + "csl/consolidated.csv", "--lists", "el", "--export-control-type", "other"}, 1, "us_csl_el"},
		{"dpl", []string{"dpl", "--file", convertFixtures + "dpl/dpl.txt"}, 3, "us_bis_dpl"},
		{"senzing", []string{"senzing", "--file", convertFixtures + "senzing/senzing.json"}, 4, "os_example"},
		{"eu", []string{"eu", "--file", convertFixtures + "eu/fsf.xml"}, 2, "eu_fsf"},
		{"uk", []string{"uk", "--file", convertFixtures + "uk/uk_sanctions_list.xml"}, 3, "gb_fcdo_sanctions"},
		{"opensanctions ftm", []string{"opensanctions", "--file", convertFixtures + "opensanctions/entities.ftm.json"}, 8, "os_us_ofac_sdn"},
		{"opensanctions simple", []string{"opensanctions", "--in", convertFixtures + "opensanctions/targets.simple.csv", "--source-id", "os_default"}, 4, "os_default"},
		{"eu csv", []string{"eu", "--file", convertFixtures + "eucsv/csvFullSanctionsList_1_1.csv"}, 2, "eu_fsf"},
		{"uk csv", []string{"uk", "--file", convertFixtures + "ukcsv/UK-Sanctions-List.csv"}, 3, "gb_fcdo_sanctions"},
		{"uk ofsi csv", []string{"uk", "--file", convertFixtures + "ukcsv/ConList.csv"}, 2, "gb_hmt_ofsi"},
		{"ofac-nonsdn xml", []string{"ofac-nonsdn", "--file", convertFixtures + "ofacxml/cons.xml"}, 2, "us_ofac_cons"},
		{"ofac-nonsdn csv", []string{"ofac-nonsdn", "--dir", cons}, 7, "us_ofac_cons"},
		// The flag of earlier versions still selects the non-SDN list.
		{"ofac --list nonsdn", []string{"ofac", "--dir", cons, "--list", "nonsdn"}, 7, "us_ofac_cons"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".jsonl.gz")
			code, _, errs := runCLI(t, append(append([]string{"convert"}, c.args...), "--out", out)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			recs := readJSONL(t, out)
			if len(recs) != c.n || recs[0].SourceID != c.source || !strings.Contains(errs, "converted") {
				t.Fatalf("%d records of %s, want %d of %s; stderr %s", len(recs), recs[0].SourceID, c.n, c.source, errs)
			}
		})
	}
	for _, c := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"csl", "--out", "x"}, exitUsage, "--file"},
		{[]string{"csl", "--file", "x"}, exitUsage, "--out"},
		{[]string{"csl", "--file", convertFixtures + "csl/consolidated.csv", "--out", "-", "--export-control-type", "maybe"}, exitUsage, "--export-control-type"},
		{[]string{"ofac-nonsdn", "--dir", cons, "--file", "x.zip", "--out", "-"}, exitUsage, "exclude"},
		{[]string{"senzing", "--file", "x", "--out", "-", "--source-type", "NOPE"}, exitUsage, "--source-type"},
		{[]string{"senzing", "--file", "x", "--out", "-", "--source-id", "a b"}, exitUsage, "--source-id"},
		{[]string{"eu", "--file", filepath.Join(dir, "absent.xml"), "--out", "-"}, exitError, "no such file"},
		{[]string{"uk", "--file", convertFixtures + "eu/fsf.xml", "--out", "-"}, exitError, "no <Designation>"},
		{[]string{"opensanctions", "--out", "-"}, exitUsage, "--file"},
		{[]string{"opensanctions", "--file", "x", "--out", "-", "--source-type", "NOPE"}, exitUsage, "--source-type"},
		{[]string{"opensanctions", "--file", convertFixtures + "eu/fsf.xml", "--out", "-"}, exitError, "an XML file"},
	} {
		code, _, errs := runCLI(t, append([]string{"convert"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.errs) {
			t.Errorf("convert %v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.errs)
		}
	}
}

func TestConvertCSVCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "internal.jsonl")
	base := []string{"convert", "csv", "--in", convertFixtures + "watchlist/internal.csv", "--out", out,
		"--map", "id=CIF,name=Full Name,type=Kind,dob=Born,gender=Sex,citizenship=Country", "--source-id", "my_bank", "--source-type", "other"}

	// Rejected rows: named, in the rejects file, and nothing written.
	code, _, errs := runCLI(t, base...)
	if code != exitRejected || !strings.Contains(errs, `line 6: dob "31/02/1960"`) || !strings.Contains(errs, "nothing written") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("%s written although rows were rejected: %v", out, err)
	}
	rej, err := os.ReadFile(filepath.Join(dir, "internal.rejects.csv"))
	if err != nil || strings.Count(string(rej), "\n") != 8 || !strings.HasPrefix(string(rej), "line,customer_id,field,value,reason\n") {
		t.Fatalf("rejects file: %v\n%s", err, rej)
	}

	// --allow-rejects writes the other rows, and still says so.
	code, _, errs = runCLI(t, append(base, "--allow-rejects")...)
	if code != exitRejected || !strings.Contains(errs, "left out") {
		t.Fatalf("--allow-rejects: exit %d: %s", code, errs)
	}
	if recs := readJSONL(t, out); len(recs) != 5 || recs[0].ID != "my_bank:100" || recs[0].SourceType != record.SourceOther {
		t.Fatalf("--allow-rejects wrote %d records", len(recs))
	}

	// A clean list converts with exit 0, to stdout too.
	code, stdout, errs := runCLI(t, "convert", "csv", "--in", "testdata/watchlist.csv", "--out", "-",
		"--map", "id=customer_no,name=full_name,type=kind,dob=birth_date,citizenship=nationality",
		"--source-id", "my_bank", "--source-type", "SANCTION", "--id-prefix", "MB-")
	if code != exitOK || strings.Count(stdout, "\n") != 2 || !strings.Contains(stdout, `"id":"MB-C-1"`) {
		t.Fatalf("clean list: exit %d, stdout %s, stderr %s", code, stdout, errs)
	}

	for _, c := range []struct {
		args []string
		errs string
	}{
		{[]string{"--source-type", "OTHER"}, "--source-id"},
		{[]string{"--source-id", "x"}, "--source-type"},
		{[]string{"--source-id", "x", "--source-type", "RISK"}, "--source-type"},
		{[]string{"--source-id", "x", "--source-type", "OTHER", "--type", "robot"}, "--type"},
		{[]string{"--source-id", "x", "--source-type", "OTHER", "--map", "colour=x"}, "--map"},
		{[]string{"--source-id", "x", "--source-type", "OTHER", "--encoding", "ebcdic"}, "--encoding"},
	} {
		args := append([]string{"convert", "csv", "--in", "testdata/watchlist.csv", "--out", "-"}, c.args...)
		if code, _, errs := runCLI(t, args...); code != exitUsage || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d naming %s", c.args, code, errs, exitUsage, c.errs)
		}
	}
}

// freeAddr returns a loopback address nothing listens on, so that a server
// can be stopped and started again where its replica looks for it.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestWatchlistMergeServedAndReplicated: a bank's list converted with
// convert csv and merged into a primary's store is screened there beside
// the consolidated file, named by an offline catalogue in getSourceList,
// and reaches a replica; merged again, it reaches the replica as a delta.
func TestWatchlistMergeServedAndReplicated(t *testing.T) {
	dir := t.TempDir()
	primaryDB := filepath.Join(dir, "primary", "aml.db")
	os.MkdirAll(filepath.Dir(primaryDB), 0o700)
	mustRun := func(args ...string) string {
		t.Helper()
		code, _, errs := runStoreCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return errs
	}
	convertList := func(in string) string {
		out := filepath.Join(dir, filepath.Base(in)+".jsonl")
		mustRun("convert", "csv", "--in", in, "--out", out, "--source-id", "my_bank", "--source-type", "SANCTION",
			"--map", "id=customer_no,name=full_name,type=kind,dob=birth_date,citizenship=nationality")
		return out
	}
	mustRun("import", "--store", primaryDB, fixtures+"full_v1.jsonl", "--version", "v1")
	if errs := mustRun("import", "--merge", "--store", primaryDB, convertList("testdata/watchlist.csv")); !strings.Contains(errs, "added=2") {
		t.Fatalf("merge: %s", errs)
	}
	catalogue := filepath.Join(dir, "catalogue.json")
	os.WriteFile(catalogue, []byte(`[{"source":"my_bank","name":"My Bank internal watchlist","description":"Names the bank screens against","source_type":"SANCTION"}]`), 0o600)
	mustRun("sources", "import", "--merge", "--store", primaryDB, catalogue)

	keys := filepath.Join(dir, "keys.json")
	os.WriteFile(keys, []byte(`[{"key":"client-key"},{"key":"replica-key","include_other":true}]`), 0o600)
	addr := freeAddr(t)
	primary := startServe(t, &serveFlags{store: primaryDB, keys: keys, listen: addr, every: time.Hour})
	if body := get(t, primary.addr, "client-key", "/v1/checkName?names=mallory%20watchlisted"); !strings.Contains(body, `"id":"my_bank:C-1"`) {
		t.Fatalf("primary does not find the watchlisted name: %s", body)
	}
	if body := get(t, primary.addr, "client-key", "/v1/checkName?names=ivan%20petrov"); !strings.Contains(body, `"id":"S1"`) {
		t.Fatalf("the merge lost the consolidated records: %s", body)
	}
	var srcs []record.Source
	json.Unmarshal([]byte(get(t, primary.addr, "client-key", "/v1/getSourceList")), &srcs)
	found := false
	for _, s := range srcs {
		if s.Source == "my_bank" {
			found = s.Name == "My Bank internal watchlist" && s.Description != "" && s.SourceType == "sanction" && s.Size == 2
		}
	}
	if !found {
		t.Fatalf("getSourceList lacks the catalogue entry of my_bank: %+v", srcs)
	}

	replicaDB := filepath.Join(dir, "replica", "aml.db")
	os.MkdirAll(filepath.Dir(replicaDB), 0o700)
	// A replica syncs when it starts; that is the sync this test waits for.
	startReplica := func() *serving {
		return startServe(t, &serveFlags{store: replicaDB, keys: keys, listen: "127.0.0.1:0", every: time.Hour,
			upstream: "http://" + addr, apiKey: "replica-key"})
	}
	waitFor := func(r *serving, what, path, want string) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			code, body := httpGet("http://"+r.addr+path, "client-key")
			if code == 200 && strings.Contains(body, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica: %s: %d %s\n%s", what, code, body, r.log())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	replica := startReplica()
	waitFor(replica, "first sync", "/v1/checkName?names=mallory%20watchlisted", `"id":"my_bank:C-1"`)
	replica.stop(t)

	// The primary stops (the store is its while it serves), the list is
	// merged again, and the replica gets the change as a delta.
	primary.stop(t)
	if errs := mustRun("import", "--merge", "--store", primaryDB, convertList("testdata/watchlist2.csv")); !strings.Contains(errs, "added=1") || !strings.Contains(errs, "deleted=1") {
		t.Fatalf("second merge: %s", errs)
	}
	primary = startServe(t, &serveFlags{store: primaryDB, keys: keys, listen: addr, every: time.Hour})
	replica = startReplica()
	waitFor(replica, "delta", "/v1/checkName?names=trent%20intruder", `"id":"my_bank:C-3"`)
	waitFor(replica, "delete", "/v1/checkName?names=shady%20shell", `"total_hits":0`)
	replica.stop(t)
	primary.stop(t)
	st, err := store.Open(replicaDB, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, err := st.Version(); err != nil || v.Full || v.Previous == "" {
		t.Errorf("the replica's last change was not a delta: %+v, %v", v, err)
	}
}

func httpGet(url, key string) (int, string) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("x-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String()
}

func TestSourcesCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatal(errs)
	}
	builtin := filepath.Join(dir, "builtin.json")
	if code, _, errs := runStoreCLI(t, "sources", "builtin", "--out", builtin); code != exitOK {
		t.Fatal(errs)
	}
	code, _, errs := runStoreCLI(t, "sources", "import", "--store", db, builtin)
	if code != exitOK || !strings.Contains(errs, "without a catalogue entry") || !strings.Contains(errs, "ofac-sdn") {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	mine := filepath.Join(dir, "mine.json")
	os.WriteFile(mine, []byte(`[{"source":"ofac-sdn","name":"OFAC SDN (as synced)","source_type":"SANCTION","size":99,"included_for_api_key":true}]`), 0o600)
	if code, _, errs := runStoreCLI(t, "sources", "import", "--merge", "--store", db, mine); code != exitOK || !strings.Contains(errs, "entries=21") {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	code, out, _ := runStoreCLI(t, "sources", "export", "--store", db)
	var got []record.Source
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got) != 21 {
		t.Fatalf("export: exit %d, %v, %d entries", code, err, len(got))
	}
	for _, s := range got {
		if s.Source == "ofac-sdn" && (s.Name != "OFAC SDN (as synced)" || s.SourceType != "sanction" || s.Size != 0 || s.IncludedForAPIKey != nil) {
			t.Errorf("merged entry %+v: want the name, a lower-case type, no size, no per-key flag", s)
		}
	}
	// Without --merge the file replaces the catalogue.
	if code, _, errs := runStoreCLI(t, "sources", "import", "--store", db, mine); code != exitOK || !strings.Contains(errs, "entries=1") {
		t.Fatalf("replace: exit %d: %s", code, errs)
	}
	for _, c := range []struct {
		body, errs string
		code       int
	}{
		{`{"source":"a"}`, "JSON array", exitError},
		{`[{"name":"no id"}]`, "entry 1 has no source id", exitError},
		{`[{"source":"a"},{"source":"a"}]`, "entries 1 and 2 are both a", exitError},
		{"[\n{\"source\":\"a\"},\n{oops}]", "line 3", exitError},
	} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(c.body), 0o600)
		if code, _, errs := runStoreCLI(t, "sources", "import", "--store", db, bad); code != c.code || !strings.Contains(errs, c.errs) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.body, code, errs, c.code, c.errs)
		}
	}
	if code, _, errs := runStoreCLI(t, "sources", "import", builtin); code != exitUsage || !strings.Contains(errs, "--store") {
		t.Errorf("no --store: exit %d: %s", code, errs)
	}
}

func TestImportMergeCLIErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "aml.db")
	if code, _, errs := runStoreCLI(t, "import", "--store", db, fixtures+"full_v1.jsonl", "--version", "v1"); code != exitOK {
		t.Fatal(errs)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o600)
	broken := filepath.Join(dir, "broken.jsonl")
	os.WriteFile(broken, []byte(`{"id":"M1","sourceId":"my_bank","name":"A"}`+"\n"+`{"id":"M2",`+"\n"), 0o600)
	clash := filepath.Join(dir, "clash.jsonl")
	os.WriteFile(clash, []byte(`{"id":"S1","sourceId":"my_bank","name":"Someone Else"}`+"\n"), 0o600)
	for _, c := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"import", "--store", db, "--sources", "my_bank", empty}, exitUsage, "only with --merge"},
		{[]string{"import", "--merge", "--store", db, empty}, exitUsage, "--sources"},
		{[]string{"import", "--merge", "--store", db, "--sources", "a b", empty}, exitUsage, "--sources"},
		{[]string{"import", "--merge", "--store", db, clash}, exitError, "held by a record of source ofac-sdn"},
		{[]string{"import", "--merge", "--store", db, broken}, exitError, "line 2"},
	} {
		if code, _, errs := runStoreCLI(t, c.args...); code != c.code || !strings.Contains(errs, c.errs) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.errs)
		}
	}
	if rep := statusJSON(t, db); rep.Version != "v1" || rep.Records != 4 {
		t.Fatalf("refused merges changed the store: %+v", rep)
	}
}
