package normalize

import (
	"testing"

	"github.com/amlscreen/amlscreen/normalize/internal/hanread"
	"github.com/mozillazg/go-pinyin"
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

// TestHanTableMatchesGoPinyin checks the reading of every character in the
// table against go-pinyin's dictionary (first reading, toneless).
func TestHanTableMatchesGoPinyin(t *testing.T) {
	n := 0
	for r := hanread.First; r <= hanread.Last; r++ {
		want := ""
		if v, ok := pinyin.PinyinDict[int(r)]; ok {
			want = hanread.Toneless(v)
		}
		if got := hanReading(r); got != want {
			t.Errorf("%c (U+%04X): %q, go-pinyin %q", r, r, got, want)
			if n++; n > 10 {
				t.FailNow()
			}
		}
	}
}
