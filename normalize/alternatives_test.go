package normalize

import (
	"slices"
	"testing"
)

// TestNameAlternatives pins where a name string writes two names: real
// names of the OFAC, UN and CSL lists and of the labelled pairs, and the
// abbreviations, dates and word alternatives that must stay whole.
func TestNameAlternatives(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// Two names in one.
		{"Al-Qa'ida/Islamic Army", []string{"Al-Qa'ida", "Islamic Army"}},
		{"Al Qa’ida/Islamic Army", []string{"Al Qa’ida", "Islamic Army"}},
		{"MAKHTAB AL-KHIDAMAT/AL KIFAH", []string{"MAKHTAB AL-KHIDAMAT", "AL KIFAH"}},
		{"NEW PEOPLE'S ARMY / COMMUNIST PARTY OF THE PHILIPPINES", []string{"NEW PEOPLE'S ARMY", "COMMUNIST PARTY OF THE PHILIPPINES"}},
		{"AL-ITIHAAD AL-ISLAMIYA / AIAI", []string{"AL-ITIHAAD AL-ISLAMIYA", "AIAI"}},
		{"TANZEEM QA'IDAT AL JIHAD/BILAD AL RAAFIDAINI", []string{"TANZEEM QA'IDAT AL JIHAD", "BILAD AL RAAFIDAINI"}},
		{"FUYI SUN A/K/A FRANK SUN", []string{"FUYI SUN", "FRANK SUN"}},
		{"SIBERIAN AIRLINES D/B/A S7 AIRLINES", []string{"SIBERIAN AIRLINES", "S7 AIRLINES"}},
		{"Alpha Beta Trading / Gamma Delta / Epsilon Zeta", []string{"Alpha Beta Trading", "Gamma Delta", "Epsilon Zeta"}},
		// Abbreviations: a single letter at the slash.
		{"Nordic Shipping A/S", nil},
		{"Banco Ejemplo S/A", nil},
		{"John Smith c/o Jane Doe", nil},
		{"Ahmed Khan s/o Mohammed Khan", nil},
		{"Fatima Bibi d/o Ali Khan", nil},
		{"Sana Begum w/o Imran Ali", nil},
		{"M/S OSAMA KHAIRY HAFEZ TRADING EST.", nil},
		{"KOREA RYENHA MACHINERY J/V CORPORATION", nil},
		{"GOLDEN SUN I/E DALIAN CO., LTD.", nil},
		{"R/E OF AUDREY FARM", nil},
		{"DHKP/C", nil},
		// Dates and numbers.
		{"Born 12/05/1990 Ltd", nil},
		{"Department 140/14", nil},
		// One word of two offered, or an acronym: one name.
		{"REVOLUTIONARY PEOPLE'S LIBERATION PARTY/FRONT", nil},
		{"CHINA NATIONAL PRECISION MACHINERY IMPORT/EXPORT CORPORATION", nil},
		{"China National Plant Import/Export Co.", nil},
		{"7TH OF TIR INDUSTRIES OF ISFAHAN/ESFAHAN", nil},
		{"FRONT FOR THE CONQUEST OF SYRIA/THE LEVANT", nil},
		{"HARAKAT UL-JIHAD-I-ISLAMI/BANGLADESH", nil},
		{"Lord’s Resistance Movement/Army (LRM/A)", nil},
		{"EBLA TRADE SERVICES S.A.L./OFF-SHORE", nil},
		{"ADF/NALU", nil},
		{"JOUMAA MLO/DTO", nil},
		{"LLC ELECTROCOM VPK VPK/OOO/LLC/SPB", nil},
		{"No slash at all", nil},
		{"/", nil},
		{"Alpha Beta /", nil},
	} {
		if got := NameAlternatives(c.in); !slices.Equal(got, c.want) {
			t.Errorf("NameAlternatives(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
