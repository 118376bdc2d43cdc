package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/query"
)

// TestSearchContextCancelled: a search whose context is done answers the
// context's error, wrapped, and no result.
func TestSearchContextCancelled(t *testing.T) {
	ix := NewIndex(loadRules(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, q := range []query.Query{{Names: "vladimir putin"}, {SearchAll: "acme dover", Fuzzy: 1}} {
		res, err := ix.SearchContext(ctx, q)
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("%+v: %v, %v; want context.Canceled", q, res, err)
		}
	}
	if _, err := ix.SearchContext(ctx, query.Query{Names: "vladimir putin", Match: query.Scored}); !errors.Is(err, context.Canceled) {
		t.Errorf("scored: %v, want context.Canceled", err)
	}
	// A live context answers as Search does.
	a, err := ix.SearchContext(context.Background(), query.Query{Names: "vladimir putin"})
	if err != nil || a.Total != 1 {
		t.Errorf("live context: %v, %v", a, err)
	}
}

// TestSearchContextStopsAHeavySearch: a deadline stops a search of many
// common words over a generated database (boundWorld's) long before it
// would finish.
func TestSearchContextStopsAHeavySearch(t *testing.T) {
	w := boundWorld()
	recs, ix := w.recs, w.ix
	var words []string
	// Latin first names only: a name in another script may romanise to
	// more than one word, and the query must stay within MaxTextWords.
	for _, r := range recs {
		if w := strings.Fields(r.Name)[0]; len(words) < query.MaxTextWords && isASCIILetters(w) {
			words = append(words, w)
		}
	}
	q := query.Query{SearchAll: strings.Join(words, " "), Fuzzy: 2}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := ix.SearchContext(ctx, q); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a cancelled search took %v", d)
	}
}

// TestAdmission: heavy queries run one slot at a time; one that finds no
// free slot within MaxWait is refused with ErrBusy, or with its context's
// error; light queries never wait for a slot. The admission is the
// index's: another index, under the default, is not held up.
func TestAdmission(t *testing.T) {
	g := NewAdmitter(Admission{Slots: 1, MidSlots: -1, MinCost: 20, MaxWait: 50 * time.Millisecond})
	ix := NewIndex(loadRules(t))
	ix.SetAdmitter(g)
	if ix.Admitter() != g || g.Admission().MaxWords != DefaultHeavyWords {
		t.Fatalf("admitter %p (want %p), admission %+v", ix.Admitter(), g, g.Admission())
	}
	heavy := query.Query{Names: "ivan", Fuzzy: 1} // three Ivans: 3 entries + 10×3 to verify
	light := query.Query{Names: "sea princess"}   // cost 2
	if res, err := ix.Search(heavy); err != nil || res.Total != 3 {
		t.Fatalf("heavy query with a free slot: %v, %v", res, err)
	}
	// Take the only slot.
	release, err := g.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Search(heavy); !errors.Is(err, ErrBusy) {
		t.Errorf("heavy query with no slot: %v, want ErrBusy", err)
	}
	other := NewIndex(loadRules(t))
	if other.Admitter() != DefaultAdmitter() {
		t.Error("an index given no admitter does not use the default")
	}
	if res, err := other.Search(heavy); err != nil || res.Total != 3 {
		t.Errorf("heavy query on an index under another admitter: %v, %v", res, err)
	}
	if res, err := ix.Search(light); err != nil || res.Total != 1 {
		t.Errorf("light query while the slot is taken: %v, %v", res, err)
	}
	// Many words make a query heavy before any look-up.
	many := query.Query{Names: strings.TrimSpace(strings.Repeat("a b c d e f g h i j k l m ", 2))}
	if _, err := ix.Search(many); !errors.Is(err, ErrBusy) {
		t.Errorf("26-word query with no slot: %v, want ErrBusy", err)
	}
	// A deadline ends the wait, with the context's error.
	g = NewAdmitter(Admission{Slots: 1, MidSlots: -1, MinCost: 20, MaxWait: time.Minute})
	ix.SetAdmitter(g)
	release() // the old semaphore's slot; take the new one
	if release, err = g.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := ix.SearchContext(ctx, heavy); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("heavy query, deadline before MaxWait: %v", err)
	}
	// A query waiting for the slot gets it when it is given back, and is
	// answered in full.
	done := make(chan error)
	go func() {
		res, err := ix.Search(heavy)
		if err == nil && res.Total != 3 {
			err = errors.New("partial answer")
		}
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	release()
	if err := <-done; err != nil {
		t.Errorf("queued heavy query: %v", err)
	}
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// TestScoredAdmissionTimeout: a scored query heavy by its postings that
// finds no free slot in time is refused with ErrBusy, not a panic (it
// used to call the nil release of its failed wait).
func TestScoredAdmissionTimeout(t *testing.T) {
	g := NewAdmitter(Admission{Slots: 1, MidSlots: -1, MinCost: 1, MaxWait: 10 * time.Millisecond})
	ix := NewIndex(loadRules(t))
	ix.SetAdmitter(g)
	q := query.Query{Names: "ivan", Fuzzy: 1, Match: query.Scored}
	if _, err := ix.Search(q); err != nil {
		t.Fatalf("scored query with a free slot: %v", err)
	}
	release, err := g.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := ix.Search(q); !errors.Is(err, ErrBusy) {
		t.Errorf("scored query with no slot: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	g = NewAdmitter(Admission{Slots: 1, MidSlots: -1, MinCost: 1, MaxWait: time.Minute})
	ix.SetAdmitter(g)
	hold, err := g.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	if _, err := ix.SearchContext(ctx, q); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("scored query, deadline while waiting: %v", err)
	}
}
