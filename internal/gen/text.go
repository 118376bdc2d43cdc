package gen

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// countryNames gives the English short name of every ISO code the generator
// uses, for places of birth, addresses and the odd citizenship that a source
// writes out as a name.
var countryNames = map[string]string{
	"AE": "United Arab Emirates", "AF": "Afghanistan", "AR": "Argentina", "AT": "Austria",
	"AU": "Australia", "AZ": "Azerbaijan", "BD": "Bangladesh", "BE": "Belgium",
	"BF": "Burkina Faso", "BR": "Brazil", "BY": "Belarus", "CA": "Canada",
	"CH": "Switzerland", "CI": "Côte d'Ivoire", "CN": "China", "CO": "Colombia",
	"CY": "Cyprus", "DE": "Germany", "DK": "Denmark", "EC": "Ecuador", "EG": "Egypt",
	"ES": "Spain", "FI": "Finland", "FR": "France", "GB": "United Kingdom",
	"GH": "Ghana", "GN": "Guinea", "GT": "Guatemala", "HK": "Hong Kong", "HN": "Honduras",
	"IE": "Ireland", "IL": "Israel", "IN": "India", "IQ": "Iraq", "IR": "Iran", "IT": "Italy",
	"JO": "Jordan", "JP": "Japan", "KP": "North Korea", "KR": "South Korea",
	"KW": "Kuwait", "KZ": "Kazakhstan", "LB": "Lebanon", "LR": "Liberia", "LU": "Luxembourg",
	"LY": "Libya", "MA": "Morocco", "MH": "Marshall Islands", "ML": "Mali",
	"MT": "Malta", "MX": "Mexico", "MY": "Malaysia", "NG": "Nigeria", "NL": "Netherlands",
	"NO": "Norway", "NZ": "New Zealand", "PA": "Panama", "PE": "Peru", "PK": "Pakistan",
	"PL": "Poland", "PT": "Portugal", "QA": "Qatar", "RU": "Russian Federation",
	"SA": "Saudi Arabia", "SC": "Seychelles", "SE": "Sweden", "SG": "Singapore",
	"SN": "Senegal", "SY": "Syria", "TR": "Türkiye", "UA": "Ukraine", "US": "United States",
	"UZ": "Uzbekistan", "VE": "Venezuela", "VG": "British Virgin Islands", "YE": "Yemen",
}

// citizenshipAsName is how some sources write a citizenship instead of the
// ISO code; the engine has to map these back.
var citizenshipAsName = map[string][]string{
	"RU": {"Russia", "Russian Federation", "Russian"},
	"IR": {"Iran", "Iranian", "Iran, Islamic Republic of"},
	"SY": {"Syria", "Syrian Arab Republic"},
	"KP": {"North Korea", "Korea, North", "DPRK"},
	"VE": {"Venezuela"},
	"BY": {"Belarus"},
	"CN": {"China", "Chinese"},
	"TR": {"Turkey", "Turkish"},
	"IQ": {"Iraq", "Iraqi"},
	"UA": {"Ukraine"},
	"GB": {"United Kingdom", "British"},
	"US": {"United States", "USA"},
	"DE": {"Germany", "German"},
	"NG": {"Nigeria", "Nigerian"},
	"MX": {"Mexico", "Mexican"},
}

// countryName returns the English name of code, or code itself.
func countryName(code string) string {
	if n, ok := countryNames[code]; ok {
		return n
	}
	return code
}

// asciiFold writes s the way an English-language list would: accents
// dropped, German umlauts and ß spelt out when german is set, and the
// letters that do not decompose (ł, ı, ø, đ, æ) replaced by hand.
func asciiFold(s string, german bool) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if german {
			switch c {
			case 'ä':
				b.WriteString("ae")
				continue
			case 'ö':
				b.WriteString("oe")
				continue
			case 'ü':
				b.WriteString("ue")
				continue
			case 'Ä':
				b.WriteString("Ae")
				continue
			case 'Ö':
				b.WriteString("Oe")
				continue
			case 'Ü':
				b.WriteString("Ue")
				continue
			}
		}
		switch c {
		case 'ß':
			b.WriteString("ss")
			continue
		case 'ł':
			b.WriteByte('l')
			continue
		case 'Ł':
			b.WriteByte('L')
			continue
		case 'ı':
			b.WriteByte('i')
			continue
		case 'ø':
			b.WriteByte('o')
			continue
		case 'Ø':
			b.WriteByte('O')
			continue
		case 'đ':
			b.WriteByte('d')
			continue
		case 'æ':
			b.WriteString("ae")
			continue
		}
		for _, d := range norm.NFD.String(string(c)) {
			if !unicode.Is(unicode.Mn, d) {
				b.WriteRune(d)
			}
		}
	}
	return b.String()
}

// StripAccents removes combining marks and spells out the Latin letters
// that do not decompose, leaving other scripts alone.
func StripAccents(s string) string { return asciiFold(s, false) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// upperFirst upper-cases the first letter of s, for names built from
// lower-case stems.
func upperFirst(s string) string {
	c, n := utf8.DecodeRuneInString(s)
	if c == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(c)) + s[n:]
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// appendUnique appends s to l unless it is empty or already there, so that
// alias lists never repeat the primary name or each other.
func appendUnique(l []string, s string, not ...string) []string {
	if s == "" {
		return l
	}
	for _, n := range not {
		if n == s {
			return l
		}
	}
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}
