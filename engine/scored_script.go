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
	return applyScript(ev, cost, differs)
}

// applyScript is ev after a comparison in the shared script that cost
// cost and found the names different (differs), as inScript applies it.
func applyScript(ev evaluation, cost float64, differs bool) evaluation {
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

// scriptMemo keeps, for one query script qs, scriptCost of each name text
// asked about: a check of a name in Cyrillic with a thousand hits compared
// the same listed texts in their script once to choose each record's best
// name string and again to explain it, and the copies of a common name
// every time.
type scriptMemo struct {
	qs   *normalize.ScriptName
	cost map[string]scriptVerdict
}

// scriptVerdict is what scriptCost returned for one name text.
type scriptVerdict struct {
	cost    float64
	differs bool
}

// maxKeptScriptTexts is the most texts a pooled memo's map is cleared
// after rather than made again.
const maxKeptScriptTexts = 1024

// scriptCost is scriptCost(qs, name), read from the memo when name was
// asked about for qs before. A memo of another qs forgets its texts.
func (m *scriptMemo) scriptCost(qs *normalize.ScriptName, name string) (float64, bool) {
	if qs == nil {
		return 0, false
	}
	if m.qs != qs || m.cost == nil {
		if m.cost == nil || len(m.cost) > maxKeptScriptTexts {
			m.cost = make(map[string]scriptVerdict)
		} else {
			clear(m.cost)
		}
		m.qs = qs
	}
	if v, ok := m.cost[name]; ok {
		return v.cost, v.differs
	}
	c, d := scriptCost(qs, name)
	m.cost[name] = scriptVerdict{c, d}
	return c, d
}

// inScript is inScript(qs, name, ev) with scriptCost read from the memo.
func (m *scriptMemo) inScript(qs *normalize.ScriptName, name string, ev evaluation) evaluation {
	cost, differs := m.scriptCost(qs, name)
	return applyScript(ev, cost, differs)
}

// forget drops the memo's texts at the end of a check, so that a pooled
// scratch keeps no record's text alive.
func (m *scriptMemo) forget() {
	if len(m.cost) > maxKeptScriptTexts {
		m.cost = nil
	} else {
		clear(m.cost)
	}
	m.qs = nil
}
