package lists

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// ParseURLs reads address overrides given as NAME=URL, where NAME is a
// list's name or one of its files' names (see Fetcher.URLs), into m
// (created when nil). where names the origin of pairs in errors.
func ParseURLs(m map[string]string, pairs []string, where func(i int) string) (map[string]string, error) {
	if m == nil {
		m = map[string]string{}
	}
	for i, p := range pairs {
		name, u, ok := strings.Cut(strings.TrimSpace(p), "=")
		name, u = strings.TrimSpace(name), strings.TrimSpace(u)
		if !ok || name == "" || u == "" {
			return nil, fmt.Errorf("%s: %q is not NAME=URL", where(i), p)
		}
		if !knownName(name) {
			return nil, fmt.Errorf("%s: %q is neither a list nor a list's file (lists: %s)", where(i), name, strings.Join(Names(), ", "))
		}
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return nil, fmt.Errorf("%s: %q is not an http or https URL", where(i), u)
		}
		if l, ok := Lookup(name); ok {
			name = l.Name
		}
		m[name] = u
	}
	return m, nil
}

// ReadURLsFile reads a site's file of address overrides: one NAME=URL a
// line, blank lines and lines starting with # ignored.
func ReadURLsFile(m map[string]string, path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pairs []string
	var lines []int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pairs, lines = append(pairs, line), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ParseURLs(m, pairs, func(i int) string { return fmt.Sprintf("%s line %d", path, lines[i]) })
}

// knownName reports whether name is a list's or one of its files'.
func knownName(name string) bool {
	if _, ok := Lookup(name); ok {
		return true
	}
	for _, l := range known {
		for _, f := range l.Files {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}
