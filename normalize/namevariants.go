package normalize

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// nameVariantsData is the given-name variant table of the scored match
// mode: one name a line, "key: spelling spelling ...". See
// namevariants.txt for what belongs in it.
//
//go:embed namevariants.txt
var nameVariantsData string

// NameVariants maps a spelling of a given name to its class: the
// spellings of one name (Muhammad, Mohammed, Mohamed, Mehmet). Classes are
// numbered from 1; 0 means "in no class".
type NameVariants struct {
	class   map[string]int32
	keys    []string   // class keys, by class number - 1
	members [][]string // spellings, by class number - 1
}

// Variants returns the embedded table. Its validity is pinned down by the
// package tests; a broken table is a build defect, hence the panic.
func Variants() *NameVariants { return variants() }

var variants = sync.OnceValue(func() *NameVariants {
	return mustParse("name-variant", ParseNameVariants, nameVariantsData)
})

// ParseNameVariants reads a table in the format of namevariants.txt. A
// spelling must be one folded word of the letters a to z, and may belong
// to one class only: a spelling in two classes would make two different
// names one.
func ParseNameVariants(data string) (*NameVariants, error) {
	v := &NameVariants{class: make(map[string]int32)}
	sc := bufio.NewScanner(strings.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, rest, ok := strings.Cut(text, ":")
		key = strings.TrimSpace(key)
		if !ok || !isLowerWord(key) {
			return nil, fmt.Errorf("line %d: want \"key: spelling spelling ...\" with a key of a-z", line)
		}
		id := int32(len(v.keys) + 1)
		var members []string
		for _, w := range strings.Fields(rest) {
			if !isLowerWord(w) {
				return nil, fmt.Errorf("line %d: spelling %q is not one word of a-z", line, w)
			}
			if prev, dup := v.class[w]; dup {
				if prev == id {
					return nil, fmt.Errorf("line %d: spelling %q twice in class %q", line, w, key)
				}
				return nil, fmt.Errorf("line %d: spelling %q of class %q is already in class %q", line, w, key, v.keys[prev-1])
			}
			v.class[w] = id
			members = append(members, w)
		}
		if len(members) < 2 {
			return nil, fmt.Errorf("line %d: class %q needs two spellings or more", line, key)
		}
		v.keys = append(v.keys, key)
		v.members = append(v.members, members)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

func isLowerWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// Class returns the class number of a folded token, or 0 when it is in no
// class.
func (v *NameVariants) Class(tok string) int32 { return v.class[tok] }
