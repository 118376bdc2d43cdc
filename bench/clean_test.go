package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"
)

// TestCleanScriptsFile: the multi-script clean set holds made-up people
// in every script the precision target names, enough of each to measure.
func TestCleanScriptsFile(t *testing.T) {
	f, err := os.Open("testdata/clean_scripts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[string]*unicode.RangeTable{
		"Han": unicode.Han, "Hangul": unicode.Hangul, "Katakana": unicode.Katakana,
		"Arabic": unicode.Arabic, "Hebrew": unicode.Hebrew, "Cyrillic": unicode.Cyrillic, "Latin": unicode.Latin,
	}
	count := map[string]int{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		if seen[l] {
			t.Errorf("%q twice", l)
		}
		seen[l] = true
		for name, tab := range tables {
			if strings.IndexFunc(l, func(r rune) bool { return unicode.Is(tab, r) }) >= 0 {
				count[name]++
			}
		}
	}
	for name := range tables {
		if count[name] < 50 {
			t.Errorf("%s: %d names, want 50 or more", name, count[name])
		}
	}
}

// TestCleanAlertsPerThousand: the table states the clean names' false-hit
// share as alerts per 1,000 with the list's size beside it.
func TestCleanAlertsPerThousand(t *testing.T) {
	smallNameLists(t)
	recs := loadFixture(t)
	clean := []string{"Zebulon Quillfeather", "Octavia Brackenridge", recs[0].Name + " Quillfeather"}
	rep, err := Quality(QualityConfig{Records: recs, Seed: 1, Fuzzy: []int{2}, Mode: ModeScored, MinScore: 0.3, CleanNames: clean})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Levels[0].Class(ClassFalseClean)
	if c == nil || c.FalseHitRate == nil {
		t.Fatal("no false_clean class")
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("false_clean, scored>=0.3 at fuzzy 2: %.1f alerts per 1,000 clean names against %d records", 1000**c.FalseHitRate, len(recs))
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, buf.String())
	}
	if *c.FalseHitRate == 0 {
		t.Errorf("a listed name with a word more never hit at 0.3; the line is not exercised")
	}
}
