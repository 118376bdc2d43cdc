package bench

import (
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestLessOneWord: a generated personal name that is a listed person's
// name with one word left out is no false hit; other names are.
func TestLessOneWord(t *testing.T) {
	ix := engine.NewIndex([]*record.Record{
		{ID: "A", SourceID: "t", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "BARAKAT, Hamza Ahmad"},
		{ID: "B", SourceID: "t", SourceType: "SANCTION", EntityType: "ENTITY", Name: "PACIFIC OCEAN TRADING"},
		{ID: "C", SourceID: "t", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "KUZMIN, Denis Igorevich Petrovich"},
	})
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"Hamza Barakat", true},
		{"Ahmad Barakat", true},
		{"Hamza Ahmad Barakat", false}, // the name itself: dropped as listed word for word
		{"Hamza Khalil", false},
		{"Barakat", false},
		{"Pacific Trading", false},   // a company's name less a word
		{"Denis Kuzmin", false},      // two words left out
		{"Hamza Barakat Ali", false}, // a word the list lacks
	} {
		got, err := lessOneWord(ix, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("lessOneWord(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestCleanNameNotListedByADraw: a clean name that a generated false
// person happens to share is searched as a clean name, not counted as a
// listed name; a repeat in the clean list is searched once.
func TestCleanNameNotListedByADraw(t *testing.T) {
	smallNameLists(t)
	// Peter Brown is drawn as a false person of the fixture
	// (TestQualityFixture); John Smith is record G's name.
	rep, err := Quality(QualityConfig{Records: loadFixture(t), Seed: 1, Fuzzy: []int{0}, Workers: 2,
		CleanNames: []string{"Peter Brown", "John Smith", "Brown Peter"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.CleanNames != 2 || rep.CleanListed != 1 {
		t.Errorf("clean names %d, listed %d; want 2 and 1", rep.CleanNames, rep.CleanListed)
	}
	if c := rep.Levels[0].Class(ClassFalseClean); c == nil || c.Queries != 1 {
		t.Errorf("false_clean %+v, want Peter Brown searched", c)
	}
}
