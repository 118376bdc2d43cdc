package ui

import (
	"fmt"
	"html/template"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// pageNames are the templates, each rendered inside templates/layout.html.
var pageNames = []string{"signin", "screen", "record", "monitoring", "data", "message", "queue", "alert", "summary", "audit", "changes"}

// parsedPages is parsePages run once per process: the templates are the
// embedded files, the same for every handler, and html/template executes
// one parsed set from many goroutines.
var parsedPages = sync.OnceValue(parsePages)

// parsePages parses every page with the layout. html/template escapes
// everything a page shows for its context (text, attribute, URL), so a
// record named <script> is text; no value is ever marked as safe HTML.
func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"statusLabel": statusLabel,
		"statusClass": func(s string) string { return "status-" + strings.ReplaceAll(s, "_", "-") },
		"when":        when,
		"day":         func(t time.Time) string { return t.UTC().Format("2 Jan 2006") },
		"typeClass":   func(s string) string { return "type-" + strings.ToLower(s) },
		"words":       words,
		"join":        strings.Join,
		"recordURL": func(id, subject, back string) string {
			v := url.Values{"id": {id}}
			if subject != "" {
				v.Set("subject", subject)
			}
			if back != "" {
				v.Set("back", back)
			}
			return Prefix + "record?" + v.Encode()
		},
		"screenProfileURL": screenProfileURL,
		"short": func(s string, n int) string {
			if r := []rune(s); len(r) > n {
				return string(r[:n]) + "…"
			}
			return s
		},
		"isQuery": decision.IsQuerySubject,
		"eq2":     func(a, b string) bool { return strings.EqualFold(a, b) },
		"plural":  plural,
		"add":     func(a, b int) int { return a + b },
		"num":     num,
		"size":    size,
		"typeName": func(t string) string {
			if strings.EqualFold(t, "pep") {
				return "PEP"
			}
			return words(t)
		},
		"upper": strings.ToUpper,
		"list":  func(s ...string) []string { return s },
		"first": func(l []string) string {
			if len(l) == 0 {
				return ""
			}
			return l[0]
		},
		// included reads a catalogue entry's included_for_api_key.
		"included": func(p *bool) bool { return p != nil && *p },
		"anyModified": func(srcs []record.Source) bool {
			for _, s := range srcs {
				if s.LastModified != "" {
					return true
				}
			}
			return false
		},
	}
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		out[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html"))
	}
	return out
}

// statusLabel names a decision status for people.
func statusLabel(s string) string {
	switch s {
	case decision.FalsePositive:
		return "false positive"
	case decision.TrueMatch:
		return "true match"
	case decision.Escalated:
		return "escalated"
	}
	return s
}

// when writes a time for the pages: UTC to the minute, the zone said.
func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2 Jan 2006, 15:04 UTC")
}

// words turns an upper-case enum value into words: POLITICALLY_EXPOSED →
// "Politically exposed".
func words(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	v = strings.ToLower(strings.ReplaceAll(v, "_", " "))
	return strings.ToUpper(v[:1]) + v[1:]
}

// num writes a count with thousands separators.
func num(n any) string {
	if v := reflect.ValueOf(n); v.Kind() == reflect.Pointer && !v.IsNil() {
		n = v.Elem().Interface()
	}
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// size writes a number of bytes in KiB, MiB or GiB.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// screenProfileURL is the workbench link that screens a profile's query
// now, in its match mode.
func screenProfileURL(kind, names, dob, gender string, fuzzy int, id string, match query.MatchMode, minScore float64) string {
	v := url.Values{"type": {kind}, "names": {names}, "subject": {id}}
	if match == query.Scored {
		v.Set("mode", "scored")
		if minScore != 0 {
			v.Set("min_score", strconv.FormatFloat(minScore, 'f', -1, 64))
		}
	}
	if dob != "" {
		v.Set("dob", dob)
	}
	// A profile stored before /v1 refused m and f may hold them;
	// ParseGender writes every form it reads as the contract's word.
	if g, err := query.ParseGender(gender); err == nil && g != "" {
		v.Set("gender", strings.ToLower(g))
	} else if gender != "" {
		v.Set("gender", gender)
	}
	if fuzzy > 0 {
		v.Set("fuzzy", string(rune('0'+fuzzy)))
	}
	return Prefix + "screen?" + v.Encode()
}
