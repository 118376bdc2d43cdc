package normalize

// Name is a name string tokenised for matching.
type Name struct {
	// Tokens are the words (legal forms canonicalised when asked) followed
	// by the joined form of each hyphenated compound.
	Tokens []string
	// Base counts the leading tokens that are words of the name; the
	// joined compounds after them are alternative spellings and do not count
	// as extra tokens when ranking.
	Base int
}

// RecordName tokenises a record's name string. With legal set (records that
// are not individuals), legal-form terms become their canonical token.
func RecordName(s string, legal bool) Name {
	t := Tokenize(s)
	words := t.Words
	if legal {
		words = LegalForms().Canonicalize(words)
	}
	n := Name{Tokens: words, Base: len(words)}
	if len(t.Compounds) > 0 {
		n.Tokens = append(append(make([]string, 0, len(words)+len(t.Compounds)), words...), joinedTokens(t, legal)...)
	}
	return n
}

func joinedTokens(t Tokens, legal bool) []string {
	out := make([]string, 0, len(t.Compounds))
	for _, c := range t.Compounds {
		j := []string{c.Joined}
		if legal {
			j = LegalForms().Canonicalize(j)
		}
		out = append(out, j[0])
	}
	return out
}

// QueryVariants tokenises a query: one token list per spelling of its
// hyphenated compounds (see Tokens.Variants), legal forms canonicalised when
// legal is set, duplicates removed. A query matches a name string when one
// of its variants does.
func QueryVariants(s string, legal bool) [][]string {
	vs := Tokenize(s).Variants()
	if !legal && len(vs) == 1 {
		return vs
	}
	out := make([][]string, 0, len(vs))
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		if legal {
			v = LegalForms().Canonicalize(v)
		}
		k := joinKey(v)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
	}
	return out
}

func joinKey(v []string) string {
	n := 0
	for _, s := range v {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range v {
		b = append(b, s...)
		b = append(b, 0)
	}
	return string(b)
}
