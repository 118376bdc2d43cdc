package conv

import (
	"strings"

	"github.com/amlscreen/amlscreen/country"
)

// nullCountries are the values the lists write where they have no country;
// they are dropped rather than kept as a country name.
var nullCountries = map[string]bool{
	"na": true, "n a": true, "none": true, "none identified": true, "unknown": true,
	"undetermined": true, "not available": true,
}

// CountryCode returns the ISO 3166-1 alpha-2 code of a country name as the
// OFAC and UN lists write it. The lookup ignores case, diacritics,
// punctuation and a leading "the", so "Türkiye", "TURKEY" and "Turkey."
// agree; ok is false for names not in the table, which callers keep as given.
func CountryCode(name string) (code string, ok bool) {
	return country.Code(name)
}

// IsNullCountry reports whether a country field says "no country".
func IsNullCountry(name string) bool {
	return strings.TrimSpace(name) == "" || nullCountries[country.Key(name)]
}
