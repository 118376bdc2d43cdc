package engine

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// labelledRecords are listed names that show the rules of the last STRONG
// labelled pairs (../shared/quality/name_bench_cases.csv lines 197, 819
// and 820), among generated people.
var labelledRecords = []struct{ id, et, name string }{
	{"L-QAIDA", "ENTITY", "Al-Qa'ida/Islamic Army"},
	{"L-PARTY", "ENTITY", "REVOLUTIONARY PEOPLE'S LIBERATION PARTY/FRONT"},
	{"L-NORDIC", "ENTITY", "Nordic Shipping A/S"},
	{"L-PEREZ", "INDIVIDUAL", "Fernando Pérez"},
	{"L-PABLO", "INDIVIDUAL", "Pablo Villena"},
	{"L-BILT", "ENTITY", "van der bilt corp"},
	{"L-ABD", "INDIVIDUAL", "Abdelrahmanov Yusuf"},
	{"L-ZANDT", "ENTITY", "Vanderzandt"},
}

// labelledCases: each query finds its record at the default threshold, or
// (want "") none of labelledRecords.
var labelledCases = []ruleCase{
	// A slash between two names of two words or more parts them.
	{"Al Qaeda", "L-QAIDA", "the first of two names in one"},
	{"Islamic Army", "L-QAIDA", "the second of two names in one"},
	{"Al Qaida Islamic Army", "L-QAIDA", "both names, as the list writes them"},
	// A slash offering two words for one place parts nothing: Front
	// alone is not the party's name.
	{"Front", "", "one word of the two offered"},
	{"Revolutionary Peoples Liberation Party", "L-PARTY", "the name with the first word offered"},
	{"Nordic Shipping", "L-NORDIC", "A/S is a legal form, not two names"},
	// A query in Arabic script pairs with Latin spellings knowing that
	// Arabic writes no p, v, e or o and no short vowels.
	{"فرناندو بيريز", "L-PEREZ", "biriz for Pérez, farnandu for Fernando"},
	{"بابلو فيلينا", "L-PABLO", "bablu for Pablo, filina for Villena"},
	{"فرناندو لوبيز", "", "Lopez is not Pérez in any script"},
	{"Farnandu Biriz", "", "a Latin query keeps the Latin costs"},
	// One word against three joined, and three against one.
	{"vanderbilt corp", "L-BILT", "one word split in three"},
	{"Vanderbilt Corporation", "L-BILT", "split in three, the legal form spelled out"},
	{"vandermolen corp", "", "two pieces of three pair, the third does not"},
	{"Abdel Rahman Ov Yusuf", "L-ABD", "three words joined against one"},
	{"Abd Ul Rahim Yusuf", "", "three words joined spelling another name"},
	{"Van Der Zandt", "L-ZANDT", "three query words against a name of one word"},
	{"Abd El Rahmanov Yusuf", "L-ABD", "three words joined against one, the first two as well"},
}

// labelledWorld is labelledIndexRecords with their index, built once.
func labelledWorld() *searched { return sharedWorld("labelled", labelledIndexRecords) }

func labelledIndexRecords() []*record.Record {
	recs := generated(600, 29)
	// Names of the same two particles make van and der common, so that a
	// name of one word must pair three query words to reach the threshold.
	for i := range 80 {
		recs = append(recs, &record.Record{ID: fmt.Sprintf("VDER%d", i), SourceID: "test", SourceType: "SANCTION", EntityType: "ENTITY",
			Name: "Van Der Kamp" + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	for _, s := range labelledRecords {
		recs = append(recs, &record.Record{ID: s.id, SourceID: "test", SourceType: "SANCTION", EntityType: s.et, Name: s.name})
	}
	return recs
}

func TestScoredLabelledPairRules(t *testing.T) {
	var ours []string
	for _, s := range labelledRecords {
		ours = append(ours, s.id)
	}
	checkRuleCases(t, labelledWorld().ix, ours, labelledCases)
}

// TestScoredLabelledPairRulesAgreeWithBrute: the index and the brute-force
// reference answer the cases alike at the fuzzy levels and thresholds of
// ruleCaseQueries.
func TestScoredLabelledPairRulesAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	w := labelledWorld()
	queries := ruleCaseQueries(labelledCases)
	if hits := scoredAgreesWithBrute(t, w.ix, w.recs, queries); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestSlashNamesAreNameStrings: the two names a slash parts are name
// strings of their own after every other, labelled by field and place,
// and the whole name stays; strict mode finds what it found before.
func TestSlashNamesAreNameStrings(t *testing.T) {
	r := &record.Record{ID: "q", EntityType: record.EntityEntity, Name: "Al-Qa'ida/Islamic Army", AliasNames: []string{"Nordic A/S", "MAKHTAB AL-KHIDAMAT/AL KIFAH"}}
	want := []NameString{
		{"name", "Al-Qa'ida/Islamic Army"},
		{"alias_names[0]", "Nordic A/S"},
		{"alias_names[1]", "MAKHTAB AL-KHIDAMAT/AL KIFAH"},
		{"name/1", "Al-Qa'ida"},
		{"name/2", "Islamic Army"},
		{"alias_names[1]/1", "MAKHTAB AL-KHIDAMAT"},
		{"alias_names[1]/2", "AL KIFAH"},
	}
	got := NameStrings(r)
	if len(got) != len(want) {
		t.Fatalf("name strings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("name string %d: %+v, want %+v", i, got[i], want[i])
		}
		if at, ok := nameStringAt(r, i); !ok || at != want[i] {
			t.Errorf("nameStringAt(%d) = %+v, want %+v", i, at, want[i])
		}
	}
	ix := NewIndex(append(generated(300, 31), r))
	res, err := ix.Search(query.Query{Kind: query.Any, Names: "Islamic Army", Fuzzy: 0, Match: query.Scored})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Record.ID != "q" || res.Hits[0].Reason.Field != "name/2" {
		t.Errorf("scored Islamic Army: %+v, %v; want a hit by name/2", res.Hits, err)
	}
	for _, q := range []string{"Islamic Army", "al qaida islamic army", "al kifah"} {
		res, err := ix.Search(query.Query{Kind: query.Any, Names: q})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Record.ID != "q" {
			t.Errorf("strict %q: %+v, %v; want the record", q, res.Hits, err)
		}
	}
}

// TestThreeWayChangeSetEqualsUnindexed: a change set's scorer pairs one
// word with three and three with one as ScoreUnindexed does, the record
// words known to the index or not.
func TestThreeWayChangeSetEqualsUnindexed(t *testing.T) {
	w := labelledWorld()
	recs, ix := w.recs, w.ix
	changed := append([]*record.Record{}, recs[len(recs)-len(labelledRecords):]...)
	changed = append(changed,
		&record.Record{ID: "N1", SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityEntity, Name: "van der zandt corp"},
		&record.Record{ID: "N2", SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityEntity, Name: "Vanderzandt Holdings"})
	var qs []query.Query
	for _, q := range []string{"vanderbilt corp", "Van Der Bilt Corp", "vanderzandt corp", "Van Der Zandt Holdings", "Abd El Rahmanov Yusuf"} {
		for f := 0; f <= 2; f++ {
			qs = append(qs, query.Query{Kind: query.Any, Names: q, Fuzzy: f, Match: query.Scored, MinScore: 0.2})
		}
	}
	if _, hits := compareChangeSet(t, ix, changed, qs); hits < 10 {
		t.Fatalf("%d hits: the comparison proves little", hits)
	}
}
