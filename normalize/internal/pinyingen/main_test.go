package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTableIsCurrent checks that normalize's committed Han reading table is
// what the generator makes from the go-pinyin version in go.mod: after a
// go-pinyin upgrade, run go generate ./normalize.
func TestTableIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../han_pinyin.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Table()) {
		t.Fatal("normalize/han_pinyin.bin differs from go-pinyin's dictionary: run go generate ./normalize")
	}
}

func TestToneless(t *testing.T) {
	tests := []struct{ in, want string }{
		{"zhōng,zhòng", "zhong"},
		{"lǚ", "lu"},
		{"nǚ", "nu"},
		{"xí", "xi"},
		{"ḿ", "m"},
		{"ǹg", "ng"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := toneless(tt.in); got != tt.want {
			t.Errorf("toneless(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
