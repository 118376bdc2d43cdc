package media

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/store"
)

// Storage is where a corpus persists: a *store.Store. The corpus keeps
// its own sub-stores (store.Media*), created by its first import; a store
// without them holds an empty corpus.
type Storage interface {
	Read(fn func(tx *store.Tx) error) error
	Write(fn func(tx *store.Tx) error) error
}

// The corpus's sub-stores; nothing else writes them.
var (
	bucketMeta     = store.MediaMeta     // see meta keys below
	bucketArticles = store.MediaArticles // article id -> doc (4 bytes) + zstd(import line)
	bucketDocs     = store.MediaDocs     // doc (4 bytes) -> docMeta, live documents only
	bucketPostings = store.MediaPostings // segment (4 bytes) + term -> last doc (4) + count (4) + postings
)

var (
	metaSchema     = []byte("schema")     // layout version, see schemaVersion
	metaNextDoc    = []byte("next_doc")   // uint32: documents numbered so far
	metaNextSeg    = []byte("next_seg")   // uint32: segments numbered so far
	metaCategories = []byte("categories") // JSON array: category of each bit
)

// schemaVersion is the layout of the media buckets; a newer layout is
// refused rather than misread.
const schemaVersion = 1

// docMeta is what a query needs of an article without reading it: when it
// was published, its categories and its id.
type docMeta struct {
	ts     int64  // Unix milliseconds
	cats   uint64 // bit i: category cats[i] of the corpus
	nterms uint32 // postings the article has, for garbage accounting
	id     string
	alive  bool
}

func (d *docMeta) encode() []byte {
	b := make([]byte, 20+len(d.id))
	binary.BigEndian.PutUint64(b, uint64(d.ts))
	binary.BigEndian.PutUint64(b[8:], d.cats)
	binary.BigEndian.PutUint32(b[16:], d.nterms)
	copy(b[20:], d.id)
	return b
}

func decodeDocMeta(b []byte) (docMeta, bool) {
	if len(b) < 21 {
		return docMeta{}, false
	}
	return docMeta{
		ts:     int64(binary.BigEndian.Uint64(b)),
		cats:   binary.BigEndian.Uint64(b[8:]),
		nterms: binary.BigEndian.Uint32(b[16:]),
		id:     string(b[20:]),
		alive:  true,
	}, true
}

// zstdCodec compresses stored articles: news text shrinks to about a
// third, and both directions are safe for concurrent use.
type zstdCodec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

var codec = sync.OnceValue(func() zstdCodec {
	// The fastest level: an import of a million articles spends more time
	// compressing than anything else at the default level, for a few per
	// cent of disk.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		panic("media: zstd encoder: " + err.Error()) // only on invalid options
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	if err != nil {
		panic("media: zstd decoder: " + err.Error())
	}
	return zstdCodec{enc, dec}
})

func u32(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }

// Corpus is an article corpus with its inverted index in memory. It is safe
// for concurrent use: checks and searches run in parallel and see either
// all of an import or none of it; imports run one at a time.
type Corpus struct {
	mu      sync.RWMutex
	writeMu sync.Mutex // serialises imports
	db      Storage    // nil: in memory only
	lex     *Lexicon
	now     func() time.Time
	adm     *engine.Admitter // nil: engine.DefaultAdmitter

	cats    []string // category of each bit
	docs    []docMeta
	byID    map[string]uint32 // live documents
	terms   map[string]*termPostings
	nextSeg uint32
	live    int
	// postings counts every posting in terms; livePostings those of live
	// documents. Their difference is garbage left by upserts.
	postings, livePostings uint64
	mem                    map[uint32]*Article // articles of an in-memory corpus

	vmu   sync.Mutex // guards building vocab
	vocab *vocab     // built on the first fuzzy query
}

// Options configures a corpus. The zero value uses the built-in lexicon
// and the system clock.
type Options struct {
	// Lexicon classifies articles imported without categories; nil means
	// DefaultLexicon.
	Lexicon *Lexicon
	// Now stamps responses; nil means time.Now.
	Now func() time.Time
	// Admitter is the admission of heavy queries media calls share with
	// checks; nil means engine.DefaultAdmitter.
	Admitter *engine.Admitter
}

// New returns an empty corpus kept in memory only.
func New(opts Options) *Corpus {
	c := &Corpus{
		lex: opts.Lexicon, now: opts.Now, adm: opts.Admitter,
		cats:  slices.Clone(StandardCategories),
		byID:  map[string]uint32{},
		terms: map[string]*termPostings{},
		mem:   map[uint32]*Article{},
	}
	if c.lex == nil {
		c.lex = DefaultLexicon()
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// Load reads the corpus persisted in db into memory, in one read
// transaction. Imports through the returned Corpus are written to db. A db
// without media buckets gives an empty corpus.
func Load(db Storage, opts Options) (*Corpus, error) {
	c := New(opts)
	c.mem = nil
	c.db = db
	err := db.Read(func(tx *store.Tx) error {
		meta := bucketMeta.Bucket(tx)
		if meta == nil {
			return nil
		}
		if v := meta.Get(metaSchema); len(v) == 4 && binary.BigEndian.Uint32(v) > schemaVersion {
			return fmt.Errorf("media corpus layout %d is newer than this program's %d", binary.BigEndian.Uint32(v), schemaVersion)
		}
		if v := meta.Get(metaCategories); v != nil {
			var cats []string
			if err := json.Unmarshal(v, &cats); err != nil {
				return fmt.Errorf("media categories: %w", err)
			}
			c.cats = cats
		}
		nextDoc := getU32(meta, metaNextDoc)
		c.nextSeg = getU32(meta, metaNextSeg)
		c.docs = make([]docMeta, nextDoc)
		if b := bucketDocs.Bucket(tx); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				if len(k) != 4 {
					return fmt.Errorf("media document key %x: not 4 bytes", k)
				}
				doc := binary.BigEndian.Uint32(k)
				m, ok := decodeDocMeta(v)
				if !ok || doc >= nextDoc {
					return fmt.Errorf("media document %d: corrupt entry", doc)
				}
				c.docs[doc] = m
				c.byID[m.id] = doc
				c.live++
				c.livePostings += uint64(m.nterms)
				return nil
			})
			if err != nil {
				return err
			}
		}
		if b := bucketPostings.Bucket(tx); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				if len(k) < 5 || len(v) < 8 {
					return fmt.Errorf("media postings key %x: corrupt entry", k)
				}
				term := string(k[4:])
				t := c.terms[term]
				if t == nil {
					t = &termPostings{}
					c.terms[term] = t
				}
				n := binary.BigEndian.Uint32(v[4:])
				t.appendChunk(v[8:], binary.BigEndian.Uint32(v), n)
				c.postings += uint64(n)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load media corpus: %w", err)
	}
	return c, nil
}

func getU32(b *store.Bucket, key []byte) uint32 {
	if v := b.Get(key); len(v) == 4 {
		return binary.BigEndian.Uint32(v)
	}
	return 0
}

// Len returns the number of articles in the corpus.
func (c *Corpus) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.live
}

// Categories returns every category the corpus reports: the standard six,
// then any other an imported article carried, in order of first use.
func (c *Corpus) Categories() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.cats)
}

// ImportStats tells what an import did.
type ImportStats struct {
	Articles  int  // lines read
	Added     int  // new ids
	Updated   int  // ids that were already in the corpus (or earlier in the file)
	Compacted bool // the index was rewritten without garbage
}

// Import upserts the articles of a JSON Lines file (see Reader) by id, in
// one transaction: a bad line stops it with a *LineError and nothing of the
// file is applied. Checks and searches running meanwhile see the corpus as
// it was until the transaction commits, then all of the file at once.
func (c *Corpus) Import(r io.Reader) (*ImportStats, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	return c.upsert(func() (*Article, error) { return rd.Next() })
}

// batch is one import under way: what it will change, applied to the
// corpus in memory only after its transaction commits.
type batch struct {
	c        *Corpus
	stats    ImportStats
	cats     []string
	base     uint32 // first document of this batch
	nextDoc  uint32
	seg      *segment
	segID    uint32
	newDocs  []docMeta
	replaced map[string]uint32 // id -> document it supersedes (old, or earlier in this file)
	ids      map[string]uint32 // id -> its document in this batch
	dead     []uint32          // documents superseded
	arts     map[uint32]*Article
	// artsB and docsB are the buckets of the write transaction, once made.
	artsB, docsB *store.Bucket
	// compacted, when set, replaces the corpus's postings after commit.
	compacted map[string]*termPostings
}

func (c *Corpus) upsert(next func() (*Article, error)) (*ImportStats, error) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	b := c.newBatch()
	chunks, stop := c.analyzeAll(next)
	defer stop()
	return c.commit(b, chunks)
}

// newBatch starts an import after the corpus's last document.
func (c *Corpus) newBatch() *batch {
	c.mu.RLock()
	b := &batch{
		c: c, cats: slices.Clone(c.cats), base: uint32(len(c.docs)), nextDoc: uint32(len(c.docs)), seg: newSegment(), segID: c.nextSeg,
		replaced: map[string]uint32{}, ids: map[string]uint32{},
	}
	c.mu.RUnlock()
	if c.db == nil {
		b.arts = map[uint32]*Article{}
	}
	return b
}

// commit writes batch b's analysed articles, read from chunks, in one
// transaction and applies them to the corpus after it commits. The caller
// holds writeMu.
func (c *Corpus) commit(b *batch, chunks <-chan chunk) (*ImportStats, error) {
	run := func(tx *store.Tx) error {
		for ch := range chunks {
			for _, an := range ch.arts {
				if err := b.add(tx, an); err != nil {
					return err
				}
			}
			if ch.err != nil {
				return ch.err
			}
		}
		return b.finish(tx)
	}
	var err error
	if c.db != nil {
		err = c.db.Write(run)
	} else {
		err = run(nil)
	}
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	b.apply()
	c.mu.Unlock()
	return &b.stats, nil
}

// analyzed is an article prepared for the index: everything that does not
// depend on the other articles, which workers compute in parallel.
type analyzed struct {
	a     *Article
	cats  []string
	terms []string
	pos   [][]uint32 // per term: sorted, distinct positions
	blob  []byte     // the import line compressed; written only by a store's corpus
}

// analyze tokenises, classifies and, for a persisted corpus, encodes a.
// dt is the worker's scratch space.
func (c *Corpus) analyze(a *Article, dt *docTerms) *analyzed {
	units := tokenize(a.Headline, a.Body)
	out := &analyzed{a: a, cats: a.Categories}
	if out.cats == nil {
		out.cats = c.lex.classifyUnits(units)
	}
	dt.reset()
	forEachToken(units, dt.add)
	out.terms = slices.Clone(dt.terms)
	out.pos = make([][]uint32, len(dt.terms))
	n := 0
	for i := range dt.terms {
		n += len(dt.pos[i])
	}
	flat := make([]uint32, 0, n)
	for i := range dt.terms {
		p := dt.pos[i]
		slices.Sort(p)
		p = slices.Compact(p)
		start := len(flat)
		flat = append(flat, p...)
		out.pos[i] = flat[start:len(flat):len(flat)]
	}
	if c.db != nil {
		line := a.AppendLine(nil)
		out.blob = codec().enc.EncodeAll(line, make([]byte, 0, len(line)/2))
	}
	return out
}

// chunk is articles analysed together, in file order, and the error that
// ended the input after them, if any.
type chunk struct {
	arts []*analyzed
	err  error
}

const chunkSize = 256

// analyzeAll reads articles with next and analyses them on every CPU,
// delivering them in input order: one goroutine reads the next chunk while
// the workers analyse the current one. Reading stops at the first error,
// which comes with the last chunk. stop abandons the input early.
func (c *Corpus) analyzeAll(next func() (*Article, error)) (<-chan chunk, func()) {
	type rawChunk struct {
		arts []*Article
		err  error
	}
	raw := make(chan rawChunk, 2)
	out := make(chan chunk, 2)
	done := make(chan struct{})
	go func() {
		defer close(raw)
		for {
			var rc rawChunk
			for len(rc.arts) < chunkSize {
				a, err := next()
				if err != nil {
					if err != io.EOF {
						rc.err = err
					}
					break
				}
				rc.arts = append(rc.arts, a)
			}
			select {
			case raw <- rc:
			case <-done:
				return
			}
			if rc.err != nil || len(rc.arts) < chunkSize {
				return
			}
		}
	}()
	go func() {
		defer close(out)
		workers := max(1, runtime.GOMAXPROCS(0))
		dts := make([]*docTerms, workers)
		for i := range dts {
			dts[i] = newDocTerms()
		}
		for rc := range raw {
			ch := chunk{arts: make([]*analyzed, len(rc.arts)), err: rc.err}
			var nextIdx atomic.Int64
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for {
						i := int(nextIdx.Add(1) - 1)
						if i >= len(rc.arts) {
							return
						}
						ch.arts[i] = c.analyze(rc.arts[i], dts[w])
					}
				})
			}
			wg.Wait()
			select {
			case out <- ch:
			case <-done:
				return
			}
		}
	}()
	return out, sync.OnceFunc(func() {
		close(done)
		for range out {
		}
		for range raw {
		}
	})
}

// add gives an analysed article its document number and, with a
// transaction, writes it.
func (b *batch) add(tx *store.Tx, an *analyzed) error {
	a := an.a
	b.stats.Articles++
	if b.nextDoc == ^uint32(0) {
		return fmt.Errorf("article %s: the corpus has run out of document numbers", a.ID)
	}
	var bits uint64
	for _, name := range an.cats {
		i := slices.Index(b.cats, name)
		if i < 0 {
			if len(b.cats) == maxCategories {
				return fmt.Errorf("article %s: category %s: the corpus already has %d categories", a.ID, name, maxCategories)
			}
			i = len(b.cats)
			b.cats = append(b.cats, name)
		}
		bits |= 1 << i
	}
	doc := b.nextDoc
	b.nextDoc++
	b.seg.add(doc, an.terms, an.pos)
	m := docMeta{ts: a.Timestamp.UnixMilli(), cats: bits, nterms: uint32(len(an.terms)), id: a.ID, alive: true}

	old, existed := b.ids[a.ID]
	if existed {
		b.newDocs[old-b.base].alive = false
		b.dead = append(b.dead, old)
	} else {
		b.c.mu.RLock()
		old, existed = b.c.byID[a.ID]
		b.c.mu.RUnlock()
		if existed {
			b.dead = append(b.dead, old)
		}
	}
	if existed {
		b.stats.Updated++
	} else {
		b.stats.Added++
	}
	b.ids[a.ID] = doc
	b.newDocs = append(b.newDocs, m)
	if b.arts != nil {
		b.arts[doc] = a
		if existed {
			delete(b.arts, old)
		}
	}
	if tx == nil {
		return nil
	}
	if b.artsB == nil {
		var err error
		if b.artsB, err = bucketArticles.Create(tx); err != nil {
			return fmt.Errorf("media articles bucket: %w", err)
		}
		if b.docsB, err = bucketDocs.Create(tx); err != nil {
			return fmt.Errorf("media documents bucket: %w", err)
		}
		// Document numbers only grow: full pages. Ids mostly arrive in
		// order too, but not always, so leave some room.
		b.docsB.SetFillPercent(1.0)
		b.artsB.SetFillPercent(0.9)
	}
	v := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(an.blob)), doc)
	v = append(v, an.blob...)
	if err := b.artsB.Put([]byte(a.ID), v); err != nil {
		return fmt.Errorf("article %s: %w", a.ID, err)
	}
	if existed {
		if err := b.docsB.Delete(u32(old)); err != nil {
			return fmt.Errorf("article %s: %w", a.ID, err)
		}
	}
	if err := b.docsB.Put(u32(doc), m.encode()); err != nil {
		return fmt.Errorf("article %s: %w", a.ID, err)
	}
	return nil
}

// finish writes the segment and the counters, compacting the index when
// garbage would outweigh live postings.
func (b *batch) finish(tx *store.Tx) error {
	if b.stats.Articles == 0 {
		return nil
	}
	b.compactIfWasteful()
	if tx == nil {
		return nil
	}
	meta, err := bucketMeta.Create(tx)
	if err != nil {
		return fmt.Errorf("media meta bucket: %w", err)
	}
	if err := b.writePostings(tx); err != nil {
		return err
	}
	catsJSON, err := json.Marshal(b.cats)
	if err != nil {
		return fmt.Errorf("media categories: %w", err)
	}
	for _, kv := range []struct{ k, v []byte }{
		{metaSchema, u32(schemaVersion)},
		{metaNextDoc, u32(b.nextDoc)},
		{metaNextSeg, u32(b.segID + 1)},
		{metaCategories, catsJSON},
	} {
		if err := meta.Put(kv.k, kv.v); err != nil {
			return fmt.Errorf("media meta %s: %w", kv.k, err)
		}
	}
	return nil
}

// compactIfWasteful compacts the index (b.compacted) when, with this
// batch, the postings of dead documents would outnumber the live ones.
func (b *batch) compactIfWasteful() {
	c := b.c
	var added, addedLive, dead uint64
	for _, st := range b.seg.terms {
		added += uint64(st.n)
	}
	for _, m := range b.newDocs {
		if m.alive {
			addedLive += uint64(m.nterms)
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, d := range b.dead {
		if int(d) < len(c.docs) {
			dead += uint64(c.docs[d].nterms)
		}
	}
	total := c.postings + added
	live := c.livePostings - dead + addedLive
	if garbage := total - live; garbage > live && garbage > 1000 {
		b.compacted = b.compact()
	}
}

// writePostings writes the batch's segment, or after a compaction the
// whole compacted index in place of the postings bucket.
func (b *batch) writePostings(tx *store.Tx) error {
	if b.compacted != nil {
		if err := bucketPostings.Drop(tx); err != nil {
			return fmt.Errorf("compact media postings: %w", err)
		}
	}
	posts, err := bucketPostings.Create(tx)
	if err != nil {
		return fmt.Errorf("media postings bucket: %w", err)
	}
	// Segment numbers only grow, so each import appends at the end of the
	// bucket: full pages are best.
	posts.SetFillPercent(1.0)
	key := make([]byte, 0, 64)
	put := func(term string, last, n uint32, blob []byte) error {
		key = append(binary.BigEndian.AppendUint32(key[:0], b.segID), term...)
		v := make([]byte, 8, 8+len(blob))
		binary.BigEndian.PutUint32(v, last)
		binary.BigEndian.PutUint32(v[4:], n)
		if err := posts.Put(key, append(v, blob...)); err != nil {
			return fmt.Errorf("media postings %q: %w", term, err)
		}
		return nil
	}
	if b.compacted != nil {
		for _, t := range slices.Sorted(maps.Keys(b.compacted)) {
			p := b.compacted[t]
			if err := put(t, p.last, p.n, p.blob); err != nil {
				return err
			}
		}
		return nil
	}
	for _, t := range b.seg.sortedTerms() {
		st := b.seg.terms[t]
		if err := put(t, st.last, st.n, st.buf); err != nil {
			return err
		}
	}
	return nil
}

// compact merges the corpus's postings and this batch's segment into one
// segment without dead documents. The caller holds c.mu for reading.
func (b *batch) compact() map[string]*termPostings {
	c := b.c
	b.stats.Compacted = true
	deadNow := make(map[uint32]bool, len(b.dead))
	for _, d := range b.dead {
		deadNow[d] = true
	}
	base := b.base
	alive := func(d uint32) bool {
		if deadNow[d] {
			return false
		}
		if d < base {
			return c.docs[d].alive
		}
		return b.newDocs[d-base].alive
	}
	out := make(map[string]*termPostings, len(c.terms)+len(b.seg.terms))
	for t, p := range c.terms {
		blob, last, n := filterPostings(p.blob, alive)
		if n > 0 {
			out[t] = &termPostings{blob: blob, last: last, n: n}
		}
	}
	for t, st := range b.seg.terms {
		blob, last, n := filterPostings(st.buf, alive)
		if n == 0 {
			continue
		}
		p := out[t]
		if p == nil {
			p = &termPostings{}
			out[t] = p
		}
		p.appendChunk(blob, last, n)
	}
	return out
}

// apply makes a committed batch visible. The caller holds c.mu for writing.
func (b *batch) apply() {
	c := b.c
	if b.stats.Articles == 0 {
		return
	}
	c.cats = b.cats
	for _, d := range b.dead {
		if int(d) < len(c.docs) && c.docs[d].alive {
			c.docs[d].alive = false
			c.live--
			c.livePostings -= uint64(c.docs[d].nterms)
			delete(c.mem, d)
		}
	}
	for _, m := range b.newDocs {
		c.docs = append(c.docs, m)
		c.postings += uint64(m.nterms)
		if m.alive {
			c.live++
			c.livePostings += uint64(m.nterms)
		}
	}
	for id, d := range b.ids {
		c.byID[id] = d
	}
	for d, a := range b.arts {
		c.mem[d] = a
	}
	if b.compacted != nil {
		c.terms = b.compacted
		c.postings = c.livePostings
		c.vocab = nil
	} else {
		for t, st := range b.seg.terms {
			p := c.terms[t]
			if p == nil {
				p = &termPostings{}
				c.terms[t] = p
				if c.vocab != nil {
					c.vocab.add(t)
				}
			}
			p.appendChunk(st.buf, st.last, st.n)
		}
	}
	c.nextSeg = b.segID + 1
}

// article returns the article of document doc, or nil when it is gone.
// The caller holds c.mu for reading; tx is a read transaction of c.db.
func (c *Corpus) article(tx *store.Tx, doc uint32) (*Article, error) {
	if c.db == nil {
		return c.mem[doc], nil
	}
	b := bucketArticles.Bucket(tx)
	if b == nil {
		return nil, nil
	}
	v := b.Get([]byte(c.docs[doc].id))
	if len(v) < 4 {
		return nil, nil
	}
	line, err := codec().dec.DecodeAll(v[4:], nil)
	if err != nil {
		return nil, fmt.Errorf("article %s: %w", c.docs[doc].id, err)
	}
	a, _, err := parseLine(line)
	if err != nil {
		return nil, fmt.Errorf("article %s: %w", c.docs[doc].id, err)
	}
	return a, nil
}

// articles returns the articles of docs, in order, skipping any that an
// import removed meanwhile.
func (c *Corpus) articles(docs []uint32) ([]*Article, error) {
	out := make([]*Article, 0, len(docs))
	get := func(tx *store.Tx) error {
		for _, d := range docs {
			a, err := c.article(tx, d)
			if err != nil {
				return err
			}
			if a != nil {
				out = append(out, a)
			}
		}
		return nil
	}
	if c.db == nil {
		return out, get(nil)
	}
	return out, c.db.Read(get)
}
