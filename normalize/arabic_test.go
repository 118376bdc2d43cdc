package normalize

import (
	"strings"
	"testing"
	"unicode"
)

func TestArabicFold(t *testing.T) {
	checkFold(t, map[string]string{
		// Letters, hamza forms, ta marbuta, alef maqsura.
		"أسامة بن لادن": "usama bin ladin",
		"مصطفى":         "mustafa",
		"موسى":          "musa",
		"فؤاد":          "fuad",
		"سلمان":         "salman", // one short vowel after the first consonant
		"مرزوق":         "marzuq",
		"حفتر":          "haftr",
		// The article: hyphenated, joined to عبد.
		"بشار الأسد":        "bashar al-assad",
		"الحسن":             "al-hassan",
		"عبد العزيز":        "abd-al-aziz",
		"عبدالعزيز":         "abd-al-aziz",
		"عبد الله":          "abdullah",
		"عبدالله":           "abdullah",
		"عبد الفتاح السيسي": "abd-al-fattah al-sisi",
		// Vowelled, tatweel and presentation forms read as the bare word.
		"مُحَمَّد": "muhammad",
		"محـــمد":  "muhammad",
		"ﻣﺤﻤﺪ":     "muhammad",
		// Initial alef with waw or ya is one vowel.
		"أوباما": "obama",
		"إيران":  "iran",
		// Persian and Urdu letters and usage.
		"قاسم سلیمانی":       "qasem soleimani",
		"محمد جواد ظریف":     "mohammad javad zarif",
		"پرویز مشرف":         "pervez musharraf",
		"مسعود پزشک\u200cفر": "masoud pazshkfr", // ZWNJ inside a word
		"چابهار":             "chabhar",         // Chabahar: the second short vowel is not written
		"ژاله":               "zhaleh",
		"گرگان":              "gargan",
		"بھٹو":               "bhutto",
		"ڈار":                "dar",
		// Pashto, Kurdish, and a letter read as the one it is drawn from.
		"ګلبدین حکمتیار": "galbdin hakmtyar",
		"ځدران":          "dzadran",
		"ښاغلی":          "shaghli",
		"ڕەحیم":          "rehim",
		"ݐب":             "bab",
		// Digits and punctuation.
		"١٢٣":         "123",
		"۱۲۳":         "123",
		"علي، حسن":    "ali، hassan",
		"ش.م.م":       "sh.m.m",
		"ش.م.ع.م":     "sh.m.a.m",
		"ACME شركة":   "acme sharka",
		"شركةACME":    "sharka acme",
		"الله":        "allah",
		"حسن نصرالله": "hassan nasrallah",
	})
}

func TestArabicPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"بشار الأسد", "Bashar al-Assad", 0},
		{"أيمن الظواهري", "Ayman al-Zawahiri", 0},
		{"أبو بكر البغدادي", "Abu Bakr al-Baghdadi", 0},
		{"أبو محمد الجولاني", "Abu Muhammad al-Julani", 0},
		{"مقتدى الصدر", "Muqtada al-Sadr", 0},
		{"صدام حسين", "Saddam Hussein", 0},
		{"حسن نصرالله", "Hassan Nasrallah", 0},
		{"محمد بن سلمان", "Muhammad bin Salman", 0},
		{"محمد بن سلمان", "Mohammed bin Salman", 2},
		{"عبد العزيز", "Abd al-Aziz", 0},
		{"عبد العزيز", "Abdulaziz", 1},
		{"عبد العزيز", "Abdelaziz", 1},
		{"أسامة بن لادن", "Usama bin Laden", 1},
		{"أسامة بن لادن", "Osama bin Laden", 1},
		{"معمر القذافي", "Muammar Qadhafi", 2},
		{"خالد مشعل", "Khaled Mashal", 1},
		{"رامي مخلوف", "Rami Makhlouf", 1},
		{"عزت إبراهيم الدوري", "Izzat Ibrahim al-Douri", 1},
		{"عبد الملك الحوثي", "Abdul-Malik al-Houthi", 2},
		{"خليفة حفتر", "Khalifa Haftar", 1},
		{"جبران باسيل", "Gebran Bassil", 2},
		{"باراك أوباما", "Barack Obama", 1},
		{"فلاديمير بوتين", "Vladimir Putin", 2},
		// Persian and Urdu.
		{"قاسم سلیمانی", "Qasem Soleimani", 0},
		{"علی خامنه\u200cای", "Ali Khamenei", 0},
		{"حسن روحانی", "Hassan Rouhani", 0},
		{"ابراهیم رئیسی", "Ebrahim Raisi", 0},
		{"مسعود پزشکیان", "Masoud Pezeshkian", 0},
		{"آصف علی زرداری", "Asif Ali Zardari", 0},
		{"نواز شریف", "Nawaz Sharif", 0},
		{"جلال\u200cالدین حقانی", "Jalaluddin Haqqani", 2},
		{"ملا محمد عمر", "Mullah Muhammad Umar", 0},
		// Out of the strict rule's reach, left to the scored mode: the
		// article the list leaves out, Abdul as a word of its own, the
		// Arabic spelling of a Persian name.
		{"بشار الأسد", "Bashar Assad", notFound},
		{"عبد العزيز", "Abdul Aziz", notFound},
		{"قاسم سليماني", "Qasem Soleimani", notFound},
		// Different people.
		{"أسامة بن لادن", "Hassan Nasrallah", notFound},
		{"محمد شريف السوداني", "Mohammed Shia al-Sudani", notFound},
		{"مسعود پزشک\u200cفر", "Masoud Pezeshkian", notFound},
	})
}

// TestArabicNameTable checks the table's form: every spelling plain lower
// case ASCII (or an al- word), no word twice.
func TestArabicNameTable(t *testing.T) {
	seen := map[string]int{}
	for i, line := range strings.Split(arabicNamesText, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(line, "#") {
			continue
		}
		if len(f) < 2 || len(f) > 3 {
			t.Errorf("line %d: %q: want a word and one or two spellings", i+1, line)
			continue
		}
		for _, sp := range f[1:] {
			for _, r := range sp {
				if !(r >= 'a' && r <= 'z' || r == '-') {
					t.Errorf("line %d: spelling %q is not lower-case ASCII", i+1, sp)
					break
				}
			}
		}
		for _, r := range f[0] {
			if scriptBlock(r) != arabicScript || !unicode.IsLetter(r) {
				t.Errorf("line %d: word %q has %q, not an Arabic-script letter", i+1, f[0], r)
				break
			}
		}
		k := string(arabicKey(nil, []rune(f[0])))
		if prev, dup := seen[k]; dup {
			t.Errorf("line %d: %q is keyed like line %d", i+1, f[0], prev)
		}
		seen[k] = i + 1
	}
}
