package sign

import (
	"errors"
	"strings"
	"testing"
)

func TestParseHeader(t *testing.T) {
	tests := []struct {
		name, h  string
		kid, sig string
		wantErr  string // substring; "" means valid
	}{
		{"canonical", "v1,kid=k-1,sig=MEUC", "k-1", "MEUC", ""},
		{"any order", "sig=MEUC,kid=k-1,v1", "k-1", "MEUC", ""},
		{"unknown parts ignored", "v1,kid=k-1,alg=ES256,t=1700000000,v2,sig=MEUC,x", "k-1", "MEUC", ""},
		{"spaces around parts", " v1 , kid = k-1 ,\tsig=MEUC ", "k-1", "MEUC", ""},
		{"value split at first =", "v1,kid=k:1,sig=ab=cd", "k:1", "ab=cd", ""},
		{"empty parts ignored", ",,v1,,kid=k,sig=s,", "k", "s", ""},
		{"missing v1", "kid=k-1,sig=MEUC", "", "", "no v1"},
		{"only v2", "v2,kid=k-1,sig=MEUC", "", "", "no v1"},
		{"v1 as key is not the version", "v1=1,kid=k-1,sig=MEUC", "", "", "no v1"},
		{"missing sig", "v1,kid=k-1", "", "", "no sig"},
		{"empty sig", "v1,kid=k-1,sig=", "", "", "no sig"},
		{"missing kid", "v1,sig=MEUC", "", "", "no kid"},
		{"keys are case-sensitive", "v1,KID=k-1,sig=MEUC", "", "", "no kid"},
		{"kid twice", "v1,kid=a,kid=b,sig=MEUC", "", "", "kid given twice"},
		{"sig twice", "v1,kid=a,sig=x,sig=y", "", "", "sig given twice"},
		{"empty", "", "", "", "no v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kid, sig, err := ParseHeader(tt.h)
			if tt.wantErr != "" {
				if err == nil || !errors.Is(err, ErrMalformedHeader) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseHeader(%q) = %q, %q, %v; want ErrMalformedHeader mentioning %q", tt.h, kid, sig, err, tt.wantErr)
				}
				return
			}
			if err != nil || kid != tt.kid || sig != tt.sig {
				t.Fatalf("ParseHeader(%q) = %q, %q, %v; want %q, %q", tt.h, kid, sig, err, tt.kid, tt.sig)
			}
		})
	}
}

func TestFormatHeaderParsesBack(t *testing.T) {
	der := []byte{0x30, 0x45, 0xff, 0xfe, 0x00}
	h := FormatHeader("k-2026-11-22T21-50-00Z-0a1b", der)
	if h != "v1,kid=k-2026-11-22T21-50-00Z-0a1b,sig=MEX__gA" {
		t.Fatalf("FormatHeader = %q", h)
	}
	kid, sig, err := ParseHeader(h)
	if err != nil || kid != "k-2026-11-22T21-50-00Z-0a1b" || sig != "MEX__gA" {
		t.Fatalf("ParseHeader(FormatHeader) = %q, %q, %v", kid, sig, err)
	}
}

// FuzzParseHeader checks that any header either fails cleanly or yields a
// kid and sig that survive being written out and read again unchanged.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{
		"v1,kid=k-1,sig=MEUC", "sig=a,kid=b,v1", "v1,kid=,sig=x", "v1,,=,==,kid==,sig===",
		" v1 ,kid = a b ,sig= c ", "v1,kid=a,kid=a,sig=b", "v2", "\x00v1,kid=\xff,sig=\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		kid, sig, err := ParseHeader(h)
		if err != nil {
			if !errors.Is(err, ErrMalformedHeader) {
				t.Fatalf("ParseHeader(%q): error %v does not wrap ErrMalformedHeader", h, err)
			}
			return
		}
		if kid == "" || sig == "" || strings.Contains(kid, ",") || strings.Contains(sig, ",") {
			t.Fatalf("ParseHeader(%q) = %q, %q", h, kid, sig)
		}
		kid2, sig2, err := ParseHeader("v1,kid=" + kid + ",sig=" + sig)
		if err != nil || kid2 != kid || sig2 != sig {
			t.Fatalf("reparse of %q, %q = %q, %q, %v", kid, sig, kid2, sig2, err)
		}
	})
}
