package normalize

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// commonNamesData is the table of very common names of the scored match
// mode: "share culture kind: spelling spelling ...". See commonnames.txt
// for its sources.
//
//go:embed commonnames.txt
var commonNamesData string

// CommonNames maps a spelling of a very common family or given name to
// the share of its culture's people who bear it.
type CommonNames struct {
	share map[string]float64
}

// Common returns the embedded table, with every spelling of a given-name
// class of Variants sharing the line of any of them. Its validity is
// pinned by the package tests; a broken table is a build defect, hence
// the panic.
func Common() *CommonNames { return commonNames() }

var commonNames = sync.OnceValue(func() *CommonNames {
	c := mustParse("common-name", ParseCommonNames, commonNamesData)
	v := Variants()
	for w, s := range c.share {
		k := v.Class(w)
		if k == 0 {
			continue
		}
		for _, m := range v.members[k-1] {
			c.share[m] = max(c.share[m], s)
		}
	}
	return c
})

// ParseCommonNames reads a table in the format of commonnames.txt. A
// spelling must be one folded word of the letters a to z, on one line
// only, and a share a number in (0, 1).
func ParseCommonNames(data string) (*CommonNames, error) {
	c := &CommonNames{share: make(map[string]float64)}
	sc := bufio.NewScanner(strings.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		head, rest, ok := strings.Cut(text, ":")
		f := strings.Fields(head)
		if !ok || len(f) != 3 || (f[2] != "family" && f[2] != "given") || !isLowerWord(f[1]) {
			return nil, fmt.Errorf("line %d: want \"share culture family|given: spelling ...\"", line)
		}
		share, err := strconv.ParseFloat(f[0], 64)
		if err != nil || !(share > 0 && share < 1) {
			return nil, fmt.Errorf("line %d: share %q is not a number in (0, 1)", line, f[0])
		}
		words := strings.Fields(rest)
		if len(words) == 0 {
			return nil, fmt.Errorf("line %d: no spelling", line)
		}
		for _, w := range words {
			if !isLowerWord(w) {
				return nil, fmt.Errorf("line %d: spelling %q is not one word of a-z", line, w)
			}
			if _, dup := c.share[w]; dup {
				return nil, fmt.Errorf("line %d: spelling %q is on two lines", line, w)
			}
			c.share[w] = share
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// Share returns the share of its culture's people who bear the folded
// word tok as a name, or 0 when the table does not hold it.
func (c *CommonNames) Share(tok string) float64 { return c.share[tok] }
