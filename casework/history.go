package casework

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/amlscreen/amlscreen/store"
)

// History returns the audit entries of the alert id, newest first, at
// most max of them (0: no bound). It reads the log backwards from its end
// and stops at the alert's raise, its first entry, and it decodes only the
// entries that name the alert (their canonical encoding holds
// "alert":ID), so an alert's page costs a scan of the entries since the
// alert was raised, not a decoding of the whole log.
func (c *Casework) History(id uint64, max int) ([]Entry, error) {
	needle := []byte(`"alert":` + strconv.FormatUint(id, 10) + `,`)
	var out []Entry
	err := c.db.Read(func(tx *store.Tx) error {
		bk := store.Audit.Bucket(tx)
		if bk == nil {
			return nil
		}
		cur := bk.Cursor()
		for k, v := cur.Last(); k != nil; k, v = cur.Prev() {
			if !bytes.Contains(v, needle) {
				continue
			}
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("audit entry %x: %w", k, err)
			}
			if e.Alert != id {
				continue
			}
			out = append(out, e)
			if e.Action == ActionRaise || max > 0 && len(out) == max {
				return nil
			}
		}
		return nil
	})
	return out, err
}
