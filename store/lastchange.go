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
	// Reach is how far back the search went when nothing was found: the
	// record has not changed since Reach was applied. It is the newest
	// version whose change set is no longer logged (older than the
	// retention window, or the store's first import: FromFirst, whose
	// records are not logged, being all new), or the version being
	// searched when the search stopped at its budget (Cut).
	Reach     Version
	FromFirst bool
	Cut       bool
}

// maxLastChangeScan bounds the change-log bytes one LastChanged
// decompresses, so that a page that asks stays quick after a large full
// import; a variable for the tests.
var maxLastChangeScan int64 = 256 << 20

// LastChanged finds the newest logged change set that touched the record
// id, walking the versions newest first, and stops after maxLastChangeScan
// bytes of log (Cut). Each change set's chunks are
// searched as bytes before any line is parsed, so a record that did not
// change costs one decompression of the log.
func (db *Store) LastChanged(id string) (LastChange, error) {
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
			lc.Reach = v
			if !v.Logged {
				lc.FromFirst = v.Previous == ""
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
