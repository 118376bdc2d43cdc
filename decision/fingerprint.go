package decision

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"github.com/amlscreen/amlscreen/record"
)

// fingerprintHex is the length of a fingerprint: the first 16 bytes of a
// SHA-256, in hexadecimal. A change detector, not a signature: 128 bits
// leave no practical chance of two contents sharing one.
const fingerprintHex = 32

// Content is the fingerprint of a record's whole content: every attribute,
// the ones this version does not know included, as the record's JSON
// writes them (attributes in a fixed order, unknown ones sorted by key).
// Any change to the record, a remark or an address too, changes it.
func Content(r *record.Record) string {
	h := sha256.Sum256(r.Append(nil, record.WriteOptions{Case: record.Camel}))
	return hex.EncodeToString(h[:fingerprintHex/2])
}

// Identity is the fingerprint of what names a record's subject: its name
// strings (name, tl_name, given, last, alias and alias given names), dates
// of birth and citizenships. Lists are taken as sets (their order does not
// count), values exactly as written (a change of case counts).
// Monitoring notifies an UPDATE of a record decided false_positive only
// when this changed.
func Identity(r *record.Record) string {
	h := sha256.New()
	field := func(name string, values ...string) {
		vs := slices.Clone(values)
		slices.Sort(vs)
		// Length-prefixed, so that no value can pass for two.
		h.Write(binary.AppendUvarint([]byte(name), uint64(len(vs))))
		for _, v := range vs {
			h.Write(binary.AppendUvarint(nil, uint64(len(v))))
			h.Write([]byte(v))
		}
	}
	field("name", r.Name)
	field("tl_name", r.TLName)
	field("given_names", r.GivenNames...)
	field("last_names", r.LastNames...)
	field("alias_names", r.AliasNames...)
	field("alias_given_names", r.AliasGivenNames...)
	field("date_of_birth", r.DateOfBirth...)
	field("citizenship", r.Citizenship...)
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:fingerprintHex/2])
}

func validFingerprint(s string) bool {
	if len(s) != fingerprintHex {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
