package ofac

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/convert/internal/convtest"
	"github.com/amlscreen/amlscreen/record"
)

func enhanced(t *testing.T, path string, l OFACList) ([]*record.Record, error) {
	t.Helper()
	rc, err := OpenOFACEnhanced(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out []*record.Record
	err = OFACEnhanced(rc, l, func(r *record.Record) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

func TestOFACEnhancedFixture(t *testing.T) {
	recs, err := enhanced(t, "../testdata/ofacxml/cons.xml", NonSDNList(""))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	want := &record.Record{
		ID: "OFAC-CONS-9001", SourceID: SourceOFACNonSDN, SourceType: record.SourceSanction,
		EntityType: record.EntityIndividual, ListDate: 1144800000000, Gender: record.GenderMale,
		Name: "EXAMPLE, Ahmad Yousef", LastNames: []string{"EXAMPLE"}, GivenNames: []string{"Ahmad Yousef"},
		// The F.K.A. is a name; the low-quality A.K.A. only a remark, as
		// the CSV format's weak aliases.
		AliasNames: []string{"EXAMPEL, Ahmed"}, NameRemarks: []string{"Abu Example"},
		DateOfBirth: []string{"00/00/1960"}, DateOfBirthRemarks: []string{"circa 1960"},
		PlaceOfBirth: []string{"Hebron"}, Address: []string{"Hebron, West Bank, Palestinian"},
		Citizenship: []string{"PS"},
		SanctionDetails: []string{"NS-PLC", "List: Non-SDN Palestinian Legislative Council List", "Sanctions type: Reject",
			"Legal authority: General License 4 Under EO 13224 (Terrorism)"},
		OtherInformation: []string{"Passport P1234567 (Palestinian) (not valid)", "HAMAS - Hebron"},
	}
	convtest.WantRecord(t, recs[0], want)
	want = &record.Record{
		ID: "OFAC-CONS-9002", SourceID: SourceOFACNonSDN, SourceType: record.SourceSanction,
		EntityType: record.EntityEntity, ListDate: 1450742400000, Name: "EXAMPLE BANK JSC",
		AliasNames: []string{"ПРИМЕР БАНК АО"}, Address: []string{"Polyanka Bolshaya str. 50/1, Moscow, 119180, Russia"},
		Jurisdiction: []string{"RU"}, CompanyNumber: []string{"1027739075891"},
		SanctionDetails: []string{"UKRAINE-EO13662", "List: Sectoral Sanctions Identifications List",
			"Secondary sanctions risk: See Section 11 of Executive Order 14024."},
		Links: []string{"www.example.ru"},
		OtherInformation: []string{"Website www.example.ru", "SWIFT/BIC EXAMRUMM - head office",
			"Registration ID 1027739075891 (Russia) issued by OGRN", "Owned or Controlled By: EXAMPLE HOLDING"},
	}
	convtest.WantRecord(t, recs[1], want)

	// The SDN list's file gives the SDN ids and source.
	xmlText, err := os.ReadFile("../testdata/ofacxml/cons.xml")
	if err != nil {
		t.Fatal(err)
	}
	sdnText := strings.Replace(string(xmlText), ">Consolidated List</sanctionsList>\n      </sanctionsLists>\n    </filters>", ">SDN List</sanctionsList>\n      </sanctionsLists>\n    </filters>", 1)
	sdnPath := filepath.Join(t.TempDir(), "SDN_ENHANCED.XML")
	os.WriteFile(sdnPath, []byte(sdnText), 0o600)
	sdnRecs, err := enhanced(t, sdnPath, SDNList(""))
	if err != nil || len(sdnRecs) != 2 || sdnRecs[0].ID != "OFAC-9001" || sdnRecs[0].SourceID != SourceOFACSDN {
		t.Fatalf("SDN file: %v, %d records", err, len(sdnRecs))
	}

	// The file says it is the Consolidated List: loading it as the SDN
	// list would put its records under the wrong source.
	if _, err := enhanced(t, "../testdata/ofacxml/cons.xml", SDNList("")); err == nil || !strings.Contains(err.Error(), "not the SDN List") {
		t.Fatalf("non-SDN file as SDN: error %v", err)
	}
}

// writeZip writes an archive of the named members.
func writeZip(t *testing.T, path string, members map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range members {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOFACEnhancedZip(t *testing.T) {
	xmlText, err := os.ReadFile("../testdata/ofacxml/cons.xml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "CONS_ENHANCED.ZIP")
	writeZip(t, good, map[string]string{"CONS_ENHANCED.XML": string(xmlText), "readme.txt": "x"})
	recs, err := enhanced(t, good, NonSDNList(""))
	if err != nil || len(recs) != 2 {
		t.Fatalf("zip: %d records, error %v", len(recs), err)
	}
	for _, c := range []struct {
		name    string
		members map[string]string
		want    string
	}{
		{"no xml", map[string]string{"a.txt": "x"}, "no .xml file"},
		{"two xml", map[string]string{"a.xml": "x", "b.XML": "y"}, "2 .xml files"},
		{"not ofac", map[string]string{"a.xml": "<root/>"}, "no <entity>"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".zip")
		writeZip(t, path, c.members)
		if _, err := enhanced(t, path, NonSDNList("")); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestZipBomb: a member that declares more than the limit is refused
// before it is decompressed, and one that decompresses past the limit
// stops there.
func TestZipBomb(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bomb.zip")
	writeZip(t, path, map[string]string{"bomb.xml": strings.Repeat("A", 1<<20)})
	if _, err := openZipMember(path, ".xml", 1<<10); !errors.Is(err, conv.ErrInputTooLarge) {
		t.Fatalf("declared size over the limit: error %v", err)
	}

	// A header that understates the size: the bytes are counted anyway.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "liar.xml", Method: zip.Store, UncompressedSize64: 10, CompressedSize64: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("A"), 1<<20))
	zw.Close()
	liar := filepath.Join(dir, "liar.zip")
	os.WriteFile(liar, buf.Bytes(), 0o644)
	rc, err := openZipMember(liar, ".xml", 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	if err == nil || n > 1<<10 {
		t.Fatalf("read %d bytes of an understated member without error (%v)", n, err)
	}
}

func TestRealOFACEnhanced(t *testing.T) {
	if raceEnabled {
		t.Skip("converts a real list from one goroutine: the race detector finds nothing there and runs it ten times slower; the plain run runs it")
	}
	dir := convtest.SharedLists(t)
	path := filepath.Join(dir, "CONS_ENHANCED.ZIP")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("enhanced non-SDN list not available: %v", err)
	}
	recs, err := enhanced(t, path, NonSDNList(dir))
	if err != nil {
		t.Fatal(err)
	}
	s := convtest.CheckRecords(t, recs)
	if s.N < 400 || s.ByType[record.EntityEntity] < 300 || s.ByType[record.EntityIndividual] < 50 {
		t.Errorf("%d records %v, want the whole list", s.N, s.ByType)
	}
	// The CSV and XML formats of the list give the same ids; most entries
	// are in both editions on hand, and under the same name.
	csv := map[string]string{}
	if err := ConvertOFAC(NonSDNList(dir), func(r *record.Record) error {
		csv[r.ID] = r.Name
		return nil
	}); err != nil {
		t.Skipf("non-SDN CSV not available: %v", err)
	}
	both, sameName := 0, 0
	for _, r := range recs {
		if name, ok := csv[r.ID]; ok {
			both++
			if name == r.Name {
				sameName++
			}
		}
	}
	if both < 400 || sameName < both*95/100 {
		t.Errorf("%d ids in both formats, %d with the same name", both, sameName)
	}
}
