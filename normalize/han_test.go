package normalize

import (
	"testing"

	"github.com/amlscreen/amlscreen/normalize/internal/hanread"
)

func TestHanFold(t *testing.T) {
	checkFold(t, map[string]string{
		"习近平":       "xi-jinping",
		"習近平":       "xi-jinping",  // traditional
		"欧阳娜娜":      "ouyang-nana", // compound surname
		"诸葛亮":       "zhuge-liang",
		"曾庆红":       "zeng-qinghong", // surname reading (not ceng)
		"单霁翔":       "shan-jixiang",  // (not dan)
		"华为":        "hua-wei",
		"中兴":        "zhongxing", // no surname first: one word
		"中国石油天然气集团": "zhongguoshiyoutianranqijituan",
		"贝拉克·奥巴马":   "beilake·aobama", // a foreign name: each part one word
		"华为技术有限公司":  "hua-weijishu youxiangongsi",
		"习 近平":      "xi jinping",
		"佐々木":       "zuozuomu", // 々 repeats
		"式䃨":        "shi 䃨",    // no reading: kept apart
	})
}

func TestHanPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		{"习近平", "Xi Jinping", 0},
		{"习近平", "Jinping Xi", 0},
		{"习近平", "XI Jin-ping", 0},
		{"习近平", "Xijinping", 0},
		{"習近平", "Xi Jinping", 0},
		{"李克强", "Li Keqiang", 0},
		{"毛泽东", "Mao Zedong", 0},
		{"胡锦涛", "Hu Jintao", 0},
		{"孟晚舟", "Meng Wanzhou", 0},
		{"任正非", "Ren Zhengfei", 0},
		{"薄熙来", "Bo Xilai", 0},
		{"郭文贵", "Guo Wengui", 0},
		{"王毅", "Wang Yi", 0},
		{"欧阳娜娜", "Ouyang Nana", 0},
		{"曾庆红", "Zeng Qinghong", 0},
		{"华为", "Huawei", 0},
		// One character apart: found only fuzzily.
		{"习近朋", "Xi Jinping", 1},
		// Foreign names written in characters are beyond the strict rule.
		{"贝拉克·奥巴马", "Barack Obama", notFound},
		// Different people.
		{"习近平", "Li Keqiang", notFound},
		{"胡锦涛", "Hu Jintao Jiang", notFound},
	})
}

// TestHanTable checks that the table reads back: known readings at both
// ends of its range and in the middle, and every reading plain letters.
// (internal/pinyingen's test checks the file against go-pinyin itself.)
func TestHanTable(t *testing.T) {
	known := map[rune]string{
		'\u3400': "qiu", '习': "xi", '近': "jin", '平': "ping", '中': "zhong",
		'国': "guo", '吕': "lu", '女': "nu", '\u9FA5': "yu", '\u4DB5': "chi", '\u9FFF': "xing", '\u9FFD': "",
	}
	for r, want := range known {
		if got := hanReading(r); got != want {
			t.Errorf("hanReading(%c U+%04X) = %q, want %q", r, r, got, want)
		}
	}
	n := 0
	for r := hanread.First; r <= hanread.Last; r++ {
		s := hanReading(r)
		if s != "" {
			n++
		}
		for _, c := range s {
			if c < 'a' || c > 'z' {
				t.Fatalf("hanReading(U+%04X) = %q: not plain letters", r, s)
			}
		}
	}
	if n < 20000 {
		t.Errorf("only %d characters have a reading", n)
	}
}
