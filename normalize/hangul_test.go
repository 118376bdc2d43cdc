package normalize

import "testing"

func TestHangulFold(t *testing.T) {
	checkFold(t, map[string]string{
		"김정은":  "kim jong-un",
		"최룡해":  "choe ryong-hae",
		"리병철":  "ri pyong-chol",
		"이재명":  "lee jae-myong", // 이 as the South writes it
		"남궁민":  "namgung-min",   // two-syllable surname
		"삼성전자": "samsongjonja",  // not a personal name: one word
		"평양":   "pyongyang",     // voiced inside a word
		"대구":   "taegu",
		"개성":   "kaesong",
		"부산":   "pu-san", // a surname first: read as a name
		"김철":   "kim-chol",
		"빨래":   "ppallae",    // ㄹ before ㄹ is ll
		"주식회사": "jusikhoesa", // a legal form is never a name
	})
}

func TestHangulPairs(t *testing.T) {
	checkPairs(t, []scriptPair{
		// North Korean names as sanctions lists write them.
		{"김정은", "Kim Jong Un", 0},
		{"김정은", "Kim Jong-un", 0},
		{"김정은", "Kim Jongun", 0},
		{"김정일", "Kim Jong Il", 0},
		{"김여정", "Kim Yo Jong", 0},
		{"최룡해", "Choe Ryong Hae", 0},
		{"박봉주", "Pak Pong Ju", 0},
		{"리병철", "Ri Pyong Chol", 0},
		{"조연준", "Jo Yon Jun", 0},
		{"황병서", "Hwang Pyong So", 0},
		{"리수용", "Ri Su Yong", 0},
		{"오극렬", "O Kuk Ryol", 0},
		{"김영철", "Kim Yong Chol", 0},
		{"현송월", "Hyon Song Wol", 0},
		{"김일성", "Kim Il Sung", 1},
		{"김철", "Kim Chol", 0},
		{"김철", "Kimchol", 0},
		{"한화", "Hanwha", 1},
		{"기아", "Kia", 0},
		{"태영호", "Thae Yong Ho", 1},
		// South Korean names in Revised Romanization or personal spellings:
		// an edit or two a syllable, more than the strict rule allows for
		// some; the scored mode compares them by sound.
		{"이재명", "Lee Jae-myung", 1},
		{"김대중", "Kim Dae-jung", 1},
		{"박근혜", "Park Geun-hye", 2},
		{"문재인", "Moon Jae-in", notFound},
		{"윤석열", "Yoon Suk-yeol", notFound},
		// 종 and 정 are both Jong in the lists' spelling, which has no
		// breves: the names cannot be told apart in Latin letters either.
		{"김종은", "Kim Jong Un", 0},
		// Different people.
		{"김정은", "Kim Jong Il", notFound},
		{"김정은", "Kim Yo Jong", notFound},
	})
}
