package decision

import (
	"fmt"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// DecideTx is Book.Decide inside tx, for a package that must store a
// decision in the same transaction as its own change (casework's approval
// of a proposal): d is stamped with now when its At is zero, validated,
// appended to the audit trail and made current unless the current one was
// decided later.
func DecideTx(tx *store.Tx, d Decision, now func() time.Time) (stored Decision, previous *Decision, err error) {
	if d.At.IsZero() {
		d.At = now()
	}
	d.At = d.At.UTC()
	if err := d.Validate(); err != nil {
		return Decision{}, nil, err
	}
	bk, err := store.Decisions.Create(tx)
	if err != nil {
		return Decision{}, nil, fmt.Errorf("store decision: %w", err)
	}
	if previous, err = currentIn(bk, d.Owner, d.Subject, d.RecordID); err != nil {
		return Decision{}, nil, fmt.Errorf("store decision: %w", err)
	}
	if stored, err = put(bk, d); err != nil {
		return Decision{}, nil, fmt.Errorf("store decision: %w", err)
	}
	return stored, previous, nil
}
