package casework

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// Summary is what the queue filters and sorts alerts on.
type Summary struct {
	ID         uint64
	Status     string
	Origin     string
	Escalated  bool
	Created    time.Time
	Updated    time.Time
	Score      *float64
	SourceType string
	Assignee   string
}

var (
	statusCodes = []string{"", Open, Proposed, Closed}
	originCodes = []string{"", OriginBatch, OriginMonitor, OriginScreening}
)

func summaryOf(a *Alert) Summary {
	return Summary{ID: a.ID, Status: a.Status, Origin: a.Origin, Escalated: a.Escalated(), Created: a.Created, Updated: a.Updated,
		Score: a.Hit.Score, SourceType: a.Hit.SourceType, Assignee: a.Assignee}
}

// encodeSummary writes s as: status, origin and flags (a byte each),
// created and updated (Unix nanoseconds) and the score's bits (8 bytes
// each), then the source type and the assignee, each after its length.
func encodeSummary(s Summary) []byte {
	b := make([]byte, 0, 32+len(s.SourceType)+len(s.Assignee))
	var flags byte
	if s.Escalated {
		flags |= 1
	}
	score := 0.0
	if s.Score != nil {
		flags |= 2
		score = *s.Score
	}
	b = append(b, byte(slices.Index(statusCodes, s.Status)), byte(slices.Index(originCodes, s.Origin)), flags)
	b = binary.BigEndian.AppendUint64(b, uint64(s.Created.UnixNano()))
	b = binary.BigEndian.AppendUint64(b, uint64(s.Updated.UnixNano()))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(score))
	b = binary.AppendUvarint(b, uint64(len(s.SourceType)))
	b = append(b, s.SourceType...)
	b = binary.AppendUvarint(b, uint64(len(s.Assignee)))
	return append(b, s.Assignee...)
}

// rawSummary is a summary read in place: its byte fields point into the
// store's page and are valid only in the transaction.
type rawSummary struct {
	id                 uint64
	status, origin     byte
	flags              byte
	created, updated   int64
	score              float64
	sourceType, assign []byte
}

func readSummary(id uint64, b []byte) (rawSummary, error) {
	r := rawSummary{id: id}
	if len(b) < 27 || int(b[0]) >= len(statusCodes) || int(b[1]) >= len(originCodes) {
		return r, fmt.Errorf("alert %d: summary of %d bytes is malformed", id, len(b))
	}
	r.status, r.origin, r.flags = b[0], b[1], b[2]
	r.created = int64(binary.BigEndian.Uint64(b[3:]))
	r.updated = int64(binary.BigEndian.Uint64(b[11:]))
	r.score = math.Float64frombits(binary.BigEndian.Uint64(b[19:]))
	rest := b[27:]
	field := func() ([]byte, bool) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || uint64(len(rest)-k) < n {
			return nil, false
		}
		v := rest[k : k+int(n)]
		rest = rest[k+int(n):]
		return v, true
	}
	var ok1, ok2 bool
	r.sourceType, ok1 = field()
	r.assign, ok2 = field()
	if !ok1 || !ok2 {
		return r, fmt.Errorf("alert %d: summary of %d bytes is malformed", id, len(b))
	}
	return r, nil
}

// summary copies r out of the transaction.
func (r *rawSummary) summary() Summary {
	s := Summary{ID: r.id, Status: statusCodes[r.status], Origin: originCodes[r.origin], Escalated: r.flags&1 != 0,
		Created: time.Unix(0, r.created).UTC(), Updated: time.Unix(0, r.updated).UTC(),
		SourceType: string(r.sourceType), Assignee: string(r.assign)}
	if r.flags&2 != 0 {
		score := r.score
		s.Score = &score
	}
	return s
}

// compiledFilter is a Filter as codes and numbers, to test summaries in
// place.
type compiledFilter struct {
	f              Filter
	status, origin byte
	after, before  int64
}

func compileFilter(f Filter) compiledFilter {
	c := compiledFilter{f: f, status: byte(max(0, slices.Index(statusCodes, f.Status))), origin: byte(max(0, slices.Index(originCodes, f.Origin)))}
	if !f.CreatedAfter.IsZero() {
		c.after = f.CreatedAfter.UnixNano()
	}
	if !f.CreatedBefore.IsZero() {
		c.before = f.CreatedBefore.UnixNano()
	}
	return c
}

func (c *compiledFilter) match(r *rawSummary) bool {
	f := &c.f
	return (c.status == 0 || r.status == c.status) && (c.origin == 0 || r.origin == c.origin) &&
		(f.Assignee == "" || string(r.assign) == f.Assignee) && (!f.Escalated || r.flags&1 != 0) &&
		(f.SourceType == "" || string(r.sourceType) == f.SourceType) &&
		(f.MinScore == 0 || r.flags&2 != 0 && r.score >= f.MinScore) &&
		(f.MaxScore == 0 || r.flags&2 != 0 && r.score <= f.MaxScore) && (!f.Unassigned || len(r.assign) == 0) &&
		(c.after == 0 || r.created >= c.after) && (c.before == 0 || r.created < c.before)
}

// eachSummary calls fn with every summary f selects, by id, in tx.
func eachSummary(tx *store.Tx, f Filter, fn func(r *rawSummary) error) error {
	bk := store.AlertIndex.Bucket(tx)
	if bk == nil {
		return nil
	}
	cf := compileFilter(f)
	// One summary reused for every entry: fn gets it for the call only,
	// and a queue of 100,000 alerts allocates none per alert.
	var r rawSummary
	return bk.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("alert index key %x", k)
		}
		var err error
		if r, err = readSummary(binary.BigEndian.Uint64(k), v); err != nil {
			return err
		}
		if !cf.match(&r) {
			return nil
		}
		return fn(&r)
	})
}

// Summaries returns the summaries of the alerts f selects, by id.
func (c *Casework) Summaries(f Filter) ([]Summary, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var out []Summary
	err := c.db.Read(func(tx *store.Tx) error {
		return eachSummary(tx, f, func(r *rawSummary) error {
			out = append(out, r.summary())
			return nil
		})
	})
	return out, err
}

// Sort orders of a page.
const (
	SortID      = "id"
	SortCreated = "created"
	SortUpdated = "updated"
	SortScore   = "score"
)

// PageRequest asks for one page of the queue.
type PageRequest struct {
	Filter
	// Sort is id (the default), created, updated or score; Desc reverses
	// it. Ties are broken by id.
	Sort string
	Desc bool
	// Offset alerts are skipped; Limit is the page's size (at most
	// MaxPage; 0 means 50).
	Offset, Limit int
}

// MaxPage is the largest page Page returns.
const MaxPage = 1000

// Page returns one page of the alerts r selects, sorted, and how many it
// selects in all, from one read transaction: the summaries of every alert
// are read and sorted, and only the alerts of the page are decoded.
func (c *Casework) Page(r PageRequest) ([]*Alert, int, error) {
	if err := r.Filter.Validate(); err != nil {
		return nil, 0, err
	}
	// A page sorts keys, not summaries: a number to sort by and the id.
	type sortKey struct {
		f  float64
		i  int64
		id uint64
	}
	var key func(r *rawSummary) sortKey
	switch r.Sort {
	case "", SortID:
		key = func(r *rawSummary) sortKey { return sortKey{id: r.id} }
	case SortCreated:
		key = func(r *rawSummary) sortKey { return sortKey{i: r.created, id: r.id} }
	case SortUpdated:
		key = func(r *rawSummary) sortKey { return sortKey{i: r.updated, id: r.id} }
	case SortScore:
		key = func(r *rawSummary) sortKey {
			if r.flags&2 == 0 {
				return sortKey{f: -1, id: r.id}
			}
			return sortKey{f: r.score, id: r.id}
		}
	default:
		return nil, 0, &FieldError{Field: "sort", Msg: fmt.Sprintf("%q is not id, created, updated or score", r.Sort)}
	}
	if r.Offset < 0 || r.Limit < 0 || r.Limit > MaxPage {
		return nil, 0, &FieldError{Field: "limit", Msg: fmt.Sprintf("offset and limit must not be negative, limit at most %d", MaxPage)}
	}
	if r.Limit == 0 {
		r.Limit = 50
	}
	var page []*Alert
	total := 0
	err := c.db.Read(func(tx *store.Tx) error {
		var all []sortKey
		if err := eachSummary(tx, r.Filter, func(s *rawSummary) error {
			all = append(all, key(s))
			return nil
		}); err != nil {
			return err
		}
		total = len(all)
		slices.SortFunc(all, func(a, b sortKey) int {
			n := cmp.Compare(a.f, b.f)
			if n == 0 {
				n = cmp.Compare(a.i, b.i)
			}
			if n == 0 {
				n = cmp.Compare(a.id, b.id)
			}
			if r.Desc {
				n = -n
			}
			return n
		})
		if r.Offset >= len(all) {
			return nil
		}
		all = all[r.Offset:min(len(all), r.Offset+r.Limit)]
		bk := store.Alerts.Bucket(tx)
		for i := range all {
			a, err := getAlert(bk, all[i].id)
			if err != nil {
				return err
			}
			page = append(page, a)
		}
		return nil
	})
	return page, total, err
}
