// Package country resolves country names and ISO 3166-1 alpha-2 codes, so
// that a record whose citizenship reads "Russian Federation" passes a
// citizenship=RU filter (docs/MATCHING.md "Filters").
package country

import (
	"strings"
	"sync"

	"unicode"

	"golang.org/x/text/unicode/norm"
)

// aliases are names in common use in sanctions and PEP lists that the
// English display names of x/text do not give.
var aliases = map[string]string{
	"russia": "RU", "russian federation": "RU", "ussr": "RU",
	"iran": "IR", "islamic republic of iran": "IR", "iran islamic republic of": "IR",
	"syria": "SY", "syrian arab republic": "SY",
	"north korea": "KP", "korea north": "KP", "democratic peoples republic of korea": "KP", "dprk": "KP", "korea democratic peoples republic of": "KP",
	"south korea": "KR", "korea south": "KR", "republic of korea": "KR", "korea republic of": "KR", "korea": "KR",
	"burma": "MM", "myanmar": "MM",
	"ivory coast": "CI", "cote divoire": "CI",
	"united kingdom": "GB", "uk": "GB", "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB",
	"united states": "US", "united states of america": "US", "usa": "US", "us": "US", "america": "US",
	"venezuela": "VE", "bolivarian republic of venezuela": "VE",
	"bolivia": "BO", "tanzania": "TZ", "united republic of tanzania": "TZ",
	"laos": "LA", "lao peoples democratic republic": "LA",
	"vietnam": "VN", "viet nam": "VN",
	"moldova": "MD", "republic of moldova": "MD",
	"macedonia": "MK", "north macedonia": "MK",
	"czech republic": "CZ", "czechia": "CZ",
	"the netherlands": "NL", "holland": "NL",
	"uae": "AE", "united arab emirates": "AE",
	"palestine": "PS", "palestinian territories": "PS", "west bank": "PS", "gaza": "PS", "gaza strip": "PS",
	"democratic republic of the congo": "CD", "congo democratic republic of the": "CD", "drc": "CD", "congo kinshasa": "CD", "zaire": "CD",
	"republic of the congo": "CG", "congo": "CG", "congo brazzaville": "CG",
	"swaziland": "SZ", "eswatini": "SZ",
	"cape verde": "CV", "cabo verde": "CV",
	"east timor": "TL", "timor leste": "TL",
	"vatican": "VA", "holy see": "VA", "vatican city": "VA",
	"taiwan": "TW", "republic of china": "TW",
	"china": "CN", "peoples republic of china": "CN", "prc": "CN",
	"hong kong": "HK", "macau": "MO", "macao": "MO",
	"turkey": "TR", "turkiye": "TR",
	"brunei": "BN", "brunei darussalam": "BN",
	"micronesia": "FM", "federated states of micronesia": "FM",
	"kyrgyzstan": "KG", "kyrgyz republic": "KG",
	"slovakia": "SK", "slovak republic": "SK",
	"bosnia": "BA", "bosnia and herzegovina": "BA", "bosnia herzegovina": "BA",
	"saint kitts and nevis": "KN", "st kitts and nevis": "KN",
	"saint lucia": "LC", "st lucia": "LC",
	"saint vincent and the grenadines": "VC", "st vincent and the grenadines": "VC",
	"british virgin islands": "VG", "bvi": "VG",
	"crimea": "UA", "ukraine": "UA",
	"kosovo": "XK",
	// Nationalities, as some lists write citizenship.
	"russian": "RU", "german": "DE", "british": "GB", "american": "US", "french": "FR",
	"chinese": "CN", "iranian": "IR", "syrian": "SY", "iraqi": "IQ", "afghan": "AF",
	"pakistani": "PK", "indian": "IN", "turkish": "TR", "ukrainian": "UA", "belarusian": "BY",
	"north korean": "KP", "south korean": "KR", "italian": "IT", "spanish": "ES", "dutch": "NL",
	"swiss": "CH", "emirati": "AE", "saudi": "SA", "lebanese": "LB", "yemeni": "YE",
	"libyan": "LY", "sudanese": "SD", "somali": "SO", "nigerian": "NG", "venezuelan": "VE",
	"cuban": "CU", "mexican": "MX", "colombian": "CO", "brazilian": "BR", "japanese": "JP",
	"kazakh": "KZ", "uzbek": "UZ", "georgian": "GE", "armenian": "AM", "azerbaijani": "AZ",
	"egyptian": "EG", "israeli": "IL", "palestinian": "PS", "jordanian": "JO", "qatari": "QA",
	"kuwaiti": "KW", "polish": "PL", "greek": "GR", "serbian": "RS", "belgian": "BE",
	"austrian": "AT", "canadian": "CA", "australian": "AU", "irish": "IE", "swedish": "SE",
	"norwegian": "NO", "danish": "DK", "finnish": "FI", "portuguese": "PT", "romanian": "RO",
	"bulgarian": "BG", "hungarian": "HU", "czech": "CZ", "slovak": "SK", "croatian": "HR",
	"bosnian": "BA", "albanian": "AL", "moldovan": "MD", "tajik": "TJ", "kyrgyz": "KG",
	"turkmen": "TM", "burmese": "MM", "vietnamese": "VN", "thai": "TH", "filipino": "PH",
	"indonesian": "ID", "malaysian": "MY", "singaporean": "SG", "bangladeshi": "BD",
	"sri lankan": "LK", "nepalese": "NP", "ethiopian": "ET", "eritrean": "ER", "kenyan": "KE",
	"south african": "ZA", "zimbabwean": "ZW", "congolese": "CD", "malian": "ML", "algerian": "DZ",
	"moroccan": "MA", "tunisian": "TN", "omani": "OM", "bahraini": "BH", "argentine": "AR",
	"argentinian": "AR", "chilean": "CL", "peruvian": "PE", "nicaraguan": "NI", "panamanian": "PA",
}

var (
	once   sync.Once
	byName map[string]string
	codes  map[string]bool
)

func load() {
	byName = make(map[string]string, 800)
	codes = make(map[string]bool, 260)
	for line := range strings.SplitSeq(table, "\n") {
		code, names, _ := strings.Cut(line, " ")
		codes[code] = true
		for name := range strings.SplitSeq(names, "|") {
			byName[Key(name)] = code
		}
	}
	for n, c := range aliases {
		if _, ok := byName[Key(n)]; !ok {
			byName[Key(n)] = c
		}
	}
}

// Code returns the upper-case alpha-2 code for s, which may be a code (any
// case) or a country name as lists write it. The look-up ignores case,
// diacritics, punctuation and a leading "the", so "Türkiye", "TURKEY" and
// "Turkey." agree.
func Code(s string) (string, bool) {
	once.Do(load)
	s = strings.TrimSpace(s)
	if len(s) == 2 {
		if u := strings.ToUpper(s); codes[u] {
			return u, true
		}
	}
	c, ok := byName[Key(s)]
	return c, ok
}

// codeAliases are two-letter codes in common use that ISO 3166-1 does not
// assign to the country they mean: UK (the United Kingdom's ccTLD, GB in
// ISO) and EL (Greece in the European Union's usage, GR in ISO).
var codeAliases = map[string]string{"UK": "GB", "EL": "GR"}

// ParseCode reads a two-letter country code as a filter value: an
// assigned ISO 3166-1 alpha-2 code, XK (Kosovo, user-assigned but what
// every list uses) or an alias of codeAliases, in any case, surrounding
// spaces ignored. It returns the upper-case ISO code. Unlike Code it reads
// no country names, and it refuses unassigned codes (XX, ZZ).
func ParseCode(s string) (string, bool) {
	once.Do(load)
	s = strings.TrimSpace(s)
	if len(s) != 2 {
		return "", false
	}
	u := strings.ToUpper(s)
	if c, ok := codeAliases[u]; ok {
		return c, true
	}
	return u, codes[u]
}

// Key folds a country name to its lookup key: lower case without
// diacritics, dots and apostrophes dropped (so "U.K." is "uk"), other
// punctuation turned into spaces, "&" read as "and", and a leading "the"
// removed. It is safe for concurrent use (the engine calls it from every
// core while it builds).
func Key(name string) string {
	var b strings.Builder
	space := true
	for _, c := range strings.ToLower(norm.NFKD.String(name)) {
		switch {
		case unicode.Is(unicode.Mn, c):
			continue
		case c == '.' || c == '\'' || c == '’' || c == '‘':
			continue
		case c == '&':
			if !space {
				b.WriteByte(' ')
			}
			b.WriteString("and ")
			space = true
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			b.WriteRune(c)
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	k := strings.TrimSpace(b.String())
	return strings.TrimPrefix(k, "the ")
}
