package engine

import "testing"

// TestScriptMemoAgreesWithScriptCost asks a memo about names in the
// query's script and others, each twice, for two queries in turn, and
// checks every answer against scriptCost: a memo that kept another
// query's answers would give the first query's verdict on 刘丽华.
func TestScriptMemoAgreesWithScriptCost(t *testing.T) {
	names := []string{`ООО "Рубин"`, `ООО "РУБИН"`, "ООО Рубикон", "Rubin LLC", "刘丽华", "邱丽华", "Иванов Иван", ""}
	var m scriptMemo
	for _, q := range []string{`ООО "РУБИН"`, "邱丽华", "刘丽华", "Иванов Иван"} {
		qs := queryScript(q)
		for range 2 {
			for _, n := range names {
				gc, gd := m.scriptCost(qs, n)
				wc, wd := scriptCost(qs, n)
				if gc != wc || gd != wd {
					t.Errorf("query %q, name %q: memo %v %v, scriptCost %v %v", q, n, gc, gd, wc, wd)
				}
			}
		}
		m.forget()
	}
	var m2 scriptMemo // one memo asked about two queries without forget
	for _, q := range []string{"邱丽华", "刘丽华"} {
		qs := queryScript(q)
		gc, gd := m2.scriptCost(qs, "刘丽华")
		if wc, wd := scriptCost(qs, "刘丽华"); gc != wc || gd != wd {
			t.Errorf("query %q after another: memo %v %v, scriptCost %v %v", q, gc, gd, wc, wd)
		}
	}
}
