package normalize

import "testing"

func TestKanaFold(t *testing.T) {
	checkFold(t, map[string]string{
		"しんぞう":        "shinzo", // long vowels written once
		"シンゾウ":        "shinzo", // katakana reads alike
		"とうきょう":       "tokyo",
		"おおの":         "ono",
		"ゆうこ":         "yuko",
		"きょうこ":        "kyoko", // small ya/yu/yo
		"ちゃ じゅ しょ":    "cha ju sho",
		"まっちゃ":        "matcha", // small tsu before ch
		"はっとり":        "hattori",
		"なんば":         "namba", // n before b, m, p
		"さんぺい":        "sampei",
		"かんの":         "kanno",
		"ファン":         "fan", // katakana for foreign sounds
		"ティム":         "timu",
		"ウォルター":       "woruta",
		"ヴィクトル":       "vikutoru",
		"シェリー":        "sheri",
		"ジェーン":        "jen",
		"ｶﾀｶﾅ":        "katakana", // half-width
		"ウラジーミル・プーチン": "urajimiru・puchin",
		"いすゞ":         "isusu", // iteration mark
		"株式会社トヨタ":     "zhushihuishe toyota",
		"アイヌ ㇷ゚":      "ainu f",
	})
}

func TestKanaPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"アベ シンゾウ", "Shinzo Abe", 0},
		{"スガ ヨシヒデ", "Yoshihide Suga", 0},
		{"いとう ひろぶみ", "Hirobumi Ito", 0},
		{"さとう えいさく", "Eisaku Sato", 0},
		{"コウノ タロウ", "Taro Kono", 0},
		{"キシダ フミオ", "Fumio Kishida", 0},
		{"アサハラ ショウコウ", "Shoko Asahara", 0},
		{"ナンバ", "Namba", 0},
		{"ハットリ", "Hattori", 0},
		{"バラク・オバマ", "Barack Obama", 2},
		// Beyond the strict rule: Aum is a foreign spelling, and katakana
		// adds vowels to foreign consonants.
		{"オウム シンリキョウ", "Aum Shinrikyo", notFound},
		{"ウラジーミル・プーチン", "Vladimir Putin", notFound},
		// Different people.
		{"アベ シンゾウ", "Taro Kono", notFound},
	})
}
