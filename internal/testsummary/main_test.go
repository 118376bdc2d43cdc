package main

import (
	"os"
	"strings"
	"testing"
)

// The fixtures in testdata are real go test -json output of a small module
// (a passing, a failing, a skipping and a panicking test, subtests, a
// package that does not compile and one without tests), with its
// directory renamed.

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string // a file in testdata, or the text itself
		ok    bool
		want  []string // in this order
		not   []string
	}{
		{
			name: "mixed", input: "testdata/mixed.json", ok: false,
			want: []string{
				"=== failures",
				"--- build of example.com/tsmod/bad [example.com/tsmod/bad.test] failed:",
				`cannot use "s" (untyped string constant)`,
				"--- example.com/tsmod/good TestFail:",
				"good_test.go:9: want 2, got 3",
				"--- example.com/tsmod/panics TestPanics:",
				"panic: assignment to entry in nil map",
				"=== skipped tests (2)",
				"example.com/tsmod/good TestSkip: good_test.go:12: needs ../shared/lists: absent",
				"example.com/tsmod/good TestSub/two: good_test.go:16: no chromium",
				"FAIL\texample.com/tsmod/bad [build failed]",
				"?   \texample.com/tsmod/notests\t[no test files]",
				"FAIL\texample.com/tsmod/panics",
				"3 passed, 2 failed, 2 skipped\n",
			},
			not: []string{"TestPass", "--- SKIP"},
		},
		{
			name: "passing", input: "testdata/passing.json", ok: true,
			want: []string{
				"=== skipped tests (2)",
				"TestSkip: good_test.go:12: needs ../shared/lists: absent",
				"ok  \texample.com/tsmod/good",
				"3 passed, 0 failed, 2 skipped\n",
			},
			not: []string{"=== failures"},
		},
		{
			name: "a package fails outside its tests",
			input: `{"Action":"start","Package":"p"}
{"Action":"output","Package":"p","Output":"TestMain: cannot open fixtures\n"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p"}
`,
			ok:   false,
			want: []string{"--- p:\n    TestMain: cannot open fixtures\n", "FAIL\tp\t0.01s", "0 passed, 0 failed, 0 skipped"},
			not:  []string{"    FAIL\n"},
		},
		{
			name: "no events", input: "go: cannot find main module\n", ok: false,
			want: []string{"go: cannot find main module", "no test events read"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.input
			if strings.HasPrefix(in, "testdata/") {
				raw, err := os.ReadFile(in)
				if err != nil {
					t.Fatal(err)
				}
				in = string(raw)
			}
			var out strings.Builder
			ok, err := summarize(strings.NewReader(in), &out)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			got := out.String()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Errorf("no %q (after offset %d) in:\n%s", w, at, got)
					continue
				}
				at += i + len(w)
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%q in:\n%s", n, got)
				}
			}
		})
	}
}
