package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// LastChange says when the store last added, updated or deleted a record,
// as far as its change log reaches back.
type LastChange struct {
	// Found is set when a logged change set touched the record: Version is
	// the version it led to and Effect what it did (ADD, UPDATE, DELETE).
	Found   bool
	Version Version
	Effect  string
	// Reach is how far back the log was searched: the oldest version whose
	// change set is still in it (the retention window), or the store's
	// first import when the log reaches back to it (FromFirst; its
	// records are not logged, being all new). When nothing was found the
	// record did not change after Reach.
	Reach     Version
	FromFirst bool
	// Cut is set when the search stopped at maxLastChangeScan bytes (256
	// MiB) before the end of the log: Reach is then the oldest version
	// searched whole.
	Cut bool
}

// maxLastChangeScan bounds the change-log bytes one LastChanged
// decompresses, so that a page that asks stays quick after a large full
// import; a variable for the tests.
var maxLastChangeScan int64 = 256 << 20

// LastChanged finds the newest logged change set that touched the record
// id, walking the versions newest first. Each change set's chunks are
// searched as bytes before any line is parsed, so a record that did not
// change costs one decompression of the log.
func (db *DB) LastChanged(id string) (LastChange, error) {
	var lc LastChange
	var scanned int64
	needle := append(append([]byte(`"id":`), jsonString(id)...), ',')
	needleEnd := append(append([]byte(`"id":`), jsonString(id)...), '}')
	err := db.bolt.View(func(tx *bolt.Tx) error {
		vb, cb := tx.Bucket(bucketVersions), tx.Bucket(bucketChanges)
		if vb == nil || cb == nil {
			return nil
		}
		c := vb.Cursor()
		for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
			var v Version
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("read version %x: %w", k, err)
			}
			if !v.Logged {
				if v.Previous == "" {
					lc.Reach, lc.FromFirst = v, true
				}
				return nil
			}
			prefix := seqKey(binary.BigEndian.Uint64(k))
			cc := cb.Cursor()
			for ck, blob := cc.Seek(prefix); ck != nil && bytes.HasPrefix(ck, prefix); ck, blob = cc.Next() {
				lines, err := zstdDec().DecodeAll(blob, nil)
				if err != nil {
					return fmt.Errorf("change log %x: %w", ck, err)
				}
				if scanned += int64(len(lines)); scanned > maxLastChangeScan {
					lc.Cut = true
					return nil
				}
				if !bytes.Contains(lines, needle) && !bytes.Contains(lines, needleEnd) {
					continue
				}
				sc := bufio.NewScanner(bytes.NewReader(lines))
				sc.Buffer(nil, len(lines)+1)
				for sc.Scan() {
					var ch struct {
						Type   string `json:"type"`
						Record struct {
							ID string `json:"id"`
						} `json:"record"`
					}
					if json.Unmarshal(sc.Bytes(), &ch) == nil && ch.Record.ID == id {
						lc.Found, lc.Version, lc.Effect = true, v, ch.Type
					}
				}
				if lc.Found {
					return nil
				}
			}
			lc.Reach = v
		}
		return nil
	})
	if err != nil {
		return LastChange{}, fmt.Errorf("last change of %s: %w", id, err)
	}
	return lc, nil
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
