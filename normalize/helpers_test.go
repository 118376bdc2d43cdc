package normalize

// Key returns the key of class c ("muhammad"), or "" for 0 or an unknown
// class.
func (v *NameVariants) Key(c int32) string {
	if c < 1 || int(c) > len(v.keys) {
		return ""
	}
	return v.keys[c-1]
}

// Spellings returns the spellings of class c in the table's order (nil
// for 0 or an unknown class). The slice is shared: read only.
func (v *NameVariants) Spellings(c int32) []string {
	if c < 1 || int(c) > len(v.members) {
		return nil
	}
	return v.members[c-1]
}

// Len returns the number of classes.
func (v *NameVariants) Len() int { return len(v.keys) }

// Classes returns the canonical token of every class, in table order.
func (t *LegalFormTable) Classes() []string { return t.classes }

// SoundKey returns the sound key of tok (see PhoneticKeys).
func SoundKey(tok string) string {
	k, _ := phoneticKeys(tok)
	return k
}

// Skeleton returns the consonant skeleton of tok (see PhoneticKeys).
func Skeleton(tok string) string {
	_, s := phoneticKeys(tok)
	return s
}
