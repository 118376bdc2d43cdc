package engine

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/amlscreen/amlscreen/record"
)

// buildBatchSize is the number of records one worker tokenises at a time.
// Large enough that a batch's local dictionary saves most look-ups in the
// index's dictionary, small enough that appending the first batches
// overlaps tokenising the rest.
const buildBatchSize = 8192

// Builder builds a segment from records that arrive one at a time, such
// as a store or a file being read. Tokenising runs on every core while the
// batches already tokenised are appended in input order, so reading,
// tokenising and appending overlap instead of running one after the
// other.
//
// A Builder is used by one goroutine: Add records, then call Finish (an
// index in memory, records beside it) or FinishSegment (a segment image
// for a file, no records) once.
type Builder struct {
	b     *segBuilder
	cur   *buildBatch
	work  chan *buildBatch
	order chan *buildBatch
	wg    sync.WaitGroup
	added chan struct{}
	gc    func() // restores the collector's target
	n     int
	batch int // records per batch: buildBatchSize, smaller in tests
}

// buildBatch is a run of consecutive records and, once done is closed,
// their tokens.
type buildBatch struct {
	recs []*record.Record
	b    *batch
	done chan struct{}
}

// NewBuilder starts a build of an index in memory, which keeps the
// records beside it. sizeHint is the expected number of records (0 when
// unknown).
func NewBuilder(sizeHint int) *Builder { return newBuilder(true) }

// NewSegmentBuilder starts a build of a segment for a file: the records
// are tokenised and then dropped, since a persisted index reads them from
// the store.
func NewSegmentBuilder() *Builder { return newBuilder(false) }

func newBuilder(keepRecords bool) *Builder {
	workers := runtime.GOMAXPROCS(0)
	bl := &Builder{
		b:    newSegBuilder(keepRecords),
		work: make(chan *buildBatch, workers),
		// A bounded queue keeps memory flat: at most this many batches are
		// tokenised ahead of the appender.
		order: make(chan *buildBatch, 2*workers),
		added: make(chan struct{}),
		gc:    func() {},
		batch: buildBatchSize,
	}
	if keepRecords {
		// A segment for a file is built in parts of bounded size
		// (screen's builds), where a higher target only made the heap
		// larger: importing 100,000 records peaked at 604 MiB with the
		// raise and 377 MiB without, in 2.68 and 2.49 s; at 2,000,000
		// the two took the same time.
		bl.gc = raiseGCPercent()
	}
	for range workers {
		bl.wg.Go(func() {
			for bt := range bl.work {
				b := &batch{ids: make(map[string]uint32, min(batchTokensHint, 16*len(bt.recs))), recs: make([]prepared, 0, len(bt.recs))}
				for _, r := range bt.recs {
					b.prepare(r)
				}
				b.words, b.names, b.local = nil, nil, nil
				bt.b = b
				close(bt.done)
			}
		})
	}
	go func() {
		defer close(bl.added)
		for bt := range bl.order {
			<-bt.done
			bl.b.addBatch(bt.b)
			bt.b = nil // the prepared tokens are garbage once appended
		}
	}()
	return bl
}

// Add queues r. The record is shared with the build, not copied: the
// caller must not change it afterwards.
func (bl *Builder) Add(r *record.Record) {
	if bl.cur == nil {
		bl.cur = &buildBatch{recs: make([]*record.Record, 0, bl.batch), done: make(chan struct{})}
	}
	bl.cur.recs = append(bl.cur.recs, r)
	bl.n++
	if len(bl.cur.recs) == bl.batch {
		bl.flush()
	}
}

// Len returns the number of records added so far.
func (bl *Builder) Len() int { return bl.n }

// flush hands the current batch to the workers. The order queue is filled
// first so that the appender sees batches in input order whichever worker
// finishes first.
func (bl *Builder) flush() {
	bl.order <- bl.cur
	bl.work <- bl.cur
	bl.cur = nil
}

// wait waits for every queued record to be appended.
func (bl *Builder) wait() {
	if bl.cur != nil && len(bl.cur.recs) > 0 {
		bl.flush()
	}
	close(bl.work)
	close(bl.order)
	<-bl.added
	bl.wg.Wait()
	bl.gc()
}

// Finish waits for every queued record to be indexed and returns the
// index, in memory. The Builder must not be used afterwards.
func (bl *Builder) Finish() *Index {
	bl.wait()
	seg, dead, err := bl.b.build()
	if err != nil {
		// An image in memory only fails past the format's limits (4 G
		// entries in one array), far beyond what fits in memory.
		panic(fmt.Sprintf("engine: build: %v", err))
	}
	ix := &Index{}
	ix.publish(newView([]segView{{Segment: seg, tomb: dead}}, nil))
	return ix
}

// FinishSegment waits for every queued record to be indexed and writes
// the segment image to w. dead lists the records a later one with the
// same id replaced, to be kept as the segment's tombstones. The Builder
// must not be used afterwards.
func (bl *Builder) FinishSegment(w SegmentSink) (size int64, dead []uint64, err error) {
	bl.wait()
	dead = bl.b.dead
	size, err = bl.b.finish(w)
	return size, dead, err
}

// batchTokensHint presizes a full batch's dictionary: a batch of generated
// or real records holds tens of thousands of distinct tokens, and growing
// the map to that size cost a twentieth of a build. Small batches get a
// map in proportion.
const batchTokensHint = 1 << 15

// buildGCPercent is the collector's target while a build runs. A build
// allocates several times what it keeps (tokens, batch dictionaries,
// posting lists that grow by doubling) while the live heap grows to its
// final size, so at the default target of 100 the collector marks the
// growing heap over and over. Measured with /usr/bin/time around
// `amlscreen check --store` over a million generated records, with GOGC
// set: 15.9 s at 100, 10.6 s at 400, maximum resident size 3.37 and 3.61
// GB. An operator's choice wins: with GOGC set in the
// environment the target is left alone, and GOMEMLIMIT caps the heap
// whatever the target.
//
// The raise is for a process building its first index. One that already
// holds a large heap (a server reloading after a full import, the old
// index live until the swap) keeps its target: the collector's goal is a
// multiple of the live heap, and at 400 an old index of 2 GB would let the
// heap reach 10 GB before the first collection.
const buildGCPercent = 400

// raiseBelowHeap is the live heap under which a build raises the target.
var raiseBelowHeap uint64 = 256 << 20

var (
	gcMu    sync.Mutex
	gcBuild int // builds running
	gcSaved int // the target before the first of them
)

// raiseGCPercent sets the collector's target for a build and returns the
// function that restores it. Builds may overlap (a server reloading while
// another index is built); the target is restored when the last one ends.
func raiseGCPercent() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	gcMu.Lock()
	defer gcMu.Unlock()
	if gcBuild == 0 && liveHeap() >= raiseBelowHeap {
		return func() {}
	}
	if gcBuild == 0 {
		gcSaved = debug.SetGCPercent(buildGCPercent)
	}
	gcBuild++
	return func() {
		gcMu.Lock()
		defer gcMu.Unlock()
		if gcBuild--; gcBuild == 0 {
			debug.SetGCPercent(gcSaved)
		}
	}
}

// liveHeap returns the heap bytes the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
