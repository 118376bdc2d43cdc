package main

import (
	"strings"
	"testing"
)

// TestMessages: usage errors say what is wrong with the value and what
// to do instead (issue 27, item 11). Each row is a command line a new
// user typed and the words the answer must hold; all exit 2.
func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		// A source id with a space: which character, and a spelling
		// that works.
		{[]string{"convert", "csv", "--in", "x.csv", "--out", "x.jsonl", "--source-id", "my bank", "--source-type", "OTHER"},
			[]string{`--source-id: "my bank"`, "a space at byte 2", `"my_bank"`}},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %q", tc.args, code, exitUsage, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q has no %q", tc.args, stderr, w)
			}
		}
	}
}
