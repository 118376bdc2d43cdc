// Package gen makes synthetic consolidated AML data that looks like the real
// thing: sanction, PEP, criminal, tax and other lists with individuals from
// many naming cultures and scripts, companies with legal forms in many
// languages, vessels, aircraft, jurisdictions and objects.
//
// Output is a pure function of (seed, record number): record i is the same
// whichever order records are made in and however many goroutines make them,
// so millions of records can be streamed in parallel and regenerated
// byte-for-byte. The first records are hand-written seed records (ids
// SEED0001, …) that documentation and tests query by name.
package gen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"

	"github.com/amlscreen/amlscreen/record"
)

// Generator makes records for one seed. It holds no mutable state, so one
// Generator may be used from many goroutines at once.
type Generator struct {
	seed int64
}

// New returns a Generator whose output depends only on seed.
func New(seed int64) *Generator { return &Generator{seed: seed} }

// SeedCount is the number of hand-written records at the start of every
// generated dataset; record numbers below it return those records.
func SeedCount() int { return len(seedRecords) }

// Record returns record number i. The first SeedCount() numbers are the
// fixed seed records; the others are generated from a random source derived
// from (seed, i) alone, so Record(i) never depends on which other records
// were made before. The result is a fresh copy the caller may keep or
// modify. Numbers start at 0; a negative i gives record 0.
func (g *Generator) Record(i int) *record.Record {
	i = max(i, 0)
	if i < len(seedRecords) {
		return seedRecords[i].Clone()
	}
	r := &rng{rand.New(rand.NewPCG(mix64(uint64(g.seed)), mix64(uint64(i)^0x9e3779b97f4a7c15)))}
	rec := &record.Record{ID: recordID(i)}
	fill(r, rec)
	return rec
}

// recordID formats generated ids as AML plus a zero-padded number: padding
// to eight digits keeps ids sortable for typical sizes, and numbers of nine
// digits or more still never collide because padded ones start with a zero.
func recordID(i int) string {
	var b [24]byte
	d := strconv.AppendInt(b[:0], int64(i), 10)
	out := make([]byte, 0, 3+max(8, len(d)))
	out = append(out, "AML"...)
	for k := len(d); k < 8; k++ {
		out = append(out, '0')
	}
	return string(append(out, d...))
}

// mix64 is the splitmix64 finaliser. PCG streams seeded with neighbouring
// integers start out correlated, so seeds are scrambled first.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// WriteCounts writes n records (numbers 0 to n-1) of seed as camelCase JSON
// Lines, the format of a consolidated file, and returns how many records
// each source id received, so that a catalogue written alongside can carry
// true sizes. Memory stays flat whatever n is: records are made in small
// batches by one goroutine per CPU and written in order.
//
// It is one pipeline (batches handed out, generated on every core, written
// in order) whose goroutines share its channels; each part is a few lines.
func WriteCounts(w io.Writer, n int, seed int64) (map[string]int64, error) {
	g := New(seed)
	bw := bufio.NewWriterSize(w, 1<<20)
	counts := map[string]int64{}
	if n <= 0 {
		return counts, bw.Flush()
	}
	const batchSize = 512
	workers := max(1, runtime.GOMAXPROCS(0))

	type batch struct {
		start, end int
		buf        []byte
		counts     map[string]int64
		done       chan struct{}
	}
	jobs := make(chan *batch)
	// order holds batches in sequence; its capacity bounds how far workers
	// run ahead of the writer, and so the memory in flight.
	order := make(chan *batch, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	pool := sync.Pool{New: func() any { b := make([]byte, 0, batchSize*1024); return &b }}

	go func() {
		defer close(order)
		defer close(jobs)
		for start := 0; start < n; start += batchSize {
			b := &batch{start: start, end: min(n, start+batchSize), done: make(chan struct{})}
			// A batch goes to a worker before it joins the order, so that
			// every batch the writer waits for is sure to be finished.
			select {
			case jobs <- b:
			case <-stop:
				return
			}
			select {
			case order <- b:
			case <-stop:
				return
			}
		}
	}()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := record.WriteOptions{Case: record.Camel}
			for b := range jobs {
				bp := pool.Get().(*[]byte)
				buf := (*bp)[:0]
				b.counts = map[string]int64{}
				for i := b.start; i < b.end; i++ {
					rec := g.Record(i)
					b.counts[rec.SourceID]++
					buf = rec.Append(buf, opts)
					buf = append(buf, '\n')
				}
				b.buf = buf
				close(b.done)
			}
		}()
	}

	var werr error
	for b := range order {
		<-b.done
		if werr == nil {
			if _, err := bw.Write(b.buf); err != nil {
				werr = fmt.Errorf("write records %d-%d: %w", b.start, b.end-1, err)
				close(stop)
			}
			for k, v := range b.counts {
				counts[k] += v
			}
		}
		buf := b.buf[:0]
		pool.Put(&buf)
	}
	// Workers may still hold batches the producer handed out before the
	// stop; wait so that no goroutine outlives the call.
	wg.Wait()
	if werr != nil {
		return nil, werr
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("flush records: %w", err)
	}
	return counts, nil
}

// rng wraps the per-record random source with the choices generation needs.
type rng struct{ *rand.Rand }

// pick returns a uniformly chosen element of l.
func pick[T any](r *rng, l []T) T { return l[r.IntN(len(l))] }

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return r.Float64() < p }

// between returns a uniform integer in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// digits returns n random decimal digits.
func (r *rng) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// letters returns n random upper-case ASCII letters.
func (r *rng) letters(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('A' + r.IntN(26))
	}
	return string(b)
}

// weighted is a value with an integer weight; a list of them is a discrete
// distribution.
type weighted[T any] struct {
	w int
	v T
}

// choose draws from a weighted list.
func choose[T any](r *rng, l []weighted[T]) T {
	total := 0
	for _, e := range l {
		total += e.w
	}
	x := r.IntN(total)
	for _, e := range l {
		if x < e.w {
			return e.v
		}
		x -= e.w
	}
	return l[len(l)-1].v
}
