package media

import (
	"html"
	"strings"

	"github.com/amlscreen/amlscreen/normalize"
)

// MaxGap is the window of a mention: neighbouring name tokens, in position
// order, are at most this many positions apart (docs/MATCHING.md
// "Adverse media"), so "Ivan S. Petrov" and
// "Petrov, Ivan Sergeyevich" mention Ivan Petrov, and "Ivan met the new
// mayor, Mr Petrov" does not.
const MaxGap = 3

// unitGap separates the headline and the paragraphs in position space: a
// jump larger than MaxGap, so that no mention spans two of them.
const unitGap = MaxGap + 1

// units returns the text units of an article: the headline, then each
// paragraph of the body as plain text.
func units(headline, body string) []string {
	out := make([]string, 0, 8)
	if strings.TrimSpace(headline) != "" {
		out = append(out, html.UnescapeString(headline))
	}
	return appendParagraphs(out, body)
}

// appendParagraphs splits body at block-level tags (p, br, div, li,
// headings, blockquote) and drops every other tag, then decodes entities.
// Bodies are "<p></p> paragraphs" (docs/API.md "Media"), but feeds send all kinds
// of markup, and a tag must never glue two words together.
func appendParagraphs(out []string, body string) []string {
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, html.UnescapeString(s))
		}
		cur.Reset()
	}
	for {
		i := strings.IndexByte(body, '<')
		if i < 0 {
			cur.WriteString(body)
			break
		}
		cur.WriteString(body[:i])
		j := strings.IndexByte(body[i:], '>')
		if j < 0 || !startsTag(body[i+1:]) {
			// A '<' that opens no tag is text ("a < b").
			cur.WriteByte('<')
			body = body[i+1:]
			continue
		}
		tag := body[i+1 : i+j]
		body = body[i+j+1:]
		if isBlockTag(tag) {
			flush()
		} else {
			cur.WriteByte(' ')
		}
	}
	flush()
	return out
}

// startsTag reports whether s, the text after a '<', begins a tag: a
// letter, '/' or '!' (comments, doctype).
func startsTag(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!'
}

func isBlockTag(tag string) bool {
	tag = strings.TrimLeft(tag, "/ ")
	end := 0
	for end < len(tag) && (tag[end] >= 'a' && tag[end] <= 'z' || tag[end] >= 'A' && tag[end] <= 'Z' || tag[end] >= '0' && tag[end] <= '9') {
		end++
	}
	switch strings.ToLower(tag[:end]) {
	case "p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr", "table", "section", "article":
		return true
	}
	return false
}

// tokenUnit is one text unit tokenised, with the position of its first
// word.
type tokenUnit struct {
	toks normalize.Tokens
	base uint32
}

// tokenize tokenises every unit of an article and places them in one
// position space, unitGap apart.
func tokenize(headline, body string) []tokenUnit {
	us := units(headline, body)
	out := make([]tokenUnit, 0, len(us))
	var pos uint32
	for _, u := range us {
		t := normalize.Tokenize(u)
		if len(t.Words) == 0 {
			continue
		}
		out = append(out, tokenUnit{toks: t, base: pos})
		pos += uint32(len(t.Words)) + unitGap
	}
	return out
}

// forEachToken calls fn for every token an article is indexed under, with
// its position: each word; the joined form of each hyphenated compound at
// the position of its first part; and the canonical token of each legal
// form at the position of its first word.
func forEachToken(units []tokenUnit, fn func(tok string, pos uint32)) {
	for _, u := range units {
		for i, w := range u.toks.Words {
			fn(w, u.base+uint32(i))
		}
		for _, c := range u.toks.Compounds {
			fn(c.Joined, u.base+uint32(c.Start))
		}
		forEachLegalForm(u.toks.Words, func(canon string, at int) {
			fn(canon, u.base+uint32(at))
		})
	}
}

// forEachLegalForm finds the legal-form aliases in words, as the legal-form
// table rewrites them, and calls fn with each canonical token and the index
// of the alias's first word.
func forEachLegalForm(words []string, fn func(canon string, at int)) {
	lf := normalize.LegalForms()
	out := lf.Canonicalize(words)
	if len(out) == len(words) && !anyLegal(out) {
		return
	}
	// Canonicalize copies kept words and replaces each alias with one
	// token; walk both to find where each alias started and how long it was.
	i := 0
	for j, o := range out {
		if i >= len(words) {
			return
		}
		if !normalize.IsLegalForm(o) {
			if words[i] != o {
				return // not aligned (a Han or kana word was split): give up
			}
			i++
			continue
		}
		m := aliasLength(lf, words[i:], o, out[j+1:])
		if m == 0 {
			return
		}
		fn(o, i)
		i += m
	}
}

// aliasLength returns how many words at the start of words the alias that
// became canon spans, consistent with what follows it in the rewritten
// output, or 0 when none fits.
func aliasLength(lf *normalize.LegalFormTable, words []string, canon string, rest []string) int {
	const maxAliasWords = 8
	for m := 1; m <= len(words) && m <= maxAliasWords; m++ {
		c := lf.Canonicalize(words[:m])
		if len(c) != 1 || c[0] != canon {
			continue
		}
		switch {
		case len(rest) == 0:
			if m == len(words) {
				return m
			}
		case m < len(words) && (normalize.IsLegalForm(rest[0]) || rest[0] == words[m]):
			return m
		}
	}
	return 0
}

func anyLegal(toks []string) bool {
	for _, t := range toks {
		if normalize.IsLegalForm(t) {
			return true
		}
	}
	return false
}
