package gen

import (
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/record"
)

// personName is the naming part of an individual's record as a list would
// write it.
type personName struct {
	name       string
	tl         string
	given      []string
	last       []string
	aliasGiven []string
	aliases    []string
	father     string // the father's name when the culture records it
}

// culture is one naming tradition: how names are built, where its people
// are born and live, and how its addresses are written.
type culture struct {
	key       string
	countries []weighted[string] // citizenships
	cities    []string           // "City|CC"
	name      func(r *rng, female bool) personName
	address   func(r *rng, city, cc string) string
	birthYear [2]int
}

var cultures = map[string]*culture{}

func addCulture(c *culture) *culture {
	if c.birthYear == [2]int{} {
		c.birthYear = [2]int{1940, 2001}
	}
	cultures[c.key] = c
	return c
}

func init() {
	addCulture(&culture{key: "anglo", countries: ws("US:45 GB:30 IE:10 CA:6 AU:6 NZ:3"), cities: citiesAnglo,
		name: anglo.build, address: addrEnglish})
	addCulture(&culture{key: "german", countries: ws("DE:80 AT:12 CH:8"), cities: citiesGerman,
		name: german.build, address: addrGerman})
	addCulture(&culture{key: "french", countries: ws("FR:75 BE:10 CH:5 LU:3 CA:4 MA:3"), cities: citiesFrench,
		name: french.build, address: addrFrench})
	addCulture(&culture{key: "italian", countries: ws("IT:95 CH:5"), cities: citiesItalian,
		name: italian.build, address: addrItalian})
	addCulture(&culture{key: "polish", countries: ws("PL:100"), cities: citiesPolish,
		name: polish.build, address: addrPolish})
	addCulture(&culture{key: "turkish", countries: ws("TR:85 DE:5 CY:5 AZ:5"), cities: citiesTurkish,
		name: turkish.build, address: addrTurkish})
	addCulture(&culture{key: "indian", countries: ws("IN:75 PK:18 BD:5 GB:2"), cities: citiesIndian,
		name: indian.build, address: addrIndian})
	addCulture(&culture{key: "westafrican", countries: ws("NG:55 GH:15 SN:8 ML:8 GN:5 CI:5 BF:4"), cities: citiesWestAfrican,
		name: westAfrican.build, address: addrWestAfrican})
	addCulture(&culture{key: "spanish", countries: ws("MX:25 CO:20 VE:15 ES:15 AR:8 PE:5 EC:4 GT:3 HN:3 PA:2"), cities: citiesSpanish,
		name: spanishName, address: addrSpanish})
	addCulture(&culture{key: "portuguese", countries: ws("BR:90 PT:10"), cities: citiesPortuguese,
		name: portugueseName, address: addrPortuguese})
	addCulture(&culture{key: "russian", countries: ws("RU:88 BY:5 KZ:3 CY:2 IL:2"), cities: citiesRussian,
		name: func(r *rng, f bool) personName {
			return slavicName(r, f, russianMale, russianFemale, russianSurnames, true)
		},
		address: addrRussian})
	addCulture(&culture{key: "ukrainian", countries: ws("UA:85 RU:15"), cities: citiesUkrainian,
		name: func(r *rng, f bool) personName {
			return slavicName(r, f, ukrainianMale, ukrainianFemale, ukrainianSurnames, false)
		},
		address: addrRussian})
	addCulture(&culture{key: "arabic", countries: ws("SA:14 AE:10 SY:16 IQ:16 YE:10 JO:6 LB:8 EG:10 KW:4 QA:3 LY:3"), cities: citiesArabic,
		name: arabicName, address: addrArabic})
	addCulture(&culture{key: "persian", countries: ws("IR:95 AE:3 IQ:2"), cities: citiesPersian,
		name: persianName, address: addrPersian})
	addCulture(&culture{key: "chinese", countries: ws("CN:85 HK:10 SG:5"), cities: citiesChinese,
		name: chineseName, address: addrChinese})
	addCulture(&culture{key: "korean", countries: ws("KP:100"), cities: citiesKorean,
		name: func(r *rng, f bool) personName { return koreanName(r, f, false) }, address: addrKorean})
	addCulture(&culture{key: "korean_south", countries: ws("KR:100"), cities: citiesKorean,
		name: func(r *rng, f bool) personName { return koreanName(r, f, true) }, address: addrKorean})
	indexCountryCultures()
}

// ws parses "A:3 B:1" into a weighted list.
func ws(s string) []weighted[string] {
	var out []weighted[string]
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, ":")
		n, err := strconv.Atoi(v)
		if err != nil {
			panic("gen: bad weight in " + s) // static data; caught by any test
		}
		out = append(out, weighted[string]{n, k})
	}
	return out
}

// latinPool builds names for cultures written in Latin script.
type latinPool struct {
	male, female, surnames []string
	middles                []string // middle names used only as middle names
	nick                   map[string]string
	femSurname             func(string) string
	german                 bool
	middleP                float64
}

func (p *latinPool) build(r *rng, female bool) personName {
	pool := p.male
	if female {
		pool = p.female
	}
	given := pick(r, pool)
	middle := ""
	if r.chance(p.middleP) {
		if len(p.middles) > 0 && !female {
			middle = pick(r, p.middles)
		} else if m := pick(r, pool); m != given {
			middle = m
		}
	}
	sur := pick(r, p.surnames)
	if female && p.femSurname != nil {
		sur = p.femSurname(sur)
	}
	givenFull := joinNonEmpty(" ", given, middle)
	n := personName{last: []string{sur}}
	if middle != "" && r.chance(0.5) {
		n.given = []string{given, middle}
	} else {
		n.given = []string{givenFull}
	}
	n.name = formatWestern(r, givenFull, sur)
	if f := asciiFold(givenFull+" "+sur, p.german); f != givenFull+" "+sur && r.chance(0.7) {
		n.aliases = appendUnique(n.aliases, f, n.name)
	}
	if nk, ok := p.nick[given]; ok && r.chance(0.3) {
		n.aliasGiven = append(n.aliasGiven, nk)
	}
	if middle != "" && r.chance(0.3) {
		n.aliases = appendUnique(n.aliases, given+" "+sur, n.name)
	}
	if female && r.chance(0.12) {
		// A maiden or married name.
		other := pick(r, p.surnames)
		if p.femSurname != nil {
			other = p.femSurname(other)
		}
		n.aliases = appendUnique(n.aliases, givenFull+" "+other, n.name)
	}
	return n
}

// formatWestern writes given names and surname in one of the orders lists
// use: natural, SURNAME-comma, upper-case surname, or surname first.
func formatWestern(r *rng, given, sur string) string {
	switch x := r.IntN(100); {
	case x < 50:
		return given + " " + sur
	case x < 65:
		return strings.ToUpper(sur) + ", " + given
	case x < 85:
		return given + " " + strings.ToUpper(sur)
	default:
		return sur + " " + given
	}
}

func spanishName(r *rng, female bool) personName {
	pool := spanishMale
	if female {
		pool = spanishFemale
	}
	given := pick(r, pool)
	pat, mat := pick(r, spanishSurnames), pick(r, spanishSurnames)
	last := pat + " " + mat
	n := personName{given: []string{given}, last: []string{last}}
	if r.chance(0.2) {
		n.last = []string{pat, mat}
	}
	n.name = formatWestern(r, given, last)
	if f := asciiFold(given+" "+last, false); f != given+" "+last && r.chance(0.7) {
		n.aliases = append(n.aliases, f)
	}
	if r.chance(0.35) {
		n.aliases = appendUnique(n.aliases, given+" "+pat, n.name)
	}
	return n
}

// portugueseParticles are the particles that go with common Portuguese
// surnames ("da Silva", "dos Santos").
var portugueseParticles = map[string]string{"Silva": "da", "Santos": "dos", "Oliveira": "de", "Souza": "de", "Costa": "da",
	"Rocha": "da", "Nascimento": "do", "Conceição": "da", "Almeida": "de", "Andrade": "de", "Freitas": "de", "Lima": "de"}

func portugueseName(r *rng, female bool) personName {
	pool := portugueseMale
	if female {
		pool = portugueseFem
	}
	given := pick(r, pool)
	if r.chance(0.4) {
		if m := pick(r, pool); m != given {
			given += " " + m
		}
	}
	s1, s2 := pick(r, portugueseSur), pick(r, portugueseSur)
	last := s2
	if s1 != s2 && r.chance(0.6) {
		last = s1 + " " + s2
	}
	if p, ok := portugueseParticles[s1]; ok && strings.HasPrefix(last, s1) && r.chance(0.4) {
		last = p + " " + last
	}
	n := personName{given: []string{given}, last: []string{last}}
	n.name = formatWestern(r, given, last)
	if f := asciiFold(given+" "+last, false); f != given+" "+last && r.chance(0.6) {
		n.aliases = append(n.aliases, f)
	}
	if r.chance(0.3) {
		first, _, _ := strings.Cut(given, " ")
		n.aliases = appendUnique(n.aliases, first+" "+s2, n.name)
	}
	return n
}

// slavicName builds an East Slavic name: given name, patronymic and surname
// in a romanised primary form, with the Cyrillic original and other
// romanisations as aliases, as sanction lists carry them.
func slavicName(r *rng, female bool, male, fem, surnames []slavic, russianFem bool) personName {
	var g slavic
	if female {
		g = pick(r, fem)
	} else {
		g = pick(r, male)
	}
	father := pick(r, male)
	s := pick(r, surnames)
	surCyr, surLat := s.cyr, s.lat
	if female && russianFem {
		surCyr = feminineCyr(s.cyr)
		surLat = make([]string, len(s.lat))
		for i, l := range s.lat {
			surLat[i] = feminineLat(l)
		}
	}
	patCyr, patLat := father.patM, father.patMLat
	if female {
		patCyr, patLat = father.patF, []string{father.patFLat}
	}
	gl, pl, sl := g.lat[0], patLat[0], surLat[0]
	var n personName
	switch x := r.IntN(100); {
	case x < 45:
		n.name = gl + " " + pl + " " + sl
	case x < 70:
		n.name = strings.ToUpper(sl) + ", " + gl + " " + pl
	case x < 85:
		n.name = gl + " " + pl + " " + strings.ToUpper(sl)
	default:
		n.name = sl + " " + gl + " " + pl
	}
	n.given = []string{gl}
	n.last = []string{sl}
	if r.chance(0.3) {
		n.given = append(n.given, pl)
	}
	for _, alt := range g.lat[1:] {
		if r.chance(0.6) {
			n.aliasGiven = append(n.aliasGiven, alt)
		}
	}
	if r.chance(0.8) {
		if r.chance(0.6) {
			n.aliases = append(n.aliases, surCyr+" "+g.cyr+" "+patCyr)
		} else {
			n.aliases = append(n.aliases, g.cyr+" "+patCyr+" "+surCyr)
		}
	}
	// Other romanisations, as German, French and older English sources
	// wrote them.
	for k := 0; k < 2; k++ {
		if r.chance(0.45) {
			alt := pick(r, g.lat) + " " + pick(r, patLat) + " " + pick(r, surLat)
			if r.chance(0.3) {
				alt = pick(r, g.lat) + " " + pick(r, surLat)
			}
			n.aliases = appendUnique(n.aliases, alt, n.name)
		}
	}
	n.father = father.lat[0] + " " + s.lat[0]
	return n
}

// arabicName builds an Arabic name: given name, father's name joined with
// bin/bint or not, and often a family or tribal name; half the time the list
// writes it in Arabic script and the record carries a transliteration.
func arabicName(r *rng, female bool) personName {
	var g scripted
	if female {
		g = pick(r, arabicFemale)
	} else {
		g = pick(r, arabicMale)
	}
	f := pick(r, arabicMale)
	var fam *scripted
	if r.chance(0.75) {
		x := pick(r, arabicFamilies)
		fam = &x
	}
	conn, connAr := "", ""
	if r.chance(0.4) {
		conn, connAr = "bin", "بن"
		if female {
			conn, connAr = "bint", "بنت"
		} else if r.chance(0.3) {
			conn = "ibn"
		}
	}
	latin := func(v int) string {
		parts := []string{variant(g, v)}
		if conn != "" {
			parts = append(parts, conn)
		}
		parts = append(parts, variant(f, v))
		if fam != nil {
			parts = append(parts, variant(*fam, v))
		}
		return strings.Join(parts, " ")
	}
	native := joinNonEmpty(" ", g.native, connAr, f.native)
	if fam != nil {
		native += " " + fam.native
	}
	n := personName{given: []string{variant(g, r.IntN(3))}}
	if fam != nil {
		n.last = []string{variant(*fam, r.IntN(3))}
	} else {
		n.last = []string{variant(f, 0)}
	}
	if r.chance(0.5) {
		n.name = native
		n.tl = latin(0)
		n.aliases = appendUnique(n.aliases, latin(1), n.tl)
		if r.chance(0.5) {
			n.aliases = appendUnique(n.aliases, latin(2), n.tl)
		}
	} else {
		v := r.IntN(3)
		n.name = latin(v)
		if r.chance(0.2) {
			n.name = strings.ToUpper(n.name)
		}
		n.aliases = appendUnique(n.aliases, latin((v+1)%3), n.name)
		if r.chance(0.3) {
			n.aliases = append(n.aliases, native)
		}
	}
	if !female && r.chance(0.25) {
		// A kunya: "father of", the name a fighter or cleric goes by.
		son := pick(r, arabicMale)
		k := "Abu " + variant(son, r.IntN(2))
		if fam != nil && r.chance(0.5) {
			k += " " + variant(*fam, 0)
		}
		n.aliases = appendUnique(n.aliases, k)
	}
	n.father = variant(f, 1)
	return n
}

// variant returns the i-th romanisation of s, or its last one.
func variant(s scripted, i int) string {
	if i < len(s.lat) {
		return s.lat[i]
	}
	return s.lat[len(s.lat)-1]
}

func persianName(r *rng, female bool) personName {
	var g scripted
	if female {
		g = pick(r, persianFemale)
	} else {
		g = pick(r, persianMale)
	}
	s := pick(r, persianSurnames)
	n := personName{given: []string{variant(g, 0)}, last: []string{variant(s, 0)}}
	native := g.native + " " + s.native
	if r.chance(0.4) {
		n.name = native
		n.tl = variant(g, 0) + " " + variant(s, 0)
	} else {
		n.name = formatWestern(r, variant(g, r.IntN(2)), variant(s, 0))
		if r.chance(0.25) {
			n.aliases = append(n.aliases, native)
		}
	}
	alt := variant(g, 1) + " " + variant(s, 1)
	n.aliases = appendUnique(n.aliases, alt, n.name, n.tl, variant(g, 0)+" "+variant(s, 0))
	f := pick(r, persianMale)
	n.father = variant(f, 0) + " " + variant(s, 0)
	return n
}

// chineseName builds a Chinese name in Han characters (with a pinyin tl_name
// in the syllable-per-character form a transliteration tool produces) or in
// pinyin, with the spellings other lists use as aliases.
func chineseName(r *rng, female bool) personName {
	s := pick(r, chineseSurnames)
	var g scripted
	if female {
		g = pick(r, chineseFemale)
	} else {
		g = pick(r, chineseMale)
	}
	syl := g.lat[0]
	joined := strings.ReplaceAll(syl, " ", "")
	joined = upperFirst(strings.ToLower(joined))
	hyph := strings.Replace(syl, " ", "-", 1)
	if i := strings.IndexByte(hyph, '-'); i >= 0 {
		hyph = hyph[:i+1] + strings.ToLower(hyph[i+1:])
	}
	sur := s.lat[0]
	n := personName{given: []string{joined}, last: []string{sur}}
	if r.chance(0.6) {
		n.name = s.native + g.native
		n.tl = sur + " " + syl
		n.aliases = append(n.aliases, strings.ToUpper(sur)+" "+joined)
	} else {
		switch r.IntN(3) {
		case 0:
			n.name = strings.ToUpper(sur) + " " + joined
		case 1:
			n.name = sur + " " + joined
		default:
			n.name = joined + " " + strings.ToUpper(sur)
		}
		if r.chance(0.4) {
			n.aliases = append(n.aliases, s.native+g.native)
		}
	}
	if r.chance(0.4) {
		n.aliases = appendUnique(n.aliases, sur+" "+hyph, n.name, n.tl)
	}
	if len(s.lat) > 1 && r.chance(0.25) {
		// Hong Kong and Taiwan documents spell the surname differently.
		n.aliases = appendUnique(n.aliases, joined+" "+s.lat[1])
	}
	return n
}

// koreanName builds a Korean name; North Korean entries use the DPRK's own
// romanisation (Ri, Pak, Jong Chol), South Korean ones the Revised or
// customary one (Lee, Park, Jong-chol).
func koreanName(r *rng, female, south bool) personName {
	s := pick(r, koreanSurnames)
	var g scripted
	if female {
		g = pick(r, koreanFemale)
	} else {
		g = pick(r, koreanMale)
	}
	v := 0
	if south {
		v = 1
	}
	sur := variant(s, v)
	given := variant(g, v)
	n := personName{given: []string{given}, last: []string{sur}}
	if r.chance(0.5) {
		n.name = strings.ToUpper(sur) + " " + given
	} else {
		n.name = sur + " " + given
	}
	if r.chance(0.6) {
		n.aliases = append(n.aliases, s.native+g.native)
	}
	for _, alt := range g.lat {
		if alt != given && r.chance(0.5) {
			n.aliases = appendUnique(n.aliases, pick(r, s.lat)+" "+alt, n.name)
		}
	}
	return n
}

// Address formats per culture.

func addrEnglish(r *rng, city, cc string) string {
	return strconv.Itoa(r.between(1, 250)) + " " + pick(r, streetsEnglish) + " " +
		pick(r, []string{"Street", "Road", "Avenue", "Lane", "Drive"}) + ", " + city + ", " + countryName(cc)
}

func addrGerman(r *rng, city, cc string) string {
	return pick(r, streetsGerman) + pick(r, []string{"straße", "weg", "platz"}) + " " + strconv.Itoa(r.between(1, 120)) +
		", " + r.digits(plzLen(cc)) + " " + city + ", " + countryName(cc)
}

func plzLen(cc string) int {
	if cc == "DE" {
		return 5
	}
	return 4
}

func addrFrench(r *rng, city, cc string) string {
	return strconv.Itoa(r.between(1, 90)) + " rue " + pick(r, streetsFrench) + ", " + r.digits(plzLen(cc)+1) + " " + city + ", " + countryName(cc)
}

func addrSpanish(r *rng, city, cc string) string {
	return pick(r, []string{"Calle", "Avenida", "Carrera"}) + " " + pick(r, streetsSpanish) + " " + strconv.Itoa(r.between(1, 400)) +
		", " + city + ", " + countryName(cc)
}

func addrItalian(r *rng, city, cc string) string {
	return "Via " + pick(r, streetsItalian) + " " + strconv.Itoa(r.between(1, 150)) + ", " + r.digits(5) + " " + city + ", " + countryName(cc)
}

func addrPortuguese(r *rng, city, cc string) string {
	return "Rua " + pick(r, streetsPortug) + ", " + strconv.Itoa(r.between(1, 2000)) + ", " + city + ", " + countryName(cc)
}

func addrPolish(r *rng, city, cc string) string {
	return "ul. " + pick(r, streetsPolish) + " " + strconv.Itoa(r.between(1, 99)) + ", " + r.digits(2) + "-" + r.digits(3) + " " + city + ", " + countryName(cc)
}

func addrTurkish(r *rng, city, cc string) string {
	return pick(r, streetsTurkish) + " Caddesi No: " + strconv.Itoa(r.between(1, 300)) + ", " + city + ", " + countryName(cc)
}

func addrIndian(r *rng, city, cc string) string {
	return strconv.Itoa(r.between(1, 500)) + " " + pick(r, streetsIndian) + " Road, " + city + ", " + countryName(cc)
}

func addrWestAfrican(r *rng, city, cc string) string {
	return strconv.Itoa(r.between(1, 120)) + " " + pick(r, streetsWAfrica) + " Street, " + city + ", " + countryName(cc)
}

func addrRussian(r *rng, city, cc string) string {
	st := pick(r, streetsRussian)
	if !strings.Contains(st, "prospekt") {
		st = "ul. " + st
	}
	return st + ", d. " + strconv.Itoa(r.between(1, 60)) + ", kv. " + strconv.Itoa(r.between(1, 300)) + ", " + city + ", " + r.digits(6) + ", " + countryName(cc)
}

func addrArabic(r *rng, city, cc string) string {
	if r.chance(0.3) {
		return "P.O. Box " + strconv.Itoa(r.between(100, 99999)) + ", " + city + ", " + countryName(cc)
	}
	return pick(r, streetsArabic) + " Street, " + city + ", " + countryName(cc)
}

func addrPersian(r *rng, city, cc string) string {
	return "No. " + strconv.Itoa(r.between(1, 200)) + ", " + pick(r, streetsPersian) + " Street, " + city + ", " + countryName(cc)
}

func addrChinese(r *rng, city, cc string) string {
	return "No. " + strconv.Itoa(r.between(1, 999)) + " " + pick(r, streetsChinese) + " Road, " + city + ", " + countryName(cc)
}

func addrKorean(r *rng, city, cc string) string {
	if cc == "KP" {
		return pick(r, []string{"Central", "Mangyongdae", "Moranbong", "Potonggang", "Sosong"}) + " District, " + city + ", " + countryName(cc)
	}
	return strconv.Itoa(r.between(1, 300)) + " " + pick(r, []string{"Sejong-daero", "Teheran-ro", "Gangnam-daero", "Jong-ro"}) + ", " + city + ", " + countryName(cc)
}

// citiesIn returns the cities of c in country cc, or all of them when it
// has none there.
func (c *culture) cityFor(r *rng, cc string) (string, string) {
	var in []string
	for _, e := range c.cities {
		if strings.HasSuffix(e, "|"+cc) {
			in = append(in, e)
		}
	}
	if len(in) == 0 {
		in = c.cities
	}
	city, code, _ := strings.Cut(pick(r, in), "|")
	return city, code
}

// individual fills rec as a person of culture c listed by src. The order
// of its random draws is part of what a seed means (the same seed, the
// same database): reordering them changes every generated database.
func individual(r *rng, rec *record.Record, src *source, c *culture, rg *regime) {
	female := r.chance(0.22)
	if rec.SourceType == record.SourcePEP {
		female = r.chance(0.3)
	}
	n := c.name(r, female)
	rec.Name, rec.TLName = n.name, n.tl
	rec.GivenNames, rec.LastNames = n.given, n.last
	rec.AliasGivenNames, rec.AliasNames = n.aliasGiven, n.aliases

	switch x := r.IntN(100); {
	case x < 84:
		rec.Gender = record.GenderMale
		if female {
			rec.Gender = record.GenderFemale
		}
	case x < 90:
		rec.Gender = record.GenderUnknown
	}

	cc := choose(r, c.countries)
	if rg != nil && len(rg.countries) > 0 && r.chance(0.8) {
		cc = choose(r, rg.countries)
	}
	if src.country != "" && rec.SourceType == record.SourcePEP {
		cc = src.country
	}
	if r.chance(0.9) {
		rec.Citizenship = []string{citizenshipValue(r, cc)}
		if r.chance(0.06) {
			other := choose(r, c.countries)
			rec.Citizenship = appendUnique(rec.Citizenship, other)
		}
	}

	individualBirth(r, rec, c, cc)
	if r.chance(0.45) {
		city, acc := c.cityFor(r, cc)
		rec.Address = []string{c.address(r, city, acc)}
		if r.chance(0.1) {
			city, acc = c.cityFor(r, "")
			rec.Address = appendUnique(rec.Address, c.address(r, city, acc))
		}
	}
	if n.father != "" && r.chance(0.08) {
		rec.Parents = []string{n.father}
	}
	if r.chance(0.05) {
		rec.NameRemarks = []string{pick(r, []string{"Good quality a.k.a.", "Low quality a.k.a.", "Name as it appears in the passport"})}
	}

	individualSourceDetails(r, rec, src, c, rg, cc, n)
	if r.chance(0.04) {
		rec.Titles = []string{pick(r, titlesFor(c.key))}
	}
}

// individualBirth fills rec's dates and place of birth, for a person of
// culture c and country cc.
func individualBirth(r *rng, rec *record.Record, c *culture, cc string) {
	year := r.between(c.birthYear[0], c.birthYear[1])
	if rec.SourceType == record.SourcePEP {
		year = r.between(1940, 1990)
	}
	if r.chance(0.85) {
		rec.DateOfBirth = []string{dob(r, year)}
		if r.chance(0.12) {
			rec.DateOfBirth = appendUnique(rec.DateOfBirth, dob(r, year+r.between(-2, 2)))
		}
		if r.chance(0.04) {
			rec.DateOfBirthRemarks = []string{"circa " + strconv.Itoa(year)}
		}
	}
	if r.chance(0.6) {
		city, pcc := c.cityFor(r, cc)
		country := countryName(pcc)
		if year < 1991 && (pcc == "RU" || pcc == "UA" || pcc == "BY" || pcc == "KZ") && r.chance(0.4) {
			country = "USSR"
			if city == "Saint Petersburg" {
				city = "Leningrad"
			}
		}
		rec.PlaceOfBirth = []string{city + ", " + country}
	}
}

// individualSourceDetails fills what rec's kind of source says about a
// person: sanction details, a PEP's position, a crime, a tax settlement.
func individualSourceDetails(r *rng, rec *record.Record, src *source, c *culture, rg *regime, cc string, n personName) {
	switch rec.SourceType {
	case record.SourceSanction:
		rec.SanctionDetails = sanctionDetails(r, src, rg)
		if rg != nil && len(rg.occupations) > 0 && r.chance(0.5) {
			rec.Occupations = []string{pick(r, rg.occupations)}
		}
		if rg != nil && rg.key == "narcotics" && c.key == "spanish" && r.chance(0.4) {
			rec.AliasNames = append(rec.AliasNames, pick(r, spanishNick))
		}
		if r.chance(0.5) {
			rec.OtherInformation = append(rec.OtherInformation, identityDoc(r, cc))
		}
		if rg != nil && len(rg.remarks) > 0 && r.chance(0.25) {
			rec.OtherInformation = append(rec.OtherInformation, pick(r, rg.remarks))
		}
	case record.SourcePEP:
		pepIndividual(r, rec, src, c, cc)
	case record.SourceCriminal:
		rec.Description = []string{pick(r, crimes)}
		if r.chance(0.4) {
			rec.Occupations = []string{pick(r, list("Businessman, Accountant, Driver, Unemployed, Lawyer, Engineer, Pilot, Trader, Former police officer"))}
		}
		if src.id == "interpol_red_notices" {
			rec.OtherInformation = append(rec.OtherInformation, "Red Notice "+strconv.Itoa(r.between(2010, 2026))+"/"+r.digits(5))
			if r.chance(0.3) {
				rec.Links = []string{"https://www.interpol.int/How-we-work/Notices/Red-Notices/View-Red-Notices#" + strconv.Itoa(r.between(2010, 2026)) + "-" + r.digits(5)}
			}
		}
		if src.id == "us_fbi_most_wanted" && r.chance(0.5) {
			slug := strings.ToLower(strings.ReplaceAll(asciiFold(n.given[0]+" "+n.last[0], false), " ", "-"))
			rec.Links = []string{"https://www.fbi.gov/wanted/" + pick(r, []string{"wcc", "topten", "cei", "counterintelligence"}) + "/" + slug}
		}
	case record.SourceNonCompliantTaxpayer:
		rec.Description = []string{"Tax defaulter: settlement of EUR " + strconv.Itoa(r.between(35, 2500)*1000) + " in respect of " +
			pick(r, list("income tax, VAT, PAYE/PRSI, capital gains tax, corporation tax"))}
		rec.Occupations = []string{pick(r, list("Publican, Farmer, Building contractor, Company director, Medical consultant, Solicitor, Haulier, Retailer, Property developer"))}
	case record.SourceOther:
		rec.OtherInformation = append(rec.OtherInformation, pick(r, otherRemarks(src.id)))
	}
}

// citizenshipValue writes cc as most sources do (the ISO code), or now and
// then as a country name.
func citizenshipValue(r *rng, cc string) string {
	if names, ok := citizenshipAsName[cc]; ok && r.chance(0.06) {
		return pick(r, names)
	}
	return cc
}

// dob writes a date of birth in year, with unknown parts as 00 now and then.
func dob(r *rng, year int) string {
	if year < 1900 {
		year = 1900
	}
	y := strconv.Itoa(year)
	switch x := r.IntN(100); {
	case x < 12:
		return "00/00/" + y
	case x < 17:
		return "00/" + two(r.between(1, 12)) + "/" + y
	case x < 19:
		return two(r.between(1, 28)) + "/00/" + y
	}
	m := r.between(1, 12)
	d := r.between(1, daysIn(m, year))
	return two(d) + "/" + two(m) + "/" + y
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func identityDoc(r *rng, cc string) string {
	switch x := r.IntN(4); x {
	case 0:
		return "Passport " + r.digits(2) + r.digits(7) + " (" + countryName(cc) + ")"
	case 1:
		return "National ID No. " + r.digits(10) + " (" + countryName(cc) + ")"
	case 2:
		if cc == "RU" {
			return "Tax ID No. " + r.digits(12) + " (Russia)"
		}
		return "Tax ID No. " + r.digits(9)
	default:
		return "Passport " + r.letters(2) + r.digits(7) + " issued " + dob(r, r.between(2005, 2024))
	}
}

var crimes = list("Wanted for drug trafficking, Wanted for money laundering, Wanted for fraud, Wanted for murder, Wanted for armed robbery, Wanted for human trafficking, Wanted for terrorism offences, Wanted for participation in a criminal organisation, Wanted for cybercrime, Wanted for smuggling of migrants, Wanted for embezzlement, Wanted for kidnapping, Wanted for illegal arms trafficking")

func otherRemarks(id string) []string {
	if id == "ext_world_bank_debarred" {
		return list("Debarred by the World Bank Group: fraudulent practice, Debarred by the World Bank Group: corrupt practice, Cross-debarment under the Agreement for Mutual Enforcement of Debarment Decisions, Debarred by the World Bank Group: collusive practice")
	}
	return list("Appears in the Panama Papers, Appears in the Pandora Papers, Appears in the Paradise Papers, Appears in the Offshore Leaks, Officer of an offshore entity, Beneficial owner of an offshore entity")
}

func titlesFor(c string) []string {
	switch c {
	case "arabic":
		return list("Sheikh, Hajji, Dr., Imam, Emir, Mullah")
	case "persian":
		return list("Hojatoleslam, Ayatollah, Dr., Engineer, Brigadier General, Colonel")
	case "westafrican":
		return list("Chief, Alhaji, Dr., Senator, Hon.")
	case "korean":
		return list("Colonel, Lieutenant General, Director")
	}
	return list("Dr., Prof., General, Colonel, Mr., Mrs., Sir")
}
