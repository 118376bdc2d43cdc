package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Admission of heavy queries. Most checks cost well under a millisecond,
// but a query of many common words at fuzzy 2 reaches hundreds of
// thousands of postings and costs a core for tens or hundreds of
// milliseconds. Such queries run through the semaphores of an Admitter with fewer
// slots than the machine has cores, so that a flood of them queues there
// and the other cores keep answering normal checks: one for the extreme
// (many words, a cost of ExtremeCostFactor × MinCost or more, long
// reports and media calls) and one for the merely heavy, so that a check
// just over the line does not wait behind the extreme. A heavy query is
// either answered completely or refused (ErrBusy, a cancelled context):
// its answer is never cut short.

// Admission configures the semaphores; NewAdmitter puts it in force.
type Admission struct {
	// Slots is how many extreme queries may run at once; 0 means one per
	// two cores, at least one.
	Slots int
	// MidSlots is how many merely heavy queries may run at once; 0 means
	// as many as Slots, negative that they share the extreme queries'
	// slots.
	MidSlots int
	// MinCost is the estimated cost from which a query is heavy, in
	// posting-list entries (about 30 ns of work each): those its words
	// reach once looked up in the dictionary, plus the candidates its
	// rarest word allows, weighted by what verifying one costs. 0 means
	// DefaultHeavyCost; negative means no query is heavy by cost.
	MinCost int
	// MaxWords is the number of distinct words (over every spelling of the
	// query) from which a query is heavy before it is looked up at all:
	// its dictionary look-ups alone would cost more than a normal check.
	// 0 means DefaultHeavyWords.
	MaxWords int
	// MaxWait is how long a heavy query waits for a slot before it is
	// refused with ErrBusy; 0 means DefaultHeavyWait.
	MaxWait time.Duration
}

// Defaults of Admission.
const (
	// DefaultHeavyCost is about 10 ms of work on one core of the
	// machine the project is measured on: above normal checks (a fuzzy-2
	// check's p99 is about 4 ms at a million records, docs/PERFORMANCE.md "Engine speed"), so
	// that they never queue behind a flood of heavy ones, and below the
	// worst checks the limits allow at that size (30–100 ms).
	DefaultHeavyCost = 300_000
	// DefaultHeavyWords is above any real name: 8 words with hyphen
	// spellings stay under it.
	DefaultHeavyWords = 12
	// DefaultHeavyWait bounds the queue of heavy queries.
	DefaultHeavyWait = 5 * time.Second
	// ExtremeCostFactor divides the heavy queries: one whose cost is below
	// this many times MinCost is merely heavy and waits for slots of its
	// own, so that a check just over the line (a common name at fuzzy 2
	// in a large database, tens of milliseconds) never queues behind the
	// worst queries the limits allow (hundreds of milliseconds).
	ExtremeCostFactor = 10
)

// ErrBusy refuses a heavy query that found no free slot in time. The
// server answers it with 503 and Retry-After.
var ErrBusy = errors.New("too many expensive checks are running; try again shortly")

type admission struct {
	Admission
	slots    chan struct{} // the extreme: many words, large costs, long reports
	midSlots chan struct{} // the merely heavy: cost under ExtremeCostFactor × MinCost
}

// Admitter is one Admission in force: the slots heavy queries wait for.
// An index searches under the Admitter its owner gave it (SetAdmitter),
// else under DefaultAdmitter; work outside the engine that costs as much
// (a long report, a media check) takes the same slots with Acquire, so
// that all of a process's heavy work queues in one place. It is a value
// its owner passes on, not a process setting, so two databases in one
// process (or two tests) can each have their own.
type Admitter struct{ a *admission }

// NewAdmitter returns an Admitter for a, its zero fields set to their
// defaults.
func NewAdmitter(a Admission) *Admitter { return &Admitter{a: newAdmission(a)} }

// DefaultAdmitter returns the Admitter of Admission{} (every default),
// made once per process: what an index searches under when its owner gave
// it none.
func DefaultAdmitter() *Admitter { return defaultAdmitter() }

var defaultAdmitter = sync.OnceValue(func() *Admitter { return NewAdmitter(Admission{}) })

// Admission returns the admission in force, defaults filled in.
func (g *Admitter) Admission() Admission { return g.a.Admission }

// Acquire waits for one of the slots heavy queries share, as they wait
// for it (at most MaxWait, while ctx lasts), so that other heavy work
// (rendering a long report, say) can take its turn with them. It returns
// ErrBusy or ctx's error when no slot comes free; otherwise call release
// once the work is done.
func (g *Admitter) Acquire(ctx context.Context) (release func(), err error) {
	return g.a.acquire(ctx)
}

// SetAdmitter makes the index search under g; nil means DefaultAdmitter.
// Queries already holding a slot keep it until they finish.
func (ix *Index) SetAdmitter(g *Admitter) { ix.adm.Store(g) }

// Admitter returns the Admitter the index searches under.
func (ix *Index) Admitter() *Admitter {
	if g := ix.adm.Load(); g != nil {
		return g
	}
	return DefaultAdmitter()
}

// admission returns the admission of the index's searches.
func (ix *Index) admission() *admission { return ix.Admitter().a }

// newAdmission fills in a's defaults and makes its slots.
func newAdmission(a Admission) *admission {
	if a.Slots <= 0 {
		a.Slots = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if a.MinCost == 0 {
		a.MinCost = DefaultHeavyCost
	}
	if a.MaxWords <= 0 {
		a.MaxWords = DefaultHeavyWords
	}
	if a.MaxWait <= 0 {
		a.MaxWait = DefaultHeavyWait
	}
	if a.MidSlots == 0 {
		a.MidSlots = a.Slots
	}
	adm := &admission{Admission: a, slots: make(chan struct{}, a.Slots)}
	adm.midSlots = adm.slots
	if a.MidSlots > 0 {
		adm.midSlots = make(chan struct{}, a.MidSlots)
	}
	return adm
}

// heavyCost reports whether cost makes a query heavy.
func (a *admission) heavyCost(cost int) bool { return a.MinCost >= 0 && cost >= a.MinCost }

// acquireByCost waits for the slot a query heavy by its cost takes: one
// of the merely heavy's under ExtremeCostFactor × MinCost, an extreme one
// from there.
func (a *admission) acquireByCost(ctx context.Context, cost int) (release func(), err error) {
	if cost < ExtremeCostFactor*a.MinCost {
		return a.wait(ctx, a.midSlots)
	}
	return a.acquire(ctx)
}

// acquire waits for an extreme query's slot, at most MaxWait and while
// ctx lasts, and returns the function that gives it back.
func (a *admission) acquire(ctx context.Context) (release func(), err error) {
	return a.wait(ctx, a.slots)
}

func (a *admission) wait(ctx context.Context, slots chan struct{}) (release func(), err error) {
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	default:
	}
	t := time.NewTimer(a.MaxWait)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, fmt.Errorf("search: waiting for a slot: %w", ctx.Err())
	}
}
