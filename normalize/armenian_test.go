package normalize

import "testing"

func TestArmenianFold(t *testing.T) {
	checkFold(t, map[string]string{
		"Նիկոլ Փաշինյան":     "nikol pashinyan",
		"Երևան":              "yerevan", // ե at the start, և inside
		"Ոսկան":              "voskan",  // ո at the start
		"Հովհաննես":          "hovhannes",
		"Լևոն Տեր-Պետրոսյան": "levon ter-petrosyan",
		"ՓԱՇԻՆՅԱՆ":           "pashinyan",
		"Ռուբեն":             "ruben", // ու is u
		"և":                  "yev",
	})
}

func TestArmenianPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"Նիկոլ Փաշինյան", "Nikol Pashinyan", 0},
		{"Ռոբերտ Քոչարյան", "Robert Kocharyan", 0},
		{"Սերժ Սարգսյան", "Serzh Sargsyan", 0},
		{"Լևոն Տեր-Պետրոսյան", "Levon Ter-Petrosyan", 0},
		{"Վլադիմիր Պուտին", "Vladimir Putin", 0},
		{"Բարակ Օբամա", "Barack Obama", 1},
		// An older spelling, two edits and more away.
		{"Սերժ Սարգսյան", "Serzh Sarkisian", notFound},
		{"Նիկոլ Փաշինյան", "Robert Kocharyan", notFound},
	})
}
