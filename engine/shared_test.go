package engine

import (
	"fmt"
	"sync"

	"github.com/amlscreen/amlscreen/record"
)

// searched is records with their index and, built on first use, their
// brute-force matcher.
type searched struct {
	recs []*record.Record
	ix   *Index
	br   func() *Brute
}

// worlds holds a *sharedOnce by the key sharedWorld was given.
var worlds sync.Map

type sharedOnce struct {
	once sync.Once
	w    *searched
}

// sharedWorld returns the records recs makes with their index, built once
// per test binary for key, for the tests that only search them and read
// the records: building the same index in every test that asks it was a
// good part of the package's CPU.
func sharedWorld(key string, recs func() []*record.Record) *searched {
	v, _ := worlds.LoadOrStore(key, &sharedOnce{})
	s := v.(*sharedOnce)
	s.once.Do(func() {
		rs := recs()
		s.w = &searched{rs, NewIndex(rs), sync.OnceValue(func() *Brute { return NewBrute(rs) })}
	})
	return s.w
}

// generatedWorld is sharedWorld of generated(n, seed).
func generatedWorld(n int, seed int64) *searched {
	return sharedWorld(fmt.Sprintf("generated %d/%d", n, seed), func() []*record.Record { return generated(n, seed) })
}
