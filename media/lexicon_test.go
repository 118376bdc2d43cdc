package media

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestDefaultLexiconParses(t *testing.T) {
	l := DefaultLexicon()
	if got := l.Categories(); !slices.Equal(got, StandardCategories) {
		t.Errorf("lexicon categories %v, want %v", got, StandardCategories)
	}
}

func TestParseLexiconErrors(t *testing.T) {
	for _, data := range []string{
		"2 fraud",                  // before any section
		"[financial_crime\n2 x",    // unterminated section
		"[]\n2 x",                  // no category
		"[Bad Name!]\n2 x",         // not a category name
		"[political]\n3 coup",      // bad weight
		"[political]\n2",           // no pattern
		"[political]\n2 ab*",       // stem too short
		"[political]\n2 ***",       // no letters
		"# nothing but comments\n", // no entries
	} {
		if _, err := ParseLexicon(data); err == nil {
			t.Errorf("%q: parsed", data)
		}
	}
}

func TestLexiconRules(t *testing.T) {
	l, err := ParseLexicon(`
[financial_crime]
2 money launder*
1 fraud*
c charged
[regulatory]
c anti money launder*
1 fined
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ text, want string }{
		{"He laundered nothing, but was charged with money laundering.", "financial_crime"},
		{"Fraud detection software.", ""},                                         // one weak cue
		{"Fraud and more fraud.", ""},                                             // an entry counts once
		{"Charged with fraud.", "financial_crime"},                                // weak cue and context
		{"New anti-money laundering rules.", ""},                                  // the longer compliance term wins
		{"The bank was fined over anti-money laundering failures.", "regulatory"}, // weak cue and context
		{"FRAUDULENT   transfers; he was CHARGED.", "financial_crime"},
	} {
		if got := strings.Join(l.Classify(tt.text, ""), ","); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.text, got, tt.want)
		}
	}
	// Units are classified together, but phrases do not span them.
	if got := l.Classify("Money", "<p>laundering charges</p>"); got != nil {
		t.Errorf("a phrase across headline and body matched: %v", got)
	}
}

// labelled is one hand-labelled snippet of testdata/labelled.tsv.
type labelled struct {
	line       int
	cats       []string
	lang, text string
}

func readLabelled(t *testing.T, name string) []labelled {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want 3 tab-separated columns", name, n)
		}
		var cats []string
		if parts[0] != "-" {
			cats = strings.Split(parts[0], ",")
			for _, c := range cats {
				if !slices.Contains(StandardCategories, c) {
					t.Fatalf("%s:%d: unknown category %q", name, n, c)
				}
			}
		}
		out = append(out, labelled{line: n, cats: cats, lang: parts[1], text: parts[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type floor struct{ precision, recall float64 }

// Floors of precision and recall per category, a little under what was
// measured (see the README), so that a change that makes classification
// worse fails and one that makes it better can raise them.
//
// labelled.tsv and development.tsv are development sets: the lexicon was
// corrected against them (labelled.tsv first; development.tsv, written
// later with fresh phrasing, for the recall work), so their figures are
// optimistic. heldout.tsv was written after the first correction and is
// never tuned against or read while changing the lexicon; its floors are
// the honest ones, set under the figures measured once after each
// correction.
var (
	labelledFloors = map[string]floor{
		Political: {0.80, 0.90}, Regulatory: {0.90, 0.90}, Terrorism: {0.90, 0.90},
		FinancialCrime: {0.90, 0.90}, OrganizedCrime: {0.85, 0.90}, ViolentCrime: {0.75, 0.90},
	}
	developmentFloors = map[string]floor{
		Political: {0.90, 0.85}, Regulatory: {0.90, 0.85}, Terrorism: {0.90, 0.90},
		FinancialCrime: {0.90, 0.70}, OrganizedCrime: {0.90, 0.90}, ViolentCrime: {0.80, 0.85},
	}
	heldoutFloors = map[string]floor{
		Political: {0.70, 0.30}, Regulatory: {0.90, 0.75}, Terrorism: {0.90, 0.75},
		FinancialCrime: {0.90, 0.35}, OrganizedCrime: {0.90, 0.75}, ViolentCrime: {0.85, 0.85},
	}
)

func TestLexiconPrecisionRecall(t *testing.T) {
	for _, tt := range []struct {
		file   string
		min    int
		floors map[string]floor
	}{
		{"testdata/labelled.tsv", 100, labelledFloors},
		{"testdata/development.tsv", 150, developmentFloors},
		{"testdata/heldout.tsv", 60, heldoutFloors},
	} {
		t.Run(tt.file, func(t *testing.T) { measureLexicon(t, tt.file, tt.min, tt.floors) })
	}
}

func measureLexicon(t *testing.T, file string, minSize int, floors map[string]floor) {
	set := readLabelled(t, file)
	if len(set) < minSize {
		t.Fatalf("%s has %d snippets, want %d or more", file, len(set), minSize)
	}
	l := DefaultLexicon()
	type counts struct{ tp, fp, fn int }
	per := map[string]*counts{}
	for _, c := range StandardCategories {
		per[c] = &counts{}
	}
	exact := 0
	for _, s := range set {
		got := l.Classify(s.text, "")
		if slices.Equal(got, sortLike(s.cats)) {
			exact++
		} else if testing.Verbose() {
			t.Logf("line %d (%s): got %v, labelled %v: %s", s.line, s.lang, got, s.cats, s.text)
		}
		for _, c := range StandardCategories {
			g, w := slices.Contains(got, c), slices.Contains(s.cats, c)
			switch {
			case g && w:
				per[c].tp++
			case g:
				per[c].fp++
			case w:
				per[c].fn++
			}
		}
	}
	t.Logf("%d snippets, %d classified exactly as labelled", len(set), exact)
	for _, c := range StandardCategories {
		k := per[c]
		p := ratio(k.tp, k.tp+k.fp)
		r := ratio(k.tp, k.tp+k.fn)
		t.Logf("%-16s precision %.2f (%d/%d)  recall %.2f (%d/%d)", c, p, k.tp, k.tp+k.fp, r, k.tp, k.tp+k.fn)
		f := floors[c]
		if p < f.precision || r < f.recall {
			t.Errorf("%s: precision %.2f recall %.2f, below the floor %.2f/%.2f", c, p, r, f.precision, f.recall)
		}
	}
}

// sortLike orders categories as the lexicon returns them.
func sortLike(cats []string) []string {
	var out []string
	for _, c := range StandardCategories {
		if slices.Contains(cats, c) {
			out = append(out, c)
		}
	}
	return out
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func ExampleLexicon_Classify() {
	l := DefaultLexicon()
	fmt.Println(l.Classify("Geldwäsche: Anklage gegen Unternehmer", ""))
	fmt.Println(l.Classify("Задержан лидер ОПГ", "<p>Ему предъявлено обвинение в вымогательстве.</p>"))
	fmt.Println(l.Classify("New fraud detection tool launched", ""))
	// Output:
	// [financial_crime]
	// [organized_crime]
	// []
}
