package sign

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// HeaderName is the HTTP header that carries a body signature.
const HeaderName = "x-service-signature"

// ErrMalformedHeader reports a signature header that cannot be read: no
// "v1" part, no kid or sig, or a sig that is not base64url.
var ErrMalformedHeader = errors.New("malformed signature header")

// FormatHeader returns the header value for a DER signature made by key
// kid: "v1,kid=<kid>,sig=<base64url without padding>".
func FormatHeader(kid string, der []byte) string {
	return "v1,kid=" + kid + ",sig=" + base64.RawURLEncoding.EncodeToString(der)
}

// ParseHeader reads the kid and the (still encoded) sig of a signature
// header by the rules of docs/API.md "Keys and signatures": the value is split at commas, a
// part holding '=' is a key/value pair split at its first '=', and parts it
// does not know are ignored, so that later versions of the scheme can add
// parts. The bare part "v1" must be present. Whitespace around parts, keys
// and values is dropped, as HTTP allows around list elements. A kid or sig
// given twice is refused rather than guessing which one counts.
func ParseHeader(h string) (kid, sig string, err error) {
	var v1, haveKid, haveSig bool
	for part := range strings.SplitSeq(h, ",") {
		part = strings.TrimSpace(part)
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			if part == "v1" {
				v1 = true
			}
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "kid":
			if haveKid {
				return "", "", fmt.Errorf("%w: kid given twice", ErrMalformedHeader)
			}
			kid, haveKid = v, true
		case "sig":
			if haveSig {
				return "", "", fmt.Errorf("%w: sig given twice", ErrMalformedHeader)
			}
			sig, haveSig = v, true
		}
	}
	switch {
	case !v1:
		return "", "", fmt.Errorf("%w: no v1 part (unsupported scheme)", ErrMalformedHeader)
	case kid == "":
		return "", "", fmt.Errorf("%w: no kid", ErrMalformedHeader)
	case sig == "":
		return "", "", fmt.Errorf("%w: no sig", ErrMalformedHeader)
	}
	return kid, sig, nil
}
