package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
	"github.com/klauspost/compress/gzip"
)

// PreviousUnknown is the service's message for a delta asked from a
// version it does not keep (docs/API.md "Deltas"); clients (our syncer among
// them) recognise it and download the full file.
const PreviousUnknown = "Provided previous version does not exist."

// jsonLines is the media type of consolidated files and deltas.
const jsonLines = "application/x-ndjson"

// consolidatedFile answers getConsolidatedFile (docs/API.md "Consolidated files"): every
// record of the selected sources as camelCase JSON Lines, sorted by id,
// with the File-Version they are at, gzip when the client accepts it.
//
// With a store, the records are streamed from one read transaction in
// its id order, each line compressed and sent as it is made: the body is
// exactly the version of the header, memory does not grow with the number
// of records (docs/OPERATIONS.md "Memory"), and no lock is held while a
// slow client reads. Without one (a server over an in-memory index only),
// they are the live index's, taken as a list of pointers while no Apply
// runs (records in the index are never changed in place).
func consolidatedFile(s *Server, c *Call) error {
	sel, err := s.db.Catalog().Resolve(screen.Caller{Key: c.Key}, c.Param("includes"))
	if err != nil {
		return err
	}
	opts := recordOptions(c.Key, record.Camel)
	if s.st != nil {
		var lw *lineWriter
		n := 0
		err := s.st.StreamAll(func(v store.Version) error {
			if v.ID == "" {
				return errNoVersion
			}
			lw = startLines(c, v.ID)
			return nil
		}, func(r *record.Record) error {
			if !sel[r.SourceID] {
				return nil
			}
			n++
			return lw.line(n, func(buf []byte) []byte { return r.Append(buf, opts) })
		})
		switch {
		case errors.Is(err, errNoVersion):
			return Errorf(http.StatusServiceUnavailable, "the database is empty: there is no version to serve yet")
		case err != nil && lw == nil:
			return fmt.Errorf("read records: %w", err)
		case err != nil:
			return err
		}
		return lw.close()
	}
	s.applyMu.RLock()
	version := s.db.Version()
	var recs []*record.Record
	err = s.db.Index().ForEach(func(r *record.Record) {
		if sel[r.SourceID] {
			recs = append(recs, r)
		}
	})
	s.applyMu.RUnlock()
	if err != nil {
		return fmt.Errorf("read records: %w", err)
	}
	if version == "" {
		return Errorf(http.StatusServiceUnavailable, "the database is empty: there is no version to serve yet")
	}
	slices.SortFunc(recs, func(a, b *record.Record) int { return strings.Compare(a.ID, b.ID) })
	return writeLines(c, version, len(recs), func(buf []byte, i int) []byte {
		return recs[i].Append(buf, opts)
	})
}

// errNoVersion stops a stream from a store that holds no version yet.
var errNoVersion = errors.New("no version")

// consolidatedDelta answers getConsolidatedDelta (docs/API.md "Deltas"): the
// changes from previous to the current version, from the store's change
// log, merged per record. An unknown previous, or one older than the log,
// is 400 with the service's message (the service does not document the
// status; its clients fall back to the full file on a 400); a delta from
// the current version is empty and carries the same File-Version.
//
// With a selection of sources, ADD and DELETE lines of other sources are
// left out, and an UPDATE of a record outside the selection is sent as a
// DELETE: the record may have moved out of it, and a client that never had
// it ignores the DELETE.
func consolidatedDelta(s *Server, c *Call) error {
	previous := c.Param("previous")
	if previous == "" {
		return Errorf(http.StatusBadRequest, "previous: required: the File-Version of your last getConsolidatedFile or getConsolidatedDelta")
	}
	if s.st == nil {
		return Errorf(http.StatusServiceUnavailable, "this server keeps no change log; download getConsolidatedFile")
	}
	sel, err := s.db.Catalog().Resolve(screen.Caller{Key: c.Key}, c.Param("includes"))
	if err != nil {
		return err
	}
	changes, current, err := s.st.ChangesSince(previous)
	if errors.Is(err, store.ErrUnknownVersion) {
		return Errorf(http.StatusBadRequest, PreviousUnknown)
	}
	if err != nil {
		return err
	}
	out := changes[:0]
	for _, ch := range changes {
		switch {
		case sel[ch.Record.SourceID]:
		case ch.Type == record.ChangeUpdate:
			ch.Type = record.ChangeDelete
		default:
			continue
		}
		out = append(out, ch)
	}
	opts := recordOptions(c.Key, record.Camel)
	opts.OmitListDate = true
	return writeLines(c, current, len(out), func(buf []byte, i int) []byte {
		buf = append(buf, `{"type":"`...)
		buf = append(buf, out[i].Type...)
		buf = append(buf, `","record":`...)
		buf = out[i].Record.Append(buf, opts)
		return append(buf, '}')
	})
}

// writeLines streams n JSON lines made by line, gzip-compressed when the
// client accepts it. An error after the header is sent cuts the body short;
// the client notices the broken chunked encoding or gzip stream.
func writeLines(c *Call, version string, n int, line func(buf []byte, i int) []byte) error {
	lw := startLines(c, version)
	for i := range n {
		if err := lw.line(i+1, func(buf []byte) []byte { return line(buf, i) }); err != nil {
			return err
		}
	}
	return lw.close()
}

// lineWriter sends the JSON lines of a download as they are made: header
// first, then each line through a buffer and, when the client accepts it,
// gzip, straight to the response.
type lineWriter struct {
	zw  *gzip.Writer
	bw  *bufio.Writer
	buf []byte
}

// startLines sets the headers of a download at version and starts its
// body.
func startLines(c *Call, version string) *lineWriter {
	h := c.Header()
	h.Set("File-Version", version)
	h.Set("Vary", "Accept-Encoding")
	gz := acceptsGzip(c.Request.Header.Get("Accept-Encoding"))
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	lw := &lineWriter{}
	var w io.Writer = c.Stream(jsonLines)
	if gz {
		lw.zw, _ = gzip.NewWriterLevel(w, gzip.DefaultCompression)
		w = lw.zw
	}
	lw.bw = bufio.NewWriterSize(w, 256<<10)
	return lw
}

// line writes line number i (from 1, for the error), made by mk into the
// buffer it is given, and a newline.
func (lw *lineWriter) line(i int, mk func(buf []byte) []byte) error {
	lw.buf = append(mk(lw.buf[:0]), '\n')
	if _, err := lw.bw.Write(lw.buf); err != nil {
		return fmt.Errorf("write line %d: %w", i, err)
	}
	return nil
}

// close ends the body.
func (lw *lineWriter) close() error {
	if err := lw.bw.Flush(); err != nil {
		return fmt.Errorf("write body: %w", err)
	}
	if lw.zw != nil {
		if err := lw.zw.Close(); err != nil {
			return fmt.Errorf("write body: %w", err)
		}
	}
	return nil
}

// acceptsGzip reads an Accept-Encoding header: gzip (or x-gzip, or *) with
// a q-value above zero.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}
