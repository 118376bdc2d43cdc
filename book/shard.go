package book

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// MaxShards bounds the number of shards a book is split into.
const MaxShards = 1024

// Shard is the part of the book one replica screens on every change set
// when the work is split across replicas (serve --book-shard I/N): the
// customers whose id hashes to Index among Count parts. The hash is
// FNV-1a (64 bits) of the id's bytes modulo Count, so that it depends on
// the id alone: every replica holding the same book agrees on who owns a
// customer, whatever the order of the book or the machine, and a customer
// belongs to exactly one shard. The zero Shard is the whole book.
type Shard struct {
	Index int // 0 .. Count-1
	Count int // 0 or 1: the whole book
}

// ParseShard reads "I/N" (shard I of N, counted from 0), as serve
// --book-shard takes it. "" is the whole book.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	idx, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q is not I/N (shard I of N, from 0), e.g. 0/2", s)
	}
	if count < 1 {
		return Shard{}, fmt.Errorf("%q: the shard count %d is not 1 to %d", s, count, MaxShards)
	}
	sh := Shard{Index: idx, Count: count}
	return sh, sh.Validate()
}

// Validate checks that the shard is one of Count parts.
func (s Shard) Validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Count > MaxShards {
		return fmt.Errorf("shard count %d is not 1 to %d", s.Count, MaxShards)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d of %d: the index runs from 0 to %d", s.Index, s.Count, s.Count-1)
	}
	return nil
}

// String writes s as ParseShard reads it.
func (s Shard) String() string {
	if s.Count <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Owns reports whether the customer id belongs to the shard.
func (s Shard) Owns(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

// keep returns the customers the shard owns, reusing customers' array.
func (s Shard) keep(customers []Customer) []Customer {
	if s.Count <= 1 {
		return customers
	}
	out := customers[:0]
	for _, c := range customers {
		if s.Owns(c.ID) {
			out = append(out, c)
		}
	}
	return out
}
