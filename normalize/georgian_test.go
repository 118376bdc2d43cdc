package normalize

import "testing"

func TestGeorgianFold(t *testing.T) {
	checkFold(t, map[string]string{
		"მიხეილ სააკაშვილი":  "mikheil saakashvili",
		"ედუარდ შევარდნაძე":  "eduard shevardnadze",
		"ირაკლი ღარიბაშვილი": "irakli gharibashvili",
		"ჭავჭავაძე":          "chavchavadze",
		"წერეთელი":           "tsereteli",
		"ყიფიანი":            "qipiani",
		"ᲡᲐᲐᲙᲐᲨᲕᲘᲚᲘ":         "saakashvili", // Mtavruli capitals
		"ⴑⴀⴀⴉⴀⴘⴅⴈⴊⴈ":         "saakashvili", // Nuskhuri
		"შ.პ.ს.":             "sh.p.s.",
	})
}

func TestGeorgianPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"მიხეილ სააკაშვილი", "Mikheil Saakashvili", 0},
		{"ბიძინა ივანიშვილი", "Bidzina Ivanishvili", 0},
		{"ედუარდ შევარდნაძე", "Eduard Shevardnadze", 0},
		{"ირაკლი ღარიბაშვილი", "Irakli Garibashvili", 1},
		{"ვლადიმერ პუტინი", "Vladimir Putin", 1},
		{"ბარაკ ობამა", "Barack Obama", 1},
		{"მიხეილ სააკაშვილი", "Bidzina Ivanishvili", notFound},
	})
}
