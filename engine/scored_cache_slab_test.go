package engine

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/amlscreen/amlscreen/record"
)

// TestPartnerCacheKeepsSlabCopies: put returns a copy of the partners it
// was given, equal to them field by field, cut from arrays shared with the
// entries put before; every entry still equals its partners once the
// slabs have filled several arrays (no later cut wrote over an earlier
// one); a second put of a key returns the first entry; get finds each
// entry by its key.
func TestPartnerCacheKeepsSlabCopies(t *testing.T) {
	recs := generated(3000, 5)
	ix := NewIndex(recs[:2900])
	var changes []record.Change // a second segment, so that local has two
	for _, r := range recs[2900:] {
		changes = append(changes, record.Change{Type: record.ChangeAdd, Record: *r})
	}
	ix.Apply(changes)
	v := ix.acquire()
	defer v.release()
	if len(v.segs) < 2 {
		t.Fatalf("%d segments, want 2 or more", len(v.segs))
	}
	vs := v.scored()
	var pc partnerCache
	type entry struct {
		key  string
		want *globalPartners // the partners put, a copy of its slices
		got  *globalPartners
	}
	var entries []entry
	seen := map[string]bool{}
	partners := 0
	for si := range v.segs {
		s := v.segs[si].Segment
		for id := range uint32(s.Len()) {
			w := s.Token(id)
			if seen[w] || !s.keyed(id) {
				continue
			}
			seen[w] = true
			tok := newTokInfo(w)
			gp := v.scoredPartners(vs, &tok, 2, false, nil)
			want := &globalPartners{ps: clone(gp.ps), texts: clone(gp.texts), df: clone(gp.df)}
			for _, ls := range gp.local {
				want.local = append(want.local, clone(ls))
			}
			key := cacheKey(2, "w\x00"+w)
			got := pc.put(key, gp)
			if got == gp {
				t.Fatalf("%q: put kept the partners it was given, not a copy", w)
			}
			entries = append(entries, entry{key, want, got})
			partners += len(gp.ps)
		}
	}
	if partners < 2*slabChunk {
		t.Fatalf("%d partners fill fewer than three arrays: the test proves little", partners)
	}
	adjacent := 0
	var prev *globalPartners
	for _, e := range entries {
		got := e.got
		if !reflect.DeepEqual(got.ps, e.want.ps) || !reflect.DeepEqual(got.texts, e.want.texts) || !reflect.DeepEqual(got.df, e.want.df) {
			t.Fatalf("%q: kept %v %q %v, put %v %q %v", e.key, got.ps, got.texts, got.df, e.want.ps, e.want.texts, e.want.df)
		}
		if len(got.local) != len(v.segs) {
			t.Fatalf("%q: kept %d segments' ids, want %d", e.key, len(got.local), len(v.segs))
		}
		for si := range got.local {
			if !reflect.DeepEqual(got.local[si], e.want.local[si]) {
				t.Fatalf("%q segment %d: kept %v, put %v", e.key, si, got.local[si], e.want.local[si])
			}
		}
		if gp, ok := pc.get(e.key); !ok || gp != got {
			t.Fatalf("%q: get found %p %v, put returned %p", e.key, gp, ok, got)
		}
		if again := pc.put(e.key, &globalPartners{}); again != got {
			t.Fatalf("%q: a second put returned %p, the first %p", e.key, again, got)
		}
		if prev != nil && len(prev.ps) > 0 && len(got.ps) > 0 &&
			uintptr(unsafe.Pointer(&prev.ps[0]))+uintptr(len(prev.ps))*unsafe.Sizeof(partner{}) == uintptr(unsafe.Pointer(&got.ps[0])) {
			adjacent++
		}
		if len(got.ps) > 0 {
			prev = got
		}
	}
	if adjacent < len(entries)/2 {
		t.Errorf("%d of %d entries' partners follow the entry before in one array", adjacent, len(entries))
	}
	t.Logf("%d entries, %d partners, %d adjacent", len(entries), partners, adjacent)
}

// clone returns a copy of s, nil when s is nil.
func clone[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// TestPartnerCacheKeepsSplitCopies: getSplits returns a copy of the
// splits putSplits was given, equal to them, and the first of two puts of
// a key; changing the given slice afterwards changes no entry.
func TestPartnerCacheKeepsSplitCopies(t *testing.T) {
	var pc partnerCache
	a, b := &globalPartners{ps: []partner{{sim: 1}}}, &globalPartners{ps: []partner{{sim: 0.5}}}
	give := []globalSplit{{a: a, b: b, ra: 3, rb: 4}, {a: b, b: a, c: a, ra: 2, rb: 2, rc: 3}}
	want := clone(give)
	k := cacheKey(1, "s\x00aliakbar")
	pc.putSplits(k, give)
	pc.putSplits(k, nil)
	give[0].ra = 99
	got, ok := pc.getSplits(k)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("getSplits: %v %+v, want %+v", ok, got, want)
	}
	if _, ok := pc.getSplits(cacheKey(2, "s\x00aliakbar")); ok {
		t.Fatal("getSplits found a key never put")
	}
}
