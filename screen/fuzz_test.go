package screen

import (
	"encoding/json"
	"hash/crc32"
	"math/bits"
	"reflect"
	"testing"
)

// FuzzManifest: any bytes as a MANIFEST give a manifest or an error,
// never a panic; a manifest accepted names only plain files of the
// index's with counts that make sense, and reads back the same once
// written again.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(`{"format":1,"store_id":"ab","store_version":"v1","store_seq":2,"records":3,"segments":[{"file":"seg-1-a-1.seg","size":100,"tomb":"tomb-2-b-1.bits","tomb_crc":7,"records":4,"live":3}]}`))
	f.Add([]byte(`{"format":1,"segments":[{"file":"seg-../x.seg"}]}`))
	f.Add([]byte(`{"format":1,"records":-1}`))
	f.Add([]byte(`{"format":2}`))
	f.Add([]byte(`{not json`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := parseManifest(raw)
		if err != nil {
			if m != nil {
				t.Fatal("a manifest with an error")
			}
			return
		}
		if m.Format != manifestFormat || m.Records < 0 {
			t.Fatalf("accepted %+v", m)
		}
		for _, s := range m.Segments {
			if !validName(s.File, "seg-", ".seg") || (s.Tomb != "" && !validName(s.Tomb, "tomb-", ".bits")) || s.Live > s.Records || s.Size < 0 {
				t.Fatalf("accepted segment %+v", s)
			}
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := parseManifest(again)
		if err != nil {
			t.Fatalf("written again, refused: %v", err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("written again, reads %+v, was %+v", m2, m)
		}
	})
}

// FuzzTombstones: any bytes as a tombstone file of a segment of records
// records give a bitset or an error, never a panic; a bitset accepted has
// one word per 64 records and marks no record past the segment's. good
// gives the file its right checksum, so that the fuzzer gets past it.
func FuzzTombstones(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0}, 5, true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 64, true)
	f.Add([]byte{0xff, 0, 0, 0, 0, 0, 0, 0}, 3, true)
	f.Add([]byte{}, 0, true)
	f.Add([]byte{1, 2, 3}, 10, false)
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0}, -1, true)
	f.Fuzz(func(t *testing.T, raw []byte, records int, good bool) {
		sum := uint32(0x1234)
		if good {
			sum = crc32.Checksum(raw, castagnoli)
		}
		out, err := parseTomb("tomb-1-a-1.bits", raw, records, sum)
		if err != nil {
			return
		}
		if records < 0 || len(out) != (records+63)/64 {
			t.Fatalf("%d words for %d records", len(out), records)
		}
		dead := 0
		for _, w := range out {
			dead += bits.OnesCount64(w)
		}
		if dead > records {
			t.Fatalf("%d dead of %d records", dead, records)
		}
	})
}
