package report

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
)

// renderSample renders the report of q on ix with Sample set as given.
func renderSample(t *testing.T, ix *engine.Index, q query.Query, sample bool) []byte {
	t.Helper()
	res, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Render(&buf, Input{Query: q, Result: res, Time: testTime, Version: testVersion, Origin: "embedded sample", Sample: sample}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pageText extracts the text of one page with pdftotext.
func pageText(t *testing.T, pdf []byte, page int) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	p := strconv.Itoa(page)
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", "-f", p, "-l", p, name, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	return string(out)
}

// pageCount reads the number of pages with pdfinfo.
func pageCount(t *testing.T, pdf []byte) int {
	t.Helper()
	needTool(t, "pdfinfo")
	name := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", name).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfinfo: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("pdfinfo gave no page count:\n%s", out)
	return 0
}

// TestSampleReportSaysSoOnEveryPage: a report on the embedded sample
// carries the watermark on every page, and its "No hits" is neither green
// nor a clearance; the same report on real data has neither.
func TestSampleReportSaysSoOnEveryPage(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	hits := query.Query{Kind: query.Any, Names: "vladimir putin", Fuzzy: 1}
	pdf := renderSample(t, ix, hits, true)
	pages := pageCount(t, pdf)
	if pages < 2 {
		t.Fatalf("the hit report has %d page; the test needs several", pages)
	}
	for p := 1; p <= pages; p++ {
		if !contains(pageText(t, pdf, p), SampleMark) {
			t.Errorf("page %d of %d does not say %q", p, pages, SampleMark)
		}
	}
	text := pdfText(t, pdf)
	if !contains(text, "this report screens no one") {
		t.Error("a sample report with hits does not say it screens no one")
	}

	none := query.Query{Kind: query.Individual, Names: "nobody anywhere"}
	text = pdfText(t, renderSample(t, ix, none, true))
	for _, want := range []string{SampleMark, "No hits in the sample data: not a screening", "not the sanction, PEP and criminal lists"} {
		if !contains(text, want) {
			t.Errorf("a no-hit sample report lacks %q", want)
		}
	}
	if contains(text, "No record in the sanction, PEP and criminal sources searched matched") {
		t.Error("a no-hit sample report reads as a clearance")
	}

	real := pdfText(t, renderSample(t, ix, none, false))
	if contains(real, SampleMark) || contains(real, "not a screening") {
		t.Error("a report on real data carries the sample's warnings")
	}
}

// TestSampleWatermarkIsVisible renders page 1 of a no-hit sample report
// and finds the watermark's red across the middle of the page, and no
// green result box; without Sample, the box is green and there is no red.
func TestSampleWatermarkIsVisible(t *testing.T) {
	needTool(t, "pdftoppm")
	ix := loadIndex(t, "records.jsonl")
	q := query.Query{Kind: query.Individual, Names: "nobody anywhere"}
	for _, sample := range []bool{true, false} {
		img := page1(t, renderSample(t, ix, q, sample))
		red, green := 0, 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				r, g, bl = r>>8, g>>8, bl>>8
				switch {
				case r > 200 && g < 200 && bl < 200 && r-g > 30:
					red++
				case g > r+20 && g > bl+20:
					green++
				}
			}
		}
		if sample && (red < 500 || green > 50) {
			t.Errorf("sample: %d red and %d green pixels; want the watermark and no green box", red, green)
		}
		if !sample && (red > 50 || green < 50) {
			t.Errorf("real data: %d red and %d green pixels; want a green box and no watermark", red, green)
		}
	}
}

func page1(t *testing.T, pdf []byte) image.Image {
	t.Helper()
	dir := t.TempDir()
	name := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", name, filepath.Join(dir, "page")).CombinedOutput()
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
		t.Fatal(err)
	}
	return img
}
