package normalize

import "testing"

// benchNames are record names in each kind of text Fold meets: ASCII (the
// fast path, most of every list), Latin with diacritics, Cyrillic, and each
// script romanised by runs.
var benchNames = []struct{ kind, name string }{
	{"ascii-lower", "vladimir vladimirovich putin"},
	{"ascii", "PUTIN, Vladimir Vladimirovich"},
	{"latin", "Vladimír Vladímirovič Pútín"},
	{"cyrillic", "Путин Владимир Владимирович"},
	{"arabic", "عبد العزيز بن محمد الحسن"},
	{"persian", "محمد جواد ظریف"},
	{"hebrew", "בנימין נתניהו"},
	{"han", "习近平"},
	{"hangul", "김정은"},
	{"kana", "ウラジーミル・プーチン"},
	{"georgian", "მიხეილ სააკაშვილი"},
	{"armenian", "Նիկոլ Փաշինյան"},
}

// BenchmarkFold measures Fold on one name of each kind: time and
// allocations per name.
func BenchmarkFold(b *testing.B) {
	for _, n := range benchNames {
		b.Run(n.kind, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Fold(n.name)
			}
		})
	}
}

// BenchmarkAppendWords measures the tokenising a build does for each name
// string of each record.
func BenchmarkAppendWords(b *testing.B) {
	for _, n := range benchNames {
		b.Run(n.kind, func(b *testing.B) {
			b.ReportAllocs()
			dst := make([]string, 0, 16)
			for b.Loop() {
				dst = AppendWords(dst[:0], n.name)
			}
		})
	}
}
