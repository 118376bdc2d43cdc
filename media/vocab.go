package media

import (
	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
)

// vocab is the bigram index of package dict over the corpus's terms, for
// fuzzy look-ups: the terms within a few edits of a query token are found
// without comparing it to every term. Legal-form tokens are left out: they
// pair exactly.
type vocab struct {
	d *dict.Dict
}

func newVocab() *vocab { return &vocab{d: dict.New()} }

// add indexes a term.
func (v *vocab) add(t string) {
	if normalize.IsLegalForm(t) {
		return
	}
	v.d.Index(v.d.Intern(t))
}

// lookup calls fn for every term that query token q may pair with under
// fuzzy_search=fuzzy (engine.AllowedEdits), q itself excluded. Look-ups
// may run concurrently with each other, not with add.
func (v *vocab) lookup(q string, fuzzy int, fn func(term string)) {
	radius := engine.MaxEdits(fuzzy, q)
	if radius == 0 {
		return
	}
	v.d.Lookup(q, radius, func(id uint32, dist int) {
		t := v.d.Token(id)
		if dist > 0 && dist <= engine.AllowedEdits(fuzzy, q, t) {
			fn(t)
		}
	})
}
