package normalize

import "testing"

func TestHebrewFold(t *testing.T) {
	checkFold(t, map[string]string{
		"משה":      "moshe", // from the name table
		"מֹשֶׁה":   "moshe", // pointed
		"אברהם":    "avraham",
		"רבין":     "rabin",     // bet after a consonant is hard
		"לפיד":     "lapid",     // so is pe
		"פוטין":    "potin",     // vav between consonants is a vowel
		"סמוטריץ'": "samotrich", // geresh: tsadi with geresh is ch
		"ג'ורג'":   "jorj",
		"שרה":      "sarah",
		"ברק":      "bark",
		"בן-גביר":  "ben-gabir",
		"בן־גביר":  "ben־gabir", // the maqaf, a hyphen to Tokenize
		"בע״מ":     "bam",
		"װײַס":     "veys", // Yiddish ligatures (Weiss)
	})
}

func TestHebrewPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"אריאל שרון", "Ariel Sharon", 0},
		{"גולדה מאיר", "Golda Meir", 0},
		{"יצחק רבין", "Yitzhak Rabin", 0},
		{"יאיר לפיד", "Yair Lapid", 0},
		{"אהוד ברק", "Ehud Barak", 1},
		{"משה דיין", "Moshe Dayan", 1},
		{"מנחם בגין", "Menachem Begin", 1},
		{"בצלאל סמוטריץ'", "Bezalel Smotrich", 1},
		{"ולדימיר פוטין", "Vladimir Putin", 1},
		// Vowels the letters do not write, beyond the strict rule.
		{"בנימין נתניהו", "Benjamin Netanyahu", notFound},
		{"שמעון פרס", "Shimon Peres", notFound},
		// Different people.
		{"אריאל שרון", "Ehud Barak", notFound},
	})
}
