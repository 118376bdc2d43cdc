package normalize

import "testing"

func TestCommonNames(t *testing.T) {
	c := Common()
	for _, tc := range []struct {
		tok  string
		want float64
	}{
		{"kim", 0.215},
		{"pak", 0.084},
		{"nguyen", 0.38},
		{"mohammed", 0.05}, // a spelling of the muhammad class
		{"soleimani", 0},
		{"", 0},
	} {
		if got := c.Share(tc.tok); got != tc.want {
			t.Errorf("Share(%q) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}

func TestParseCommonNamesRefuses(t *testing.T) {
	for _, data := range []string{
		"0.2 ko family kim",                      // no colon
		"0.2 ko surname: kim",                    // kind
		"1.5 ko family: kim",                     // share out of range
		"x ko family: kim",                       // share not a number
		"0.2 ko family: Kim",                     // not folded
		"0.2 ko family:",                         // no spelling
		"0.2 ko family: kim\n0.1 ko family: kim", // on two lines
	} {
		if _, err := ParseCommonNames(data); err == nil {
			t.Errorf("ParseCommonNames(%q) accepted", data)
		}
	}
}

// TestCommonNamesAreCommon: the embedded table lists only names borne by
// 1 % of their culture or more (see commonnames.txt).
func TestCommonNamesAreCommon(t *testing.T) {
	for w, s := range Common().share {
		if s < 0.01 {
			t.Errorf("%s: share %v under 1 %%", w, s)
		}
	}
}
