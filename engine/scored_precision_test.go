package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// precisionRecords are listed people whose names have near neighbours
// that are other people: the pairs of precisionCases.
var precisionRecords = []struct{ id, name string }{
	{"P-LIU", "刘丽华"},
	{"P-ZHOU", "ZHOU Yan"},
	{"P-LINHY", "林海燕"},
	{"P-CHAN", "CHAN Tai Man"},
	{"P-JASON", "Jason Miller"},
	{"P-TONY", "Tony Smith"},
	{"P-MICHAEL", "SMITH, Michael"},
	{"P-DANIEL", "Daniel Lopes"},
	{"P-ANJIHOON", "An Ji-hoon"},
	{"P-KIMDH", "Kim Dong-hyun"},
	{"P-SODH", "So Dong-hyun"},
	{"P-PARK", "Park Chol Su"},
	{"P-PASECHNIK", "PASECHNIK, Mikhail Mikhaylovich"},
	{"P-HADDAD", "Muhammad Haddad"},
	{"P-VAKILI", "MIRVAKILI, Aliakbar"},
	{"P-ACME", "Acme Trading LLC"},
	{"P-KIMDHH", "김동현"},
	{"P-ANJHH", "안지훈"},
	{"P-PARKH", "박철수"},
	{"P-ZAHIR", "زاهر حداد"},
	{"P-ZUEV", "Зуев Игорь Петрович"},
	// Real pairs of the labelled name cases, per script.
	{"P-XI", "习近平"},
	{"P-KIMJU", "김정은"},
	{"P-LEEJM", "이재명"},
	{"P-TAKAICHI", "高市早苗"},
	{"P-PUTIN", "Владимир Путин"},
	{"P-OJN", "O Jong Nam"},
}

// precisionCases pin the rules of scored mode on real pairs, per script:
// each query finds its record at the default threshold, or (want "")
// finds none of precisionRecords.
var precisionCases = []ruleCase{
	// Rule 1: Han and Hangul compare their own units; a different family
	// name character is another person; romanised syllables pair by table.
	{"刘丽华", "P-LIU", "the same characters"},
	{"Liu Lihua", "P-LIU", "pinyin against Han"},
	{"邱丽华", "", "another family name character (qiu, liu)"},
	{"侯艳", "", "hou is not zhou"},
	{"林海兰", "", "hailan is not haiyan"},
	{"Chen Tai Man", "P-CHAN", "Chan is the Cantonese Chen (syllable table)"},
	{"안현지", "", "An Hyon-ji is not An Ji-hoon"},
	{"김성훈", "", "Kim Song-hun is not Kim Dong-hyun"},
	{"서정훈", "", "So Jong-hun is not So Dong-hyun"},
	{"박철수", "P-PARK", "pak is park (Korean family name table)"},
	{"Pak Chol Su", "P-PARK", "pak is park"},
	// Same script on both sides: the characters, syllable blocks and
	// letters themselves, not only their romanisation.
	{"柳丽华", "", "柳 and 刘 are both liu, another family"},
	{"刘丽花", "", "花 and 华 are both hua, another given name"},
	{"김성훈", "", "another given name in Hangul (P-KIMDHH)"},
	{"안현지", "", "An Hyeon-ji is not 안지훈"},
	{"최철수", "", "another family name block (choe, pak)"},
	{"박철수", "P-PARKH", "the same syllable blocks"},
	{"남정우", "", "Nam Jong-u is not O Jong-nam: u is a syllable, not an initial"},
	{"오정남", "P-OJN", "Hangul against its romanisation"},
	{"ظاهر حداد", "", "ظ and ز both romanise z: another name"},
	{"زاهر حداد", "P-ZAHIR", "the same letters"},
	{"Zahir Haddad", "P-ZAHIR", "Latin against Arabic still pairs"},
	{"Игор Зуев", "P-ZUEV", "the soft sign dropped, a patronymic missing"},
	{"Жуев Игорь", "", "ж is not з"},
	// Real pairs of the labelled name cases (match or not as labelled).
	{"习近平", "P-XI", "the same characters"},
	{"Xi Jinping", "P-XI", "pinyin against Han"},
	{"习近朋", "", "another given-name character (peng, ping)"},
	{"김정은", "P-KIMJU", "the same syllable blocks"},
	{"김종은", "", "another given-name block (jong, jeong)"},
	{"이재형", "", "another given-name block (hyeong, myeong)"},
	{"高石早苗", "", "石 and 市 both romanise shi: another family"},
	{"高市早苗", "P-TAKAICHI", "the same characters"},
	{"Владимир Пулин", "P-PUTIN", "one letter of the family name (labelled STRONG)"},
	// Rule 2: a given name of the table pairs by its variants only.
	{"Mason Miller", "", "Mason is not Jason"},
	{"Tonya Smith", "", "Tonya is not Tony"},
	{"Michaela Smith", "", "Michaela is not Michael"},
	{"Daniela Lopes", "", "Daniela is not Daniel"},
	{"Jason Millar", "P-JASON", "a typing error in the family name"},
	{"Jasonn Miller", "P-JASON", "a typing error in the given name"},
	{"Michael Smyth", "P-MICHAEL", "a transliteration of the family name"},
	// What scored mode found before stays found.
	{"Mikhail Mikhailovich Pasichnyk", "P-PASECHNIK", "transliteration variants"},
	{"Михаил Михайлович Пасечник", "P-PASECHNIK", "Cyrillic against Latin"},
	{"محمد حداد", "P-HADDAD", "Arabic against Latin"},
	{"Mohammed Hadad", "P-HADDAD", "given-name variant and a doubled letter"},
	{"Ali Akbar Mir Vakili", "P-VAKILI", "joined words"},
	{"Acme Trading Ltd", "P-ACME", "another legal form"},
	{"Mikhail Pasechnik", "P-PASECHNIK", "a patronymic the query lacks"},
}

// precisionWorld is precisionIndexRecords with their index, built once.
func precisionWorld() *searched { return sharedWorld("precision", precisionIndexRecords) }

func precisionIndexRecords() []*record.Record {
	recs := generated(600, 23)
	for _, p := range precisionRecords {
		r := &record.Record{ID: p.id, SourceID: "test", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: p.name}
		if p.id == "P-ACME" {
			r.EntityType = "ENTITY"
		}
		recs = append(recs, r)
	}
	return recs
}

// ruleCase is a scored query and the record of a rule's table it must
// find, or "" when it must find none of them.
type ruleCase struct{ query, want, why string }

// ruleCaseQueries are the checks a rule table's differential asks the
// index and the brute-force reference: each case at two of the three
// fuzzy levels, another left out in turn, each level at the low or the
// default threshold in turn; with AMLSCREEN_LONG_TESTS=1 every case at
// every level and both thresholds.
func ruleCaseQueries(cases []ruleCase) []query.Query {
	var queries []query.Query
	for i, tc := range cases {
		for f := 0; f <= 2; f++ {
			for k, min := range []float64{0.2, 0} {
				if longTests() || f != i%3 && (i+f)%2 == k {
					queries = append(queries, query.Query{Kind: query.Any, Names: tc.query, Fuzzy: f, Match: query.Scored, MinScore: min, Limit: 50})
				}
			}
		}
	}
	return queries
}

func TestScoredPrecisionRules(t *testing.T) {
	var ours []string
	for _, p := range precisionRecords {
		ours = append(ours, p.id)
	}
	checkRuleCases(t, precisionWorld().ix, ours, precisionCases)
}

// checkRuleCases searches ix (scored, fuzzy 2, default threshold) for
// each case and fails when its record is missing, or when a case that
// wants none hits any of the table's records (ours).
func checkRuleCases(t *testing.T, ix *Index, ours []string, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		res, err := ix.Search(query.Query{Kind: query.Any, Names: tc.query, Fuzzy: 2, Match: query.Scored, Limit: 50})
		if err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		var got []string
		found := false
		for _, h := range res.Hits {
			if slices.Contains(ours, h.Record.ID) {
				got = append(got, fmt.Sprintf("%s %.3f %s", h.Record.ID, h.Score, h.Reason.Summary()))
			}
			found = found || h.Record.ID == tc.want
		}
		switch {
		case tc.want != "" && !found:
			t.Errorf("%q (%s): %s not found; hits %v", tc.query, tc.why, tc.want, got)
		case tc.want == "" && len(got) > 0:
			t.Errorf("%q (%s): want none of the table's records, got %v", tc.query, tc.why, got)
		}
	}
}

// TestScoredPrecisionRulesAgreeWithBrute: the index and the brute-force
// reference answer the rule cases alike at the fuzzy levels and
// thresholds of ruleCaseQueries, a low one among them, where the pairs
// the rules forbid would show.
func TestScoredPrecisionRulesAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	w := precisionWorld()
	queries := ruleCaseQueries(precisionCases)
	if hits := scoredAgreesWithBrute(t, w.ix, w.recs, queries); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestRelateByWhatAWordIs pins the word rules of relate: romanised
// syllables and given names of the table pair only by the table, other
// words by edits as before.
func TestRelateByWhatAWordIs(t *testing.T) {
	for _, tc := range []struct {
		q, t string
		want bool
	}{
		{"jason", "mason", false},
		{"tony", "tonya", false},
		{"michael", "michaela", false},
		{"daniel", "daniela", false},
		{"valentin", "valentina", true}, // not in the table: left to edits
		{"hou", "zhou", false},
		{"qiu", "liu", false},
		{"hailan", "haiyan", false},
		{"hyok", "hyon", false},
		{"hyon", "hoon", false},
		{"chol", "chul", true},
		{"myong", "myung", true},
		{"song", "dong", false},
		{"pak", "park", true},
		{"chen", "chan", true},
		{"mikhaylovich", "mikhailovich", true},
		{"pasichnyk", "pasechnik", true},
		{"smith", "smyth", true},
		{"jasonn", "jason", true},
		{"hassan", "hasan", true},
	} {
		q, r := newTokInfo(tc.q), newTokInfo(tc.t)
		if _, ok := relate(&q, &r, 2); ok != tc.want {
			t.Errorf("relate(%s, %s) = %v, want %v", tc.q, tc.t, ok, tc.want)
		}
	}
}

// TestScoredInScriptEverywhere: ScoreRecord and ScoreUnindexed compare in
// the shared script as Search does, and the reason says what it took off.
func TestScoredInScriptEverywhere(t *testing.T) {
	w := precisionWorld()
	recs, ix := w.recs, w.ix
	var liu *record.Record
	for _, r := range recs {
		if r.ID == "P-LIU" {
			liu = r
		}
	}
	for _, tc := range []struct {
		query string
		hit   bool
	}{
		{"刘丽华", true},
		{"柳丽华", false},
		{"刘丽花", false},
	} {
		q := query.Query{Kind: query.Any, Names: tc.query, Fuzzy: 2, Match: query.Scored}
		_, ok, err := ix.ScoreRecord(q, "P-LIU")
		if err != nil || ok != tc.hit {
			t.Errorf("ScoreRecord(%q) = %v, %v; want %v", tc.query, ok, err, tc.hit)
		}
		_, ok, err = ix.ScoreUnindexed(q, liu)
		if err != nil || ok != tc.hit {
			t.Errorf("ScoreUnindexed(%q) = %v, %v; want %v", tc.query, ok, err, tc.hit)
		}
		q.MinScore = 0.01
		h, ok, err := ix.ScoreRecord(q, "P-LIU")
		if err != nil || !ok {
			t.Fatalf("ScoreRecord(%q) at 0.01 = %v, %v", tc.query, ok, err)
		}
		if got := h.Reason.Script < 0; got == tc.hit {
			t.Errorf("%q: reason's script term %v, want it only where the characters differ", tc.query, h.Reason.Script)
		}
	}
}

// TestCommonNamesWeighLittle: Kim weighs what a fifth of Korea bearing it
// allows, however rare it is in the list; Soleimani what the list gives.
func TestCommonNamesWeighLittle(t *testing.T) {
	recs := generated(600, 23)
	for _, n := range []struct{ id, name string }{{"W-KIM", "Kim Dong-hyun"}, {"W-SOL", "SOLEIMANI, Qasem"}} {
		recs = append(recs, &record.Record{ID: n.id, SourceID: "test", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: n.name})
	}
	ix := NewIndex(recs)
	weight := func(name, word string) float64 {
		res, err := ix.Search(query.Query{Kind: query.Any, Names: name, Fuzzy: 2, Match: query.Scored, MinScore: 0.01, Limit: 5})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("%q: %v, no hit", name, err)
		}
		for _, p := range res.Hits[0].Reason.Pairs {
			if p.Query == word {
				return p.Weight
			}
		}
		t.Fatalf("%q: no pair of %s in %+v", name, word, res.Hits[0].Reason)
		return 0
	}
	if w, want := weight("Kim Dong-hyun", "kim"), round4(-math.Log(0.215)+shareWeightFloor); w != want {
		t.Errorf("kim weighs %v, want %v (ln 1/0.215 + %v)", w, want, shareWeightFloor)
	}
	if w := weight("Qasem Soleimani", "soleimani"); w < 5 {
		t.Errorf("soleimani weighs %v, want the list's rarity (over 5)", w)
	}
}

// TestRecordExtraWords: when every query word is paired, a listed name's
// second word left over costs RecordExtra on top of its own miss cost; the
// first (a middle name the query leaves out) only its miss cost.
func TestRecordExtraWords(t *testing.T) {
	logit := func(n int) float64 {
		sh := nameShape{m: 2, n: n, lambda: 5, qMiss: []float64{1, 1}}
		for range n {
			sh.kMiss = append(sh.kMiss, 0.3)
		}
		edges := []edge{
			{q0: 0, q1: -1, k0: 0, k1: -1, kind: kindExact, sim: 1, value: 4},
			{q0: 1, q1: -1, k0: int8(n - 1), k1: -1, kind: kindExact, sim: 1, value: 4},
		}
		return assignmentLogit(&sh, edges).logit
	}
	if d := logit(3) - logit(4); math.Abs(d-(0.3+model.RecordExtra)) > 1e-9 {
		t.Errorf("a second extra word costs %v, want %v", d, 0.3+model.RecordExtra)
	}
	if got, want := logit(3), 8-0.3+model.Intercept-5; math.Abs(got-want) > 1e-9 {
		t.Errorf("one extra word: logit %v, want %v (its miss cost only)", got, want)
	}
}

// TestRecordExtraWordsOfAPerson: an individual's name with one word more
// than a complete query of two words or more earns NearComplete of the
// completeness term; a company's does not, nor a name with two words
// more, nor a query with a word unpaired.
func TestRecordExtraWordsOfAPerson(t *testing.T) {
	const lambda = 5.0
	logit := func(person bool, m, n int) float64 {
		sh := nameShape{m: m, n: n, lambda: lambda, person: person}
		for range m {
			sh.qMiss = append(sh.qMiss, 1)
		}
		for range n {
			sh.kMiss = append(sh.kMiss, 0.3)
		}
		edges := []edge{
			{q0: 0, q1: -1, k0: 0, k1: -1, kind: kindExact, sim: 1, value: 4},
			{q0: 1, q1: -1, k0: int8(n - 1), k1: -1, kind: kindExact, sim: 1, value: 4},
		}
		return assignmentLogit(&sh, edges).logit
	}
	for _, c := range []struct {
		why  string
		m, n int
		gain float64
	}{
		{"a middle name left out", 2, 3, model.NearComplete * lambda},
		{"two words left out", 2, 4, 0},
		{"a query word unpaired", 3, 3, model.Substitute * 0.3}, // a company's swapped word (TestSubstitutedWord)
	} {
		if d := logit(true, c.m, c.n) - logit(false, c.m, c.n); math.Abs(d-c.gain) > 1e-9 {
			t.Errorf("%s: a person's name gains %v over a company's, want %v", c.why, d, c.gain)
		}
	}
}

// TestScoredMiddleNameLeftOut: real names of the OFAC list asked without
// their middle name are found at the default threshold below the score
// of the full name, in a list of generated people; a company's name with
// a word more is not lifted, nor a Chinese or Korean name with a syllable
// more, which is another given name, not a middle name.
func TestScoredMiddleNameLeftOut(t *testing.T) {
	recs := generated(600, 23)
	for _, n := range []struct{ id, et, name string }{
		{"M-CHAGH", "INDIVIDUAL", "CHAGHAZARDY, Mohammad Kazem"},
		{"M-ISLAMB", "INDIVIDUAL", "ISLAMBOULI, Mohammad Shawqi"},
		{"M-SABAHI", "INDIVIDUAL", "SABAHI, Mohammed Reza"},
		{"M-PACIFIC", "ENTITY", "INTERNATIONAL PACIFIC TRADING"},
		{"M-SUN", "INDIVIDUAL", "SUN, Shi Mei"},
		{"M-KIM", "INDIVIDUAL", "KIM, Yong Chol"},
	} {
		recs = append(recs, &record.Record{ID: n.id, SourceID: "test", SourceType: "SANCTION", EntityType: n.et, Name: n.name})
	}
	ix := NewIndex(recs)
	score := func(name, id string) Hit {
		h, ok, err := ix.ScoreRecord(query.Query{Kind: query.Any, Names: name, Fuzzy: 2, Match: query.Scored, MinScore: 0.01}, id)
		if err != nil || !ok {
			t.Fatalf("%q against %s: %v, no score", name, id, err)
		}
		return h
	}
	for _, c := range []struct{ query, id string }{
		{"Mohammad Chaghazardy", "M-CHAGH"},
		{"Mohammad Islambouli", "M-ISLAMB"},
		{"Mohammed Sabahi", "M-SABAHI"}, // reza is re-za in pinyin, but no syllable
	} {
		if h := score(c.query, c.id); h.Score < query.DefaultMinScore || h.Score >= 0.99 || h.Reason.Complete <= 0 {
			t.Errorf("%q against %s scores %v (completeness %v), want at least %v and below the full name, with a share of the completeness term",
				c.query, c.id, h.Score, h.Reason.Complete, query.DefaultMinScore)
		}
	}
	for _, c := range []struct{ query, id, why string }{
		{"Pacific Trading", "M-PACIFIC", "a company's name with a word more"},
		{"石梅", "M-SUN", "a Chinese name less a syllable (the family name)"},
		{"Kim Chol", "M-KIM", "a Korean name less a syllable of the given name"},
	} {
		if h := score(c.query, c.id); h.Reason.Complete != 0 {
			t.Errorf("%q against %s, %s: completeness %v, want 0", c.query, c.id, c.why, h.Reason.Complete)
		}
	}
}
