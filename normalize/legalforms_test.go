package normalize

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonLegal tokenises s and canonicalises its legal forms with the
// embedded table, as RecordName and QueryVariants do for entities.
func canonLegal(s string) []string {
	return LegalForms().Canonicalize(Tokenize(s).Words)
}

// legalToken returns the single canonical token s rewrites to, or "" when s
// is not exactly one legal form.
func legalToken(s string) string {
	got := canonLegal(s)
	if len(got) != 1 || !IsLegalForm(got[0]) {
		return ""
	}
	return got[0]
}

func TestLegalFormsTableParses(t *testing.T) {
	tab, err := ParseLegalForms(legalFormsData)
	if err != nil {
		t.Fatalf("ParseLegalForms(embedded table): %v", err)
	}
	classes := tab.Classes()
	if len(classes) < 150 {
		t.Errorf("embedded table has %d classes, want at least 150", len(classes))
	}
	seen := make(map[string]bool)
	for _, c := range classes {
		if !IsLegalForm(c) || len(c) <= len(LegalMark) {
			t.Errorf("class token %q is not a canonical legal-form token", c)
		}
		if seen[c] {
			t.Errorf("class token %q appears twice", c)
		}
		seen[c] = true
	}
	// LegalForms must serve the same table without panicking.
	if got := len(LegalForms().Classes()); got != len(classes) {
		t.Errorf("LegalForms() has %d classes, ParseLegalForms %d", got, len(classes))
	}
}

// TestLegalFormEquivalences pins down spellings that must meet: each group
// rewrites to one and the same canonical token.
func TestLegalFormEquivalences(t *testing.T) {
	groups := []struct {
		want      string
		spellings []string
	}{
		{"~llc", []string{"LLC", "L.L.C.", "l.l.c", "Limited Liability Company", "LIMITED LIABILITY CO.", "Ltd. Liability Co"}},
		{"~ltd", []string{"Ltd", "Ltd.", "LIMITED", "Limited Company", "Co., Ltd.", "CO.,LTD", "Co.Ltd", "Company Limited", "Pty Ltd", "(Pvt) Ltd", "Pte. Ltd.", "Limitada", "Ltda.", "Ltd. Şti.", "有限公司", "有限责任公司"}},
		{"~plc", []string{"PLC", "P.L.C.", "plc", "Public Limited Company", "Public Ltd. Co."}},
		{"~inc", []string{"Inc", "Inc.", "INCORPORATED", "Incorporée"}},
		{"~corp", []string{"Corp", "Corp.", "Corporation"}},
		{"~co", []string{"Co", "Co.", "Company"}},
		{"~llp", []string{"LLP", "L.L.P.", "Limited Liability Partnership"}},
		{"~lp", []string{"LP", "L.P.", "Limited Partnership"}},
		{"~gmbh", []string{"GmbH", "G.m.b.H.", "Ges.m.b.H.", "mbH", "Gesellschaft mit beschränkter Haftung", "GESELLSCHAFT MIT BESCHRAENKTER HAFTUNG", "Gesellschaft mbH"}},
		{"~gmbh_co_kg", []string{"GmbH & Co. KG", "GmbH & Co KG", "GmbH und Co. KG", "mbH & Co. KG"}},
		{"~ag", []string{"AG", "A.G.", "Aktiengesellschaft"}},
		{"~kg", []string{"KG", "K.G.", "Kommanditgesellschaft"}},
		{"~ev", []string{"e.V.", "e. V.", "eingetragener Verein"}},
		{"~ug", []string{"UG", "UG (haftungsbeschränkt)", "Unternehmergesellschaft"}},
		{"~sa", []string{"SA", "S.A.", "S/A", "Société Anonyme", "Sociedad Anónima", "sociedade anônima", "Spółka Akcyjna", "Α.Ε.", "Ανώνυμη Εταιρεία"}},
		{"~sarl", []string{"SARL", "S.A.R.L.", "S.à r.l.", "Société à responsabilité limitée"}},
		{"~sas", []string{"SAS", "S.A.S.", "Société par actions simplifiée", "Sociedad por Acciones Simplificada"}},
		{"~snc", []string{"SNC", "S.N.C.", "Société en nom collectif", "Società in nome collettivo"}},
		{"~srl", []string{"SRL", "S.R.L.", "S.r.l.", "S.L.", "S. de R.L.", "Sociedad de Responsabilidad Limitada", "Società a responsabilità limitata", "Societate cu răspundere limitată"}},
		{"~sacv", []string{"S.A. de C.V.", "SA de CV", "S.A. DE C.V.", "Sociedad Anónima de Capital Variable"}},
		{"~srlcv", []string{"S. de R.L. de C.V.", "S DE RL DE CV", "Sociedad de Responsabilidad Limitada de Capital Variable"}},
		{"~spa", []string{"S.p.A.", "SpA", "Società per Azioni"}},
		{"~bv", []string{"B.V.", "BV", "Besloten Vennootschap"}},
		{"~nv", []string{"N.V.", "NV", "Naamloze Vennootschap"}},
		{"~as", []string{"AS", "A/S", "a.s.", "Aksjeselskap", "Aktieselskab", "A.Ş.", "Anonim Şirketi", "akciová společnost"}},
		{"~oy", []string{"Oy", "Osakeyhtiö"}},
		{"~oyj", []string{"Oyj", "Julkinen osakeyhtiö"}},
		{"~ehf", []string{"ehf.", "Einkahlutafélag"}},
		{"~jsc", []string{"JSC", "J.S.C.", "Joint Stock Company", "Joint-Stock Company", "AO", "АО", "А.О.", "Акционерное общество", "aktsionernoye obshchestvo", "Акціонерне товариство"}},
		{"~pjsc", []string{"PJSC", "Public Joint Stock Company", "PAO", "ПАО", "Публичное акционерное общество", "publichnoye aktsionernoye obshchestvo", "ش.م.ع"}},
		{"~zao", []string{"ZAO", "ЗАО", "CJSC", "Closed Joint Stock Company", "Закрытое акционерное общество", "zakrytoye aktsionernoye obshchestvo"}},
		{"~oao", []string{"OAO", "ОАО", "OJSC", "Open Joint Stock Company", "Открытое акционерное общество", "otkrytoye aktsionernoye obshchestvo"}},
		{"~ooo", []string{"OOO", "ООО", "О.О.О.", "Общество с ограниченной ответственностью", "ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ", "obshchestvo s ogranichennoy otvetstvennostyu", "Obshchestvo s ogranichennoj otvetstvennost'yu", "ТОВ", "Товариство з обмеженою відповідальністю"}},
		{"~ip", []string{"ИП", "IP", "Индивидуальный предприниматель"}},
		{"~too", []string{"ТОО", "TOO", "Товарищество с ограниченной ответственностью"}},
		{"~fgup", []string{"ФГУП", "FGUP", "Федеральное государственное унитарное предприятие"}},
		{"~spzoo", []string{"Sp. z o.o.", "sp. z o. o.", "Sp z oo", "spółka z ograniczoną odpowiedzialnością", "SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA"}},
		{"~sro", []string{"s.r.o.", "spol. s r.o.", "Společnost s ručením omezeným"}},
		{"~doo", []string{"d.o.o.", "д.о.о.", "Društvo s ograničenom odgovornošću"}},
		{"~kft", []string{"Kft.", "KFT", "Korlátolt Felelősségű Társaság"}},
		{"~kk", []string{"株式会社", "Kabushiki Kaisha", "Kabushiki Gaisha", "K.K.", "KK"}},
		{"~yk", []string{"有限会社", "Yugen Kaisha", "Y.K."}},
		{"~gk", []string{"合同会社", "Godo Kaisha", "G.K."}},
		{"~gufen", []string{"股份有限公司", "Gufen Youxian Gongsi"}},
		{"~jusik", []string{"주식회사", "Jusik Hoesa"}},
		{"~fze", []string{"FZE", "F.Z.E.", "Free Zone Establishment"}},
		{"~fzco", []string{"FZCO", "FZ-LLC", "Free Zone Company"}},
		{"~dhmm", []string{"ذ.م.م", "W.L.L.", "WLL", "Sharikat dhat mas'uliyya mahduda", "شركة ذات مسؤولية محدودة"}},
		{"~sal", []string{"S.A.L.", "SAL", "ش.م.ل", "Société Anonyme Libanaise"}},
		{"~spc", []string{"SPC", "S.P.C.", "Single Person Company"}},
		{"~ibc", []string{"IBC", "International Business Company"}},
		{"~sdn_bhd", []string{"Sdn Bhd", "Sdn. Bhd.", "Sendirian Berhad"}},
		{"~pt", []string{"PT", "P.T.", "Perseroan Terbatas"}},
	}
	for _, g := range groups {
		for _, s := range g.spellings {
			got := canonLegal(s)
			if len(got) != 1 || got[0] != g.want {
				t.Errorf("%q canonicalises to %q, want [%s]", s, got, g.want)
			}
		}
	}
}

// TestLegalFormDistinctions pins down forms that a loose grouping would
// merge but that are different legal forms for screening.
func TestLegalFormDistinctions(t *testing.T) {
	pairs := [][2]string{
		{"LLC", "OOO"},
		{"Limited Liability Company", "Общество с ограниченной ответственностью"},
		{"LLC", "GmbH"},
		{"LLC", "Ltd"},
		{"JSC", "PJSC"},
		{"АО", "ПАО"},
		{"JSC", "CJSC"},
		{"OAO", "ZAO"},
		{"PJSC", "PrJSC"},
		{"GmbH", "AG"},
		{"GmbH", "GmbH & Co. KG"},
		{"KG", "KGaA"},
		{"Ltd", "PLC"},
		{"Ltd", "LLP"},
		{"LP", "LLP"},
		{"Inc", "Corp"},
		{"SA", "SAS"},
		{"SAS", "SASU"},
		{"SA", "S.A. de C.V."},
		{"SRL", "S. de R.L. de C.V."},
		{"SARL", "SRL"},
		{"S.p.A.", "S.r.l."},
		{"BV", "NV"},
		{"AS", "ASA"},
		{"AB", "Publikt aktiebolag"},
		{"Oy", "Oyj"},
		{"hf", "ehf"},
		{"Zrt.", "Nyrt."},
		{"株式会社", "有限会社"},
		{"有限公司", "股份有限公司"},
		{"FZE", "FZCO"},
		{"ООО", "ТОО"},
		{"ФГУП", "ГУП"},
		{"Sdn Bhd", "Bhd"},
	}
	for _, p := range pairs {
		a, b := legalToken(p[0]), legalToken(p[1])
		if a == "" || b == "" {
			t.Errorf("%q -> %q, %q -> %q: want both to be a legal form", p[0], a, p[1], b)
			continue
		}
		if a == b {
			t.Errorf("%q and %q both canonicalise to %s, want different classes", p[0], p[1], a)
		}
	}
}

// TestLegalFormsOrdinaryWords checks that words which occur in names are
// never rewritten: a legal-form token is matched exactly and a query made
// only of legal forms matches nothing, so a wrongly listed word would make
// names unfindable.
func TestLegalFormsOrdinaryWords(t *testing.T) {
	words := []string{
		"international", "group", "holding", "holdings", "trading", "bank",
		"foundation", "trust", "fund", "partnership", "cooperative",
		"association", "enterprise", "industries", "unlimited", "verein",
		"stiftung", "genossenschaft", "national", "general", "public",
		"private", "joint", "stock", "de", "del", "la", "y", "and", "und",
		"of", "the", "smith", "ivanov", "petrov", "al", "bin", "ibn", "abu",
		"el", "van", "von", "mohammed", "wang", "li", "yu", "na",
		"rt", "bt", "ee", "et", "ii", "jp", "spd", "chp", "pat", "vat",
		"at", "go", "da", "gu", "od", "sad", "gag", "sem", "ops", "psa", "teo",
	}
	for _, w := range words {
		got := canonLegal(w)
		if len(got) != 1 || got[0] != w {
			t.Errorf("ordinary word %q canonicalises to %q, want it unchanged", w, got)
		}
	}
}

// TestLegalFormsInNames checks rewriting inside whole names: the longest
// alias wins, name words around it are kept, Han and kana forms are split
// off the word they are written into.
func TestLegalFormsInNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ACME Holdings L.L.C.", []string{"acme", "holdings", "~llc"}},
		{"Acme International Trading Co., Ltd.", []string{"acme", "international", "trading", "~ltd"}},
		{"Acme Trading Company", []string{"acme", "trading", "~co"}},
		{"Bank of Moscow OAO", []string{"bank", "of", "moscow", "~oao"}},
		{"ООО «Ромашка»", []string{"~ooo", "romashka"}},
		{"Публичное акционерное общество «Газпром нефть»", []string{"~pjsc", "gazprom", "neft"}},
		{"Müller GmbH & Co. KG", []string{"muller", "~gmbh_co_kg"}},
		{"AB Volvo (publ)", []string{"~ab", "volvo", "~ab_publ"}},
		{"Petróleos Mexicanos, S.A. de C.V.", []string{"petroleos", "mexicanos", "~sacv"}},
		// Han, kana and Hangul legal forms are split off before the name
		// is romanised.
		{"株式会社トヨタ", []string{"~kk", "toyota"}},
		{"トヨタ自動車株式会社", []string{"toyota", "zidongche", "~kk"}},
		{"中国石油天然气股份有限公司", []string{"zhongguoshiyoutianranqi", "~gufen"}},
		{"华为技术有限公司", []string{"hua", "weijishu", "~ltd"}},
		{"삼성전자 주식회사", []string{"samsongjonja", "~jusik"}},
		{"삼성전자주식회사", []string{"samsongjonja", "~jusik"}},
		{"Toyota株式会社", []string{"toyota", "~kk"}},
		{"Emirates Trading FZE", []string{"emirates", "trading", "~fze"}},
		{"Gulf Star Free Zone Company", []string{"gulf", "star", "~fzco"}},
		{"Al Noor Trading W.L.L.", []string{"al", "noor", "trading", "~dhmm"}},
		{"John Smith", []string{"john", "smith"}},
	}
	for _, tt := range tests {
		if got := canonLegal(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("canonicalise %q = %q, want %q", tt.in, got, tt.want)
		}
	}
	// The Co., Ltd. choice: both spellings of a company meet.
	if a, b := canonLegal("Acme Co., Ltd."), canonLegal("ACME LIMITED"); !reflect.DeepEqual(a, b) {
		t.Errorf("Acme Co., Ltd. = %q, ACME LIMITED = %q, want equal", a, b)
	}
}

// TestLegalFormCoverage lists at least one form per region the table must
// cover; each must be recognised as exactly one legal form.
func TestLegalFormCoverage(t *testing.T) {
	regions := map[string][]string{
		"English":              {"LLC", "Ltd", "PLC", "Inc", "Corp", "LLP", "LP", "Co"},
		"German":               {"GmbH", "AG", "KG", "GmbH & Co. KG", "e.V.", "UG", "OHG", "KGaA", "e.K."},
		"French":               {"SA", "SARL", "SAS", "SASU", "SNC", "EURL", "SCI"},
		"Spanish/LatAm":        {"S.A.", "S.L.", "S.R.L.", "S.A. de C.V.", "S. de R.L. de C.V.", "SAPI", "S.A.P.I. de C.V.", "S.A.B. de C.V.", "C.A.", "S.A.C.", "Ltda."},
		"Portuguese":           {"Lda.", "Ltda", "EIRELI", "Sociedade Anónima"},
		"Italian":              {"S.p.A.", "S.r.l.", "S.a.s.", "S.n.c.", "S.a.p.a."},
		"Dutch/Belgian":        {"B.V.", "N.V.", "V.O.F.", "C.V.", "BVBA", "CVBA", "VZW"},
		"Nordic":               {"AB", "(publ)", "Abp", "AS", "ASA", "A/S", "ApS", "Oy", "Oyj", "hf", "ehf", "K/S", "HB", "KB"},
		"Baltic":               {"OÜ", "SIA", "UAB", "AS"},
		"Russian/CIS Latin":    {"OOO", "AO", "ZAO", "OAO", "PAO", "PJSC", "JSC", "CJSC", "IP", "TOO", "TOV", "UP", "FGUP", "GUP", "MUP", "ANO"},
		"Russian/CIS Cyrillic": {"ООО", "АО", "ЗАО", "ОАО", "ПАО", "ИП", "ТОО", "ТОВ", "УП", "ФГУП", "ГУП", "ПрАТ", "ОДО", "ЧУП"},
		"Polish/Czech/Hungarian/Balkan": {
			"Sp. z o.o.", "S.A.", "sp.k.", "s.r.o.", "a.s.", "d.o.o.", "d.d.", "a.d.", "Kft.", "Zrt.", "Nyrt.", "EOOD", "ЕООД", "Sh.p.k.",
		},
		"Greek/Romanian/Turkish": {"Ε.Π.Ε.", "Α.Ε.", "I.K.E.", "PFA", "A.Ş.", "Ltd. Şti."},
		"Caucasus/Central Asia":  {"შპს", "MMC", "MChJ", "ТОО"},
		"Chinese/HK":             {"有限公司", "股份有限公司", "有限责任公司", "Co., Ltd.", "無限公司"},
		"Japanese":               {"株式会社", "Kabushiki Kaisha", "K.K.", "有限会社", "Yugen Kaisha", "合同会社", "GK"},
		"Korean":                 {"주식회사", "유한회사"},
		"South/South-east Asia":  {"PT", "Tbk", "Sdn Bhd", "Bhd", "Pvt Ltd", "PCL", "Cty TNHH"},
		"Arabic-world":           {"ذ.م.م", "W.L.L.", "Sharikat dhat mas'uliyya mahduda", "FZE", "FZCO", "FZ-LLC", "Free Zone Company", "S.A.L.", "SPC", "ش.م.ع", "B.S.C.", "S.A.E."},
		"Offshore":               {"IBC", "BVI Business Company", "LLC", "Ltd", "Exempted Company", "Segregated Portfolio Company", "PCC", "Private Interest Foundation", "A.V.V."},
	}
	for region, forms := range regions {
		for _, f := range forms {
			if legalToken(f) == "" {
				t.Errorf("%s: %q canonicalises to %q, want one legal-form token", region, f, canonLegal(f))
			}
		}
	}
}

// TestLegalFormsShortAliases guards the riskiest entries: a one- or
// two-letter alias rewrites every such word in an entity name. Each one here
// was reviewed as a legal form that names really carry; a new one must be
// reviewed and added on purpose.
//
// An alias in a script that Fold romanises is a Latin word once folded, so
// it rewrites that word in Latin names too: those of three letters or fewer
// are reviewed here as well. ss is the Georgian სს (joint-stock company),
// the letters of the SS that starts some vessel names; bam is the Hebrew
// בעמ (Ltd) and spy the Armenian ՍՊԸ (LLC). None of the three is a word of
// any name on the OFAC, UN or consolidated lists, and a rewritten word
// still meets every spelling of itself.
func TestLegalFormsShortAliases(t *testing.T) {
	reviewed := make(map[string]bool)
	for _, w := range strings.Fields("ab ad ae ag ao as aқ bv ca co cv dd eg ei ek ev gk gp hb hf ip kb kd kg kk ks ky lp np nv og ou oy pp ps pt qk ry sa se sf sl ss ug up uu xk yk zs bam spy") {
		reviewed[w] = true
	}
	for i, line := range strings.Split(legalFormsData, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, ":")
		for _, a := range strings.Split(rest, "|") {
			words := Tokenize(a).Words
			limit := 2
			for _, r := range a {
				if scriptOf(r) != noScript {
					limit = 3
				}
			}
			if len(words) == 1 && utf8.RuneCountInString(words[0]) <= limit && !reviewed[words[0]] {
				t.Errorf("line %d: class %s has the unreviewed short alias %q (%q)", i+1, key, words[0], strings.TrimSpace(a))
			}
		}
	}
}
