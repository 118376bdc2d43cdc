package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/amlscreen/amlscreen/digest"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Limits of getChangeDigest.
const (
	// DigestPageDefault is how many changes one answer of getChangeDigest
	// holds when the caller gives no limit.
	DigestPageDefault = 1000
	// DigestPageMax is the largest limit getChangeDigest accepts: an
	// answer stays a few MB however large the period.
	DigestPageMax = 10000
)

// digestToken is what getChangeDigest's next carries: the period of the
// first page (as asked, and the versions it starts after and ends at) and
// the id of the last change sent. Every page is cut from the same period,
// so a change set applied between pages moves nothing.
type digestToken struct {
	Since string `json:"s"`
	From  string `json:"f"`
	Until string `json:"u"`
	After string `json:"a"`
}

func (t digestToken) encode() string {
	raw, _ := json.Marshal(t) // strings only: cannot fail
	return base64.RawURLEncoding.EncodeToString(raw)
}

func decodeDigestToken(s string) (digestToken, error) {
	var t digestToken
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		err = dec.Decode(&t)
	}
	if err != nil || t.From == "" || t.Until == "" || t.Since == "" {
		return digestToken{}, Errorf(http.StatusBadRequest, "next: %s is not a token of getChangeDigest: pass the next of the previous answer as it is", quote(s))
	}
	return t, nil
}

// changeDigest answers getChangeDigest (docs/API.md "Change digest"):
// what the change sets since a version, a day or the last one added,
// updated and deleted, as amlscreen changes --format json writes it, in
// pages of at most limit changes with a next token. Only the records of
// sources the key sees are listed, and an update's fields are compared as
// the key's features write records. Free of charge, any enabled key; a
// server without a store answers 404.
func changeDigest(s *Server, c *Call) error {
	if s.st == nil {
		return Errorf(http.StatusNotFound, "this server answers from no store")
	}
	if f := c.Param("format"); f != "" && f != "json" {
		return Errorf(http.StatusBadRequest, "format: %s is not json (the only format; amlscreen changes writes csv and tables)", quote(f))
	}
	limit := DigestPageDefault
	if c.Has("limit") {
		n, err := strconv.Atoi(c.Param("limit"))
		if err != nil || n < 1 || n > DigestPageMax {
			return Errorf(http.StatusBadRequest, "limit: %s is not a number of changes from 1 to %d", quote(c.Param("limit")), DigestPageMax)
		}
		limit = n
	}
	var tok digestToken
	switch {
	case c.Param("next") != "":
		var err error
		if tok, err = decodeDigestToken(c.Param("next")); err != nil {
			return err
		}
		if since := c.Param("since"); since != "" && since != tok.Since {
			return Errorf(http.StatusBadRequest, "since: %s is not the since of the first page (%s); give next alone", quote(since), quote(tok.Since))
		}
	case c.Param("since") != "":
		since, err := store.ParseSince(c.Param("since"))
		if err != nil {
			return Errorf(http.StatusBadRequest, "since: %v", err)
		}
		from, err := s.st.StartVersion(since)
		if err != nil {
			return digestUnknown(since.String(), err)
		}
		tok = digestToken{Since: since.String(), From: from}
	default:
		return Errorf(http.StatusBadRequest, "since: required: a store version, a day (YYYY-MM-DD, from 00:00 UTC) or last")
	}
	entries, until, err := s.digests.get(s.st, tok.From, tok.Until)
	if err != nil {
		return digestUnknown(tok.Since, err)
	}
	// The key's sources, judged by each record's own source and type: a
	// deletion that emptied a source is still shown to the keys that saw it.
	srcs := c.Key.Sources()
	visible := make([]store.DigestEntry, 0, len(entries))
	for _, e := range entries {
		r := e.After
		if r == nil {
			r = e.Before
		}
		if r != nil && srcs.Includes(r.SourceID, r.SourceType) {
			visible = append(visible, e)
		}
	}
	// The counts cover the period; the field-level differences, the costly
	// part, are made for the page's changes only.
	doc := digest.NewDocument(tok.Since, tok.From, until, digest.Outline(visible))
	more := doc.Page(tok.After, limit)
	if len(doc.Changes) > 0 {
		first, _ := slices.BinarySearchFunc(visible, doc.Changes[0].ID, func(e store.DigestEntry, id string) int { return strings.Compare(e.ID, id) })
		doc.Changes = digest.FromStoreOptions(visible[first:first+len(doc.Changes)], c.Key.Features.WriteOptions(record.Snake))
	}
	if more {
		doc.Next = digestToken{Since: tok.Since, From: tok.From, Until: until, After: doc.Changes[len(doc.Changes)-1].ID}.encode()
	}
	var buf bytes.Buffer
	if err := digest.WriteJSON(&buf, doc); err != nil {
		return fmt.Errorf("change digest: %w", err)
	}
	return c.JSON(buf.Bytes())
}

// digestUnknown answers a period the change log cannot cover with 400,
// as amlscreen changes explains it; other errors pass through.
// digestCache keeps the last period a page of getChangeDigest read, so
// that the next pages of one period (whose token fixes its versions) do
// not decode the change log again: reading it is most of a page's cost.
// Its entries are shared and must not be changed.
type digestCache struct {
	mu          sync.Mutex
	from, until string
	entries     []store.DigestEntry
}

// maxCachedDigest bounds the entries digestCache keeps: a longer period is
// read again for each page rather than held.
const maxCachedDigest = 100_000

// get returns the entries of the period from..until ("" for the current
// version) and the version it ends at, from the cache when it holds that
// period.
func (dc *digestCache) get(st *store.Store, from, until string) ([]store.DigestEntry, string, error) {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	if until != "" && dc.entries != nil && dc.from == from && dc.until == until {
		return dc.entries, until, nil
	}
	entries, end, err := st.DigestUntil(from, until)
	if err != nil {
		return nil, "", err
	}
	dc.from, dc.until, dc.entries = from, end, nil
	if len(entries) <= maxCachedDigest {
		dc.entries = entries
	}
	return entries, end, nil
}

func digestUnknown(since string, err error) error {
	if errors.Is(err, store.ErrUnknownVersion) {
		return Errorf(http.StatusBadRequest, "since %s: the store's change log cannot say what changed since then (an unknown version, the first import, or older than 14 days)", quote(since))
	}
	return err
}
