package normalize

import (
	_ "embed"
	"encoding/binary"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/normalize/internal/hanread"
)

// Han characters are read in Mandarin pinyin without tones (the first
// reading of go-pinyin's dictionary, built into han_pinyin.bin by
// internal/pinyingen). A Chinese personal name is written as Latin lists
// write it: the surname as one word and the given name's syllables joined
// as another (习近平 → xi-jinping: xi, jinping and xijinping; 欧阳娜娜 →
// ouyang-nana). A run is read
// as a personal name when it has two to four characters and starts with a
// known surname (a compound surname when it has three or four); surnames
// read in their surname reading (曾 zeng, 单 shan, 解 xie). The two words
// are joined by a hyphen (xi-jinping), so that the hyphen rule also
// indexes the joined form: a company's short name that starts with a
// surname character still finds its Latin spelling (华为 → hua-wei, found
// by Huawei), and Xijinping finds Xi Jinping. Any other run,
// and a foreign name written with a middle dot (贝拉克·奥巴马), is one word
// of joined syllables (beilake aobama). Kanji in Japanese names are read
// the Chinese way too: their Japanese readings need a name dictionary,
// a limitation written in docs/MATCHING.md "Text normalisation". Characters outside the table (CJK
// Extension B and later) are kept as they are.

//go:generate go run ./internal/pinyingen -o han_pinyin.bin

//go:embed han_pinyin.bin
var hanPinyinFile []byte

var (
	hanOnce      sync.Once
	hanSyllables []string
	hanIndex     []byte // uint16 per code point from hanread.First
)

func loadHanTable() {
	hanOnce.Do(func() {
		d := hanPinyinFile
		n := int(binary.LittleEndian.Uint16(d))
		d = d[2:]
		hanSyllables = make([]string, n+1)
		for i := 1; i <= n; i++ {
			l := int(d[0])
			hanSyllables[i] = string(d[1 : 1+l])
			d = d[1+l:]
		}
		hanIndex = d
	})
}

// hanReading returns the toneless pinyin of r, "" when the table has none.
func hanReading(r rune) string {
	if r < hanread.First || r > hanread.Last {
		return ""
	}
	loadHanTable()
	i := int(r-hanread.First) * 2
	return hanSyllables[binary.LittleEndian.Uint16(hanIndex[i:])]
}

// hanSurnames are the common single-character surnames, simplified and
// traditional: a run of two to four characters that starts with one is a
// personal name.
const hanSurnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁胥南班储原栗燕楚鄢劳谌奚皮粟冼蔺楼盘满闻位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣晋相初门云容敬来扈晁芮都普阙浦戈伏鹿薄邸雍辜羊阿乌母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银亢嵇公哈湛宾戎勾茅利於呼居揭干但尉冶斯元束檀衣信展阴昝智幸奉植衡富尧闭由习" +
	"張劉陳楊黃趙吳孫馬羅鄭謝許韓馮鄧蕭葉蘇呂盧鍾譚陸賈韋鄒閆龍陶賀顧龔萬錢嚴湯溫齊喬龐顏莊聶魯歐關蘭寧紀畢單駱藍靳鮑饒陽時農繆簡車項連蘆麥婁竇黨宮費衛應閔鄔邊師欒榮鞏遲鄺談荊樂儲勞諶藺樓盤滿聞厲區闞權強帥樸蓋練豐國計晉門雲來闕鄧辜烏裘況鮮諸戰銀賓陰堯閉習"

// hanCompoundSurnames are the two-character surnames, written as one word.
var hanCompoundSurnames = map[string]string{
	"欧阳": "ouyang", "歐陽": "ouyang", "司马": "sima", "司馬": "sima",
	"上官": "shangguan", "诸葛": "zhuge", "諸葛": "zhuge", "东方": "dongfang",
	"東方": "dongfang", "皇甫": "huangfu", "尉迟": "yuchi", "尉遲": "yuchi",
	"公孙": "gongsun", "公孫": "gongsun", "慕容": "murong", "长孙": "zhangsun",
	"長孫": "zhangsun", "宇文": "yuwen", "司徒": "situ", "夏侯": "xiahou",
	"轩辕": "xuanyuan", "軒轅": "xuanyuan", "令狐": "linghu", "端木": "duanmu",
	"澹台": "tantai", "万俟": "moqi", "萬俟": "moqi", "单于": "chanyu",
	"單于": "chanyu", "申屠": "shentu", "钟离": "zhongli", "鍾離": "zhongli",
	"闻人": "wenren", "聞人": "wenren", "南宫": "nangong", "南宮": "nangong",
	"西门": "ximen", "西門": "ximen", "呼延": "huyan", "赫连": "helian",
	"赫連": "helian", "百里": "baili", "东郭": "dongguo", "東郭": "dongguo",
}

// hanSurnameReading is the surname reading of characters whose most common
// reading is another.
var hanSurnameReading = map[rune]string{
	'曾': "zeng", '单': "shan", '單': "shan", '解': "xie", '仇': "qiu",
	'区': "ou", '區': "ou", '朴': "piao", '樸': "piao", '查': "zha",
	'盖': "ge", '蓋': "ge", '乐': "yue", '樂': "yue", '覃': "qin",
	'缪': "miao", '繆': "miao", '种': "chong", '翟': "zhai", '召': "shao",
	'员': "yun", '秘': "bi", '尉': "yu", '长': "zhang", '長': "zhang",
	'重': "chong", '柏': "bai", '藏': "zang", '纪': "ji", '紀': "ji",
	'莫': "mo", '沈': "shen", '薄': "bo", '贲': "ben", '华': "hua",
	'華': "hua", '任': "ren", '阚': "kan", '闞': "kan", '冼': "xian",
	'那': "na", '都': "du", '相': "xiang", '宿': "su", '干': "gan",
}

// foreignNameDots reports whether the Han run s[i:end] stands beside a
// middle dot, the mark that separates the parts of a foreign name written
// in Chinese (贝拉克·奥巴马).
func foreignNameDots(s string, i, end int) bool {
	isDot := func(r rune) bool {
		return r == 0x00B7 || r == 0x30FB || r == 0x2027 || r == 0x2022 || r == 0xFF65 || r == 0x2E31
	}
	if r, _ := utf8.DecodeLastRuneInString(s[:i]); isDot(r) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[end:])
	return isDot(r)
}

func writeHan(b *strings.Builder, run string, foreign bool) {
	plain := func(word string) {
		var buf [16]rune
		w := buf[:0]
		for _, r := range word {
			w = append(w, r)
		}
		writeHanSyllables(b, w, 0)
	}
	name := func(word string) {
		if foreign {
			plain(word)
			return
		}
		var buf [16]rune
		w := buf[:0]
		for _, r := range word {
			w = append(w, r)
		}
		if n := len(w); n >= 2 && n <= 4 {
			if n >= 3 {
				var kb [16]byte
				if s, ok := hanCompoundSurnames[string(appendRunes(kb[:0], w[:2]))]; ok {
					b.WriteString(s)
					b.WriteByte('-')
					writeHanSyllables(b, w[2:], w[1])
					return
				}
			}
			if strings.ContainsRune(hanSurnames, w[0]) {
				if s, ok := hanSurnameReading[w[0]]; ok {
					b.WriteString(s)
				} else {
					writeHanSyllables(b, w[:1], 0)
				}
				b.WriteByte('-')
				writeHanSyllables(b, w[1:], w[0])
				return
			}
		}
		writeHanSyllables(b, w, 0)
	}
	writeWords(b, run, func(word string) { writeCJKWord(b, word, name, plain) })
}

// writeHanSyllables writes the readings of w joined; 々 repeats the
// character before it (prev for the first). A character without a reading
// is kept as it is, set apart from romanised letters by spaces so that
// folding the result again changes nothing.
func writeHanSyllables(b *strings.Builder, w []rune, prev rune) {
	wrote, raw := false, false // something written; the last was a kept character
	for _, r := range w {
		if r == '々' {
			r = prev
		}
		prev = r
		if r == 0 {
			continue
		}
		s := hanReading(r)
		if wrote && raw != (s == "") {
			b.WriteByte(' ')
		}
		if s != "" {
			b.WriteString(s)
		} else {
			b.WriteRune(r)
		}
		wrote, raw = true, s == ""
	}
}
