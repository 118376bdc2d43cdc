package engine

import (
	"github.com/amlscreen/amlscreen/normalize"
)

// Scored mode compares romanised words, which is what a Han name and its
// pinyin, or an Arabic name and its Latin spelling, share. Two names in
// one script share more: their own letters, which romanisation merges
// (刘 and 柳 are both liu; سليم and صليم both salim). scriptPenalty checks
// a pairing of two such names in their script, after the romanised
// pairing is chosen, and only ever lowers its logit, so every bound of the
// candidate search (which reads romanised words) still holds.

// Costs of what the comparison in the shared script finds.
const (
	// scriptFamilyCost: Han, Hangul or kana personal names (two to four
	// characters) whose family name differs are two families: the first
	// character, or either of the first two of a four-character name
	// (高市 of 高市早苗, 欧阳 of 欧阳修明).
	scriptFamilyCost = 8.0
	// scriptUnitCost: each unit (character, or word of an alphabet)
	// that romanises as its partner does but is written otherwise.
	scriptUnitCost = 3.0
)

// queryScript is the query text in its script, or nil when it is not
// written in one script that Fold romanises.
func queryScript(text string) *normalize.ScriptName {
	n := normalize.InScript(text)
	if n.Script == normalize.NoScript {
		return nil
	}
	return &n
}

// scriptCost is what comparing q and name in the script both are written
// in finds against their romanised pairing: for Han, Hangul and kana, a
// different family-name character (personal names of two to four
// characters, the family name being the first character, or the first
// two of four) and each character at the same place that differs but
// romanises alike; for an alphabet, each word of q without an equal word
// of name that romanises as one of them does. It is 0 when the two are
// not written in one script, and 0 when they agree.
func scriptCost(q *normalize.ScriptName, name string) (cost float64, differs bool) {
	if q == nil {
		return 0, false
	}
	r := normalize.InScript(name)
	if r.Script != q.Script {
		return 0, false
	}
	qu, ru := q.Units, r.Units
	if q.Syllabic() {
		personal := len(qu) >= 2 && len(qu) <= 4 && len(ru) >= 2 && len(ru) <= 4
		for i := 0; i < min(len(qu), len(ru)); i++ {
			if qu[i] == ru[i] {
				continue
			}
			switch {
			case personal && i < max(1, min(len(qu), len(ru))/2):
				cost += scriptFamilyCost
				differs = true
			case normalize.SameRomanisation(qu[i], ru[i]):
				cost += scriptUnitCost
				differs = true
			}
		}
		return cost, differs
	}
	used := make([]bool, len(ru))
	var open []string
	for _, w := range qu {
		found := false
		for k, x := range ru {
			if !used[k] && x == w {
				used[k], found = true, true
				break
			}
		}
		if !found {
			open = append(open, w)
		}
	}
	for _, w := range open {
		for k, x := range ru {
			if !used[k] && normalize.SameRomanisation(w, x) {
				used[k] = true
				cost += scriptUnitCost
				differs = true
				break
			}
		}
	}
	return cost, differs
}

// inScript returns ev lowered by what comparing the query (qs) and the
// name string's text in their shared script finds: when they differ
// there, the pairing is no complete match (it loses the completeness
// term) and pays scriptCost. ev.script records what was taken off.
func inScript(qs *normalize.ScriptName, name string, ev evaluation) evaluation {
	cost, differs := scriptCost(qs, name)
	if !differs {
		return ev
	}
	ev.script = -(cost + ev.bonus)
	ev.logit -= cost + ev.bonus
	ev.bonus = 0
	ev.complete, ev.exact = false, false
	return ev
}

// syllabicQuery reports whether the query text is written in Han, Hangul
// or kana: its romanisation writes every syllable as a word, so a word of
// one letter is a syllable (남정우: nam jong u), never an initial.
func syllabicQuery(text string) bool {
	qs := queryScript(text)
	return qs != nil && qs.Syllabic()
}

// arabicQuery reports whether the query text is written in Arabic script:
// its romanised words pair with Latin spellings by arabicSim
// (tokInfo.arabic).
func arabicQuery(text string) bool {
	qs := queryScript(text)
	return qs != nil && qs.Script == normalize.ArabicScript
}

// newQueryTokInfo is newTokInfo for a word of the query; in a query
// written in Han, Hangul or kana (syllabic) a word of one letter is a
// syllable and not optional.
func newQueryTokInfo(s string, syllabic bool) tokInfo {
	t := newTokInfo(s)
	if syllabic && !t.legal {
		t.optional = false
	}
	return t
}
