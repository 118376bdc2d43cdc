package media

// Functions only the tests call: the lexicon's whole-article
// classification and the mention rule over raw events, which the tests
// compare the production paths against.

// Categories returns the categories the lexicon can assign: the standard
// ones in their order, then others in file order.
func (l *Lexicon) Categories() []string {
	out := make([]string, len(l.order))
	for i, c := range l.order {
		out[i] = l.cats[c]
	}
	return out
}

// Classify returns the categories of an article with this headline and body
// (paragraphs in <p></p>), in the order of Categories.
func (l *Lexicon) Classify(headline, body string) []string {
	return l.classifyUnits(tokenize(headline, body))
}

// mentions reports whether the k query tokens can each be given a distinct
// position from events such that, in position order, neighbouring ones are
// at most MaxGap apart.
func mentions(events []event, k int) bool {
	masks := make([]uint32, len(events))
	for i, e := range events {
		masks[i] = e.mask
	}
	m := newMentionMatcher(masks, k)
	return m.mentions(events)
}
