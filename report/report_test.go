package report

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

var testTime = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

const testVersion = "2026-11-01T00:00:00Z~7"

func loadIndex(t *testing.T, file string) *engine.Index {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return engine.NewIndex(recs)
}

// screen runs q on ix and renders its report.
func screen(t *testing.T, ix *engine.Index, q query.Query) ([]byte, Input) {
	t.Helper()
	res, err := ix.Search(q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	in := Input{Query: q, Result: res, Time: testTime, Version: testVersion, Origin: "test fixture"}
	var buf bytes.Buffer
	if err := Render(&buf, in); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.Bytes(), in
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed (Debian: apt-get install poppler-utils); skipping PDF content check", name)
	}
}

// pdfText extracts the text of a PDF with pdftotext, as a reader of the
// file would copy it: NFKC-normalised (Arabic presentation forms back to
// letters), without the bidi marks poppler adds around right-to-left runs.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	needTool(t, "pdftotext")
	dir := t.TempDir()
	name := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", name, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	s := norm.NFKC.String(string(out))
	return strings.Map(func(r rune) rune {
		if r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F {
			return -1
		}
		return r
	}, s)
}

// squash drops white space, so that text wrapped over lines still matches.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

func contains(text, want string) bool {
	return strings.Contains(squash(text), squash(norm.NFKC.String(want)))
}

func TestReportShowsQueryHitsAndVersion(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	q := query.Query{Kind: query.Individual, Names: "vladimir putin", Fuzzy: 1, DOB: "00/00/1952", Citizenship: "ru"}
	pdf, in := screen(t, ix, q)
	text := pdfText(t, pdf)
	for _, want := range []string{
		"vladimir putin", "00/00/1952", "RU – Russia", "1 spelling edit per word",
		"1 hit", "RU1", "Владимир Владимирович Путин", "Vladimir Vladimirovich Putin",
		testVersion, ID(q, testTime, testVersion), "22 November 2026, 09:30:00 UTC", "test fixture",
		"Page 1 of", "Hit 1 of 1", "Sanction details", "Council Regulation (EU) No 269/2014",
		"Citizenship filter", "RU screened; record has RU",
	} {
		if !contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	if in.ID != "" {
		t.Fatal("screen must leave the id to Render")
	}
	if !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Errorf("not a PDF: %q", pdf[:8])
	}
}

func TestReportWithoutHitsSaysSo(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	for _, q := range []query.Query{
		{Kind: query.Individual, Names: "nobody anywhere"},
		{Kind: query.Entity, Names: "vladimir putin"}, // only individuals carry that name
	} {
		pdf, _ := screen(t, ix, q)
		text := pdfText(t, pdf)
		for _, want := range []string{"No hits", "No record in the sanction, PEP and criminal sources searched matched", q.Names} {
			if !contains(text, want) {
				t.Errorf("%q: report lacks %q", q.Names, want)
			}
		}
		if contains(text, "Hit 1 of") || contains(text, "Hit details") {
			t.Errorf("%q: a no-hit report shows hit sections", q.Names)
		}
	}
}

func TestReportKeepsOnlySanctionPEPAndCriminal(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	tests := []struct {
		q        query.Query
		want     []string
		unwanted []string
	}{
		// OT1 (OTHER) and TX1 (NON_COMPLIANT_TAXPAYER) match this name too.
		{query.Query{Kind: query.Individual, Names: "vladimir putin"}, []string{"RU1", "1 hit"}, []string{"OT1", "TX1", "Offshore leaks", "tax_ua", "leaks"}},
		// EN2 (OTHER) matches by legal form.
		{query.Query{Kind: query.Entity, Names: "acme holdings llc"}, []string{"EN1", "1 hit"}, []string{"EN2", "Acme Holdings L.L.C."}},
	}
	for _, tt := range tests {
		res, err := ix.Search(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total < 2 {
			t.Fatalf("%q: fixture should match an excluded record too, got %d hits", tt.q.Names, res.Total)
		}
		pdf, _ := screen(t, ix, tt.q)
		text := pdfText(t, pdf)
		for _, w := range tt.want {
			if !contains(text, w) {
				t.Errorf("%q: report lacks %q", tt.q.Names, w)
			}
		}
		for _, u := range tt.unwanted {
			if contains(text, u) {
				t.Errorf("%q: report shows %q from a source type reports leave out", tt.q.Names, u)
			}
		}
	}
}

func TestReportListsSourcesSearched(t *testing.T) {
	q := query.Query{Kind: query.Individual, Names: "nobody", Sources: map[string]bool{"eu_fsf": true, "leaks": true, "pep_fr": true}}
	catalogue := []record.Source{
		{Source: "un_sc", Name: "UN Security Council Consolidated List", SourceType: "sanction"},
		{Source: "pep_fr", Name: "France Politically Exposed Persons", SourceType: "pep", IssuerName: "Compiled in France"},
		{Source: "leaks", Name: "Offshore Leaks", SourceType: "other"},
		{Source: "eu_fsf", Name: "EU Financial Sanctions Files", SourceType: "sanction"},
	}
	render := func(in Input) string {
		var buf bytes.Buffer
		if err := Render(&buf, in); err != nil {
			t.Fatal(err)
		}
		return pdfText(t, buf.Bytes())
	}
	text := render(Input{Query: q, Result: &engine.Result{}, Time: testTime, Sources: catalogue})
	for _, want := range []string{"2: eu_fsf, pep_fr", "EU Financial Sanctions Files", "France Politically Exposed Persons", "Compiled in France", "Appendix: sources searched"} {
		if !contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, unwanted := range []string{"Offshore Leaks", "leaks", "un_sc", "UN Security Council"} {
		if contains(text, unwanted) {
			t.Errorf("report lists %q, which was not searched or is not reportable", unwanted)
		}
	}
	// Without a catalogue the ids of the query are listed.
	text = render(Input{Query: q, Result: &engine.Result{}, Time: testTime})
	if !contains(text, "3: eu_fsf, leaks, pep_fr") {
		t.Errorf("ids of the query are not listed")
	}
	// With neither, the report says what was searched without a list.
	q.Sources = nil
	text = render(Input{Query: q, Result: &engine.Result{}, Time: testTime})
	if !contains(text, everySource) || contains(text, "Appendix: sources searched") {
		t.Errorf("report without a source list:\n%s", text)
	}
}

func TestReportScripts(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	tests := []struct {
		script string
		q      query.Query
		want   []string
	}{
		{"Cyrillic", query.Query{Kind: query.Individual, Names: "putin"}, []string{"Владимир Владимирович Путин", "Ленинград", "Президент Российской Федерации"}},
		// Poppler orders right-to-left words around punctuation by its own
		// heuristic, so the place of birth is checked on both sides of its
		// comma.
		{"Arabic", query.Query{Kind: query.Individual, Names: "abd al-rahman al-zahrani"}, []string{"عبد الرحمن بن خالد الزهراني", "الطائف", "المملكة العربية السعودية", "Abd al-Rahman bin Khalid al-Zahrani", "Passport K123456 (Saudi Arabia)"}},
		{"Chinese entity", query.Query{Kind: query.Entity, Names: "shenzhen huaanda electronic technology"}, []string{"深圳市华安达电子科技有限公司", "深圳市福田区华强广场A座1805室", "91440300MA5F1UQC7X", "CN – China"}},
		{"Chinese individual", query.Query{Kind: query.Individual, Names: "he yong gang"}, []string{"何永刚", "He Yong Gang", "3 – sub-national", "Politician", "http://www.npc.gov.cn/"}},
		{"Korean", query.Query{Kind: query.Individual, Names: "kim yong chol"}, []string{"김영철", "KP – North Korea"}},
		{"accents", query.Query{Kind: query.Individual, Names: "helene muller-ludenscheidt"}, []string{"Hélène Müller-Lüdenscheidt", "François Müller-Lüdenscheidt", "12 rue de l'Évêché, 67000 Strasbourg", "Relatives and close associates"}},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			pdf, _ := screen(t, ix, tt.q)
			text := pdfText(t, pdf)
			if !contains(text, "1 hit") {
				t.Errorf("expected one hit for %q", tt.q.Names)
			}
			for _, w := range tt.want {
				if !contains(text, w) {
					t.Errorf("report lacks %q; text:\n%s", w, text)
				}
			}
			if strings.ContainsAny(text, "?\uFFFD") {
				t.Errorf("report text has question marks or replacement characters where letters should be")
			}
		})
	}
}

func TestEveryAttributeIsShown(t *testing.T) {
	ix := loadIndex(t, "full.jsonl")
	r := ix.Get("FULL1")
	labelled := map[string]attr{}
	for _, g := range groups {
		for _, a := range g.attrs {
			labelled[a.key] = a
		}
	}
	var values []string
	for _, key := range record.Attributes() {
		if key == "id" {
			continue
		}
		a, ok := labelled[key]
		if !ok {
			t.Errorf("attribute %s has no label in the report", key)
			continue
		}
		v := a.get(r, nil)
		if len(v) == 0 {
			t.Errorf("fixture leaves %s empty, or the report drops it", key)
		}
		values = append(values, a.label)
		values = append(values, v...)
	}
	pdf, _ := screen(t, ix, query.Query{Kind: query.Individual, Names: "zanzibar fullrecord"})
	text := pdfText(t, pdf)
	values = append(values, "vessel_flag", "PA", "future_list", "future one", "future two", "25 February 2022", "Board member of central bank", "2 – other senior", "LU – Luxembourg", "DE – Germany")
	for _, v := range values {
		if !contains(text, v) {
			t.Errorf("report lacks %q", v)
		}
	}
}

func TestReportIsDeterministic(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	q := query.Query{Kind: query.Individual, Names: "vladimir putin", Fuzzy: 1}
	a, _ := screen(t, ix, q)
	b, _ := screen(t, ix, q)
	if !bytes.Equal(a, b) {
		t.Fatal("the same input gave different bytes")
	}
	res, _ := ix.Search(q)
	var c bytes.Buffer
	if err := Render(&c, Input{Query: q, Result: res, Time: testTime.Add(time.Second), Version: testVersion, Origin: "test fixture"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c.Bytes()) {
		t.Error("a different time gave the same bytes")
	}
	if !bytes.Contains(a, []byte("D:20261122093000")) {
		t.Error("creation date is not the screening time")
	}
}

func TestID(t *testing.T) {
	q := query.Query{Kind: query.Individual, Names: "vladimir putin", Sources: map[string]bool{"b": true, "a": true}}
	id := ID(q, testTime, testVersion)
	if len(id) != len("AMLR-0000-0000-0000-0000") || !strings.HasPrefix(id, "AMLR-") {
		t.Fatalf("id %q has the wrong shape", id)
	}
	same := q
	same.Sources = map[string]bool{"a": true, "b": true}
	if ID(same, testTime.In(time.FixedZone("X", 3600)), testVersion) != id {
		t.Error("id depends on map order or time zone")
	}
	for name, other := range map[string]string{
		"names":   ID(query.Query{Kind: query.Individual, Names: "vladimir putn", Sources: q.Sources}, testTime, testVersion),
		"kind":    ID(query.Query{Kind: query.Entity, Names: "vladimir putin", Sources: q.Sources}, testTime, testVersion),
		"sources": ID(query.Query{Kind: query.Individual, Names: "vladimir putin"}, testTime, testVersion),
		"time":    ID(q, testTime.Add(time.Nanosecond), testVersion),
		"version": ID(q, testTime, "other"),
	} {
		if other == id {
			t.Errorf("a different %s gives the same id", name)
		}
	}
}

func TestFilterAndReportableSources(t *testing.T) {
	hit := func(id, typ string) engine.Hit {
		return engine.Hit{Record: &record.Record{ID: id, SourceType: typ}}
	}
	res := &engine.Result{Total: 7, Hits: []engine.Hit{
		hit("a", "SANCTION"), hit("b", "OTHER"), hit("c", "PEP"), hit("d", "NON_COMPLIANT_TAXPAYER"), hit("e", "CRIMINAL"), {},
	}}
	got := Filter(res)
	var ids []string
	for _, h := range got.Hits {
		ids = append(ids, h.Record.ID)
	}
	if !slices.Equal(ids, []string{"a", "c", "e"}) || got.Total != 4 {
		t.Errorf("Filter kept %v total %d; want [a c e] total 4", ids, got.Total)
	}
	if len(res.Hits) != 6 {
		t.Error("Filter changed its input")
	}
	if f := Filter(nil); f == nil || f.Total != 0 {
		t.Error("Filter(nil) is not an empty result")
	}

	types := map[string]string{"s": "SANCTION", "p": "pep", "c": "CRIMINAL", "o": "OTHER", "t": "NON_COMPLIANT_TAXPAYER"}
	tests := []struct {
		sel  map[string]bool
		want []string
	}{
		{nil, []string{"c", "p", "s"}},
		{map[string]bool{"s": true, "o": true}, []string{"s"}},
		{map[string]bool{"o": true, "t": true}, nil},
	}
	for _, tt := range tests {
		got := ReportableSources(tt.sel, types)
		if got == nil {
			t.Fatalf("ReportableSources(%v) is nil, which would mean every source", tt.sel)
		}
		var ids []string
		for id := range got {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, tt.want) {
			t.Errorf("ReportableSources(%v) = %v, want %v", tt.sel, ids, tt.want)
		}
	}
}

func TestRenderRejectsBadInput(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, Input{Query: query.Query{Names: "x"}}); err != ErrNoTime {
		t.Errorf("no time: %v", err)
	}
	err := Render(&buf, Input{Query: query.Query{Names: "x", DOB: "32/01/2000"}, Time: testTime})
	if pe, ok := err.(*query.ParamError); !ok || pe.Param != "dob" {
		t.Errorf("bad dob: %v", err)
	}
	// A nil result renders as no hits rather than failing.
	if err := Render(&buf, Input{Query: query.Query{Names: "x"}, Time: testTime}); err != nil {
		t.Errorf("nil result: %v", err)
	}
}

func TestMessyTextDoesNotBreakRendering(t *testing.T) {
	long := strings.Repeat("https://example.org/a-very-long-path-without-spaces/", 12)
	r := &record.Record{
		ID: "M1", SourceType: "SANCTION", EntityType: "INDIVIDUAL",
		Name:             "Bad\x00 \xff\xfe name\twith\ncontrols \u202Eevil\u202C 😀 ऋषि สมชาย",
		AliasNames:       []string{strings.Repeat("Abcdefghij ", 200), long, "ﻻ لا إلى", "(عبد) 123 [x]"},
		OtherInformation: []string{"", "   ", strings.Repeat("深", 400)},
	}
	res := &engine.Result{Total: 1, Hits: []engine.Hit{{Record: r, Field: "name"}}}
	var buf bytes.Buffer
	if err := Render(&buf, Input{Query: query.Query{Names: "bad name"}, Result: res, Time: testTime}); err != nil {
		t.Fatalf("render: %v", err)
	}
	text := pdfText(t, buf.Bytes())
	if !contains(text, "Abcdefghij Abcdefghij") || !contains(text, "深深深深") {
		t.Error("long values are missing")
	}
}

func TestPage1RendersToPNG(t *testing.T) {
	needTool(t, "pdftoppm")
	ix := loadIndex(t, "records.jsonl")
	pdf, _ := screen(t, ix, query.Query{Kind: query.Individual, Names: "vladimir putin", Fuzzy: 1})
	dir := t.TempDir()
	name := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftoppm", "-f", "1", "-l", "1", "-r", "40", "-png", "-singlefile", name, filepath.Join(dir, "page")).CombinedOutput()
	if err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("page 1 is not a PNG: %v", err)
	}
	b := img.Bounds()
	if w, h := b.Dx(), b.Dy(); w < 300 || h < 400 || h < w {
		t.Fatalf("page 1 is %dx%d, not an A4 portrait page", w, h)
	}
	// The title band is navy; the middle of the page has dark text.
	r, g, bl, _ := img.At(b.Dx()/2, 5).RGBA()
	if !(bl > r && bl > g && r < 0x6000) {
		t.Errorf("top of page 1 is not the navy band: %x %x %x", r>>8, g>>8, bl>>8)
	}
	dark := 0
	for y := b.Dy() / 4; y < b.Dy()*3/4; y++ {
		for x := 0; x < b.Dx(); x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0x8000 {
				dark++
			}
		}
	}
	if dark < 500 {
		t.Errorf("page 1 has almost no text (%d dark pixels)", dark)
	}
}

func BenchmarkRender(b *testing.B) {
	f, err := os.Open("testdata/records.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	recs, err := record.ReadAll(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	ix := engine.NewIndex(recs)
	for _, q := range []query.Query{
		{Kind: query.Individual, Names: "vladimir putin"},
		{Kind: query.Entity, Names: "shenzhen huaanda"},
	} {
		res, err := ix.Search(q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q.Names, func(b *testing.B) {
			for b.Loop() {
				if err := Render(io.Discard, Input{Query: q, Result: res, Time: testTime, Version: testVersion}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReportTakesAnyQueryText: a query that is not valid UTF-8 or holds
// control and bidi characters still renders (the PDF's metadata and text
// get U+FFFD and lose the controls); fpdf used to panic on the metadata.
func TestReportTakesAnyQueryText(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	for _, names := range []string{"0\xc0", "acme\x00\u202e\ttrading \xfe"} {
		pdf, _ := screen(t, ix, query.Query{Kind: query.Entity, Names: names})
		if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("%q: not a PDF", names)
		}
	}
	needTool(t, "pdftotext")
	pdf, _ := screen(t, ix, query.Query{Kind: query.Entity, Names: "0\xc0"})
	if text := pdfText(t, pdf); !contains(text, "0\uFFFD") {
		t.Errorf("report lacks the query as 0\uFFFD:\n%s", text)
	}
}
