package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A query heavy by a cost just over the line takes a slot of its own: it
// is not refused while the extreme queries hold every one of theirs, and
// an extreme one is.
func TestMerelyHeavyDoesNotWaitBehindTheExtreme(t *testing.T) {
	g := NewAdmitter(Admission{Slots: 1, MinCost: 100, MaxWait: 20 * time.Millisecond})
	adm := g.a
	release, err := g.Acquire(context.Background()) // a long report, say
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	mid, err := adm.acquireByCost(context.Background(), 150)
	if err != nil {
		t.Fatalf("a merely heavy query while the extreme slot is held: %v", err)
	}
	defer mid()
	if _, err := adm.acquireByCost(context.Background(), ExtremeCostFactor*100); !errors.Is(err, ErrBusy) {
		t.Errorf("an extreme query while its slot is held: %v, want ErrBusy", err)
	}
	if _, err := adm.acquireByCost(context.Background(), 150); !errors.Is(err, ErrBusy) {
		t.Errorf("a second merely heavy query while its slot is held: %v, want ErrBusy", err)
	}
}
