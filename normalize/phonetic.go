package normalize

// This file holds the phonetic keys of the scored match mode: two
// spellings of one name written down by different people, in different
// transliteration schemes, tend to agree on how the name sounds, and
// closely on its consonants. The keys are made for names romanised from
// Arabic, Persian, Russian, Ukrainian, Turkish and the like, not for
// English words (Soundex and Metaphone are): they forget the differences
// that transliteration schemes disagree on and keep the rest.
//
// The keys only say which tokens may be compared; the scored matcher then
// measures how close the two spellings are (engine, scored mode), so a key
// that lumps two different names together costs precision in one pair, not
// a hit.

// Key symbols that stand for a sound written with two or more letters in
// some schemes. Upper case, so that no folded letter collides with them.
const (
	keySh = 'S' // sh, sch, sz (ш)
	// keyJ is j, dj, dzh, zh, ch, tch, tsch and cz: the affricates that one
	// scheme writes ch and another j (Korean 장 Jang and Chang, Wade–Giles
	// Chang for pinyin Zhang, Arabic ج as j, dj or dzh, Russian ч as ch or
	// tch).
	keyJ  = 'J'
	keyCh = keyJ
)

// PhoneticKeys returns the sound key and the consonant skeleton of a
// folded token, both "" when the token has no key (anything but the
// letters a to z, or fewer than two consonants: "ali" and "li" are too
// short to say anything by sound).
//
// The sound key rewrites the letter groups that transliteration schemes
// write differently to one symbol (kh→h, gh→g, ph→f, th→t, dh→d,
// sh/sch→S, ch/tch/zh/dj/dzh/j→J, ck/q→k, c→k or s, x→ks, w→v), drops a
// final h after a vowel (Abdullah, Abdulla), writes every run of vowels
// (y included) as one "a" and every doubled letter once. So Mikhaylovich
// and Mikhailovich, Soleimany and Soleimani, Muhammad and Mohamed,
// Yevgeniy and Evgenii share their keys.
//
// The skeleton is the sound key without vowels, after an "a" when the
// token starts with a vowel, with the consonants that scripts without the
// distinction write alike merged (b/p, f/v, s/z, l/r, d/t). Aleksandr,
// Alexander and Oleksandr share the skeleton "arksntr"; Ahmad ("ahmt")
// and Hamid ("hmt") do not, since a leading vowel is kept.
func PhoneticKeys(tok string) (sound, skeleton string) { return phoneticKeys(tok) }

// skeletonClass merges in the skeleton the consonants that a script
// without the distinction writes with one letter: Arabic and Persian have
// no p or v (Pepsi, Villena come back as b and f), Japanese and Korean no
// l against r, and many schemes mix s and z, d and t.
var skeletonClass = map[byte]byte{'p': 'b', 'v': 'f', 'z': 's', 'l': 'r', 'd': 't'}

func isVowelByte(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// phoneticKeys computes the sound key and the skeleton of tok in one
// pass.
func phoneticKeys(tok string) (string, string) {
	n := len(tok)
	if n < 3 || n > 48 {
		return "", ""
	}
	for i := 0; i < n; i++ {
		if c := tok[i]; c < 'a' || c > 'z' {
			return "", ""
		}
	}
	var buf [96]byte
	out := buf[:0]
	emit := func(c byte) {
		if isVowelByte(c) {
			c = 'a'
		}
		if len(out) > 0 && out[len(out)-1] == c {
			return // doubled letters and vowel runs count once
		}
		out = append(out, c)
	}
	for i := 0; i < n; {
		i += soundRule(tok, i, emit)
	}
	consonants := 0
	for _, c := range out {
		if c != 'a' {
			consonants++
		}
	}
	if consonants < 2 {
		return "", ""
	}
	return string(out), soundSkeleton(out, consonants)
}

// soundRule emits the sound key letters of the letters of tok at i and
// returns how many letters they are: each rule reads the letters around
// the current one.
func soundRule(tok string, i int, emit func(byte)) int {
	c := tok[i]
	switch c {
	case 'k':
		if byteAt(tok, i+1) == 'h' {
			emit('h')
			return 2
		}
	case 'g', 'd':
		if c == 'd' && hasAt(tok, i, "dzh") {
			emit(keyJ)
			return 3
		}
		if c == 'd' && byteAt(tok, i+1) == 'j' {
			emit(keyJ)
			return 2
		}
		if byteAt(tok, i+1) == 'h' {
			emit(c)
			return 2
		}
	case 'p':
		if byteAt(tok, i+1) == 'h' {
			emit('f')
			return 2
		}
	case 't':
		if hasAt(tok, i, "tsch") {
			emit(keyCh)
			return 4
		}
		if hasAt(tok, i, "tch") {
			emit(keyCh)
			return 3
		}
		if byteAt(tok, i+1) == 'h' {
			emit('t')
			return 2
		}
		if byteAt(tok, i+1) == 'z' {
			emit('z')
			return 2
		}
	case 's':
		if hasAt(tok, i, "sch") {
			emit(keySh)
			return 3
		}
		if byteAt(tok, i+1) == 'h' || byteAt(tok, i+1) == 'z' {
			emit(keySh)
			return 2
		}
	case 'z':
		if byteAt(tok, i+1) == 'h' {
			emit(keyJ)
			return 2
		}
	case 'c':
		switch byteAt(tok, i+1) {
		case 'h', 'z':
			emit(keyCh)
			return 2
		case 'k':
			emit('k')
			return 2
		case 'e', 'i', 'y':
			emit('s')
			return 1
		}
		emit('k')
		return 1
	case 'q':
		emit('k')
		if byteAt(tok, i+1) == 'u' && isVowelByte(byteAt(tok, i+2)) {
			return 2
		}
		return 1
	case 'x':
		emit('k')
		emit('s')
		return 1
	case 'w':
		emit('v')
		return 1
	case 'j':
		emit(keyJ)
		return 1
	case 'h':
		// A final h after a vowel is silent: Abdullah, Fatimah, Usamah.
		if i == len(tok)-1 && i > 0 && isVowelByte(tok[i-1]) {
			return 1
		}
	}
	emit(c)
	return 1
}

// byteAt returns tok[i], 0 past its end.
func byteAt(tok string, i int) byte {
	if i < len(tok) {
		return tok[i]
	}
	return 0
}

// hasAt reports whether tok holds s at i.
func hasAt(tok string, i int, s string) bool {
	return i+len(s) <= len(tok) && tok[i:i+len(s)] == s
}

// soundSkeleton returns the consonants of the sound key out (consonants of
// them), in their classes, a leading vowel kept as 'a'.
func soundSkeleton(out []byte, consonants int) string {
	skel := make([]byte, 0, consonants+1)
	if out[0] == 'a' {
		skel = append(skel, 'a')
	}
	for _, c := range out {
		if c == 'a' {
			continue
		}
		if m, ok := skeletonClass[c]; ok {
			c = m
		}
		if len(skel) > 0 && skel[len(skel)-1] == c {
			continue // p and b of "pb" are one consonant now
		}
		skel = append(skel, c)
	}
	return string(skel)
}
