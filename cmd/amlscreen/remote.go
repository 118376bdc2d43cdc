package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
	"github.com/amlscreen/amlscreen/tlsconf"
)

// remote asks a running amlscreen serve (or the hosted service) through
// the /v1 API: what status and check do with --server, since serve holds
// its store for writing and no other process can open it meanwhile.
type remote struct {
	base string // normalized base URL, without /v1
	key  string
	http *http.Client
}

// remoteTimeout bounds one call: checks answer in milliseconds, a busy
// server in seconds.
const remoteTimeout = time.Minute

// newRemote checks --server and finds the API key: --api-key, else
// AMLSCREEN_API_KEY, as sync takes it.
func newRemote(server, apiKey, caBundle string) (*remote, error) {
	base, err := syncer.NormalizeUpstream(server)
	if err != nil {
		return nil, usagef("--server: %v", err)
	}
	if apiKey == "" {
		apiKey = os.Getenv(apiKeyEnv)
	}
	if apiKey == "" {
		return nil, usagef("--api-key: --server needs an API key of the server's keys file, and %s is not set", apiKeyEnv)
	}
	roots, err := rootCAs(caBundle)
	if err != nil {
		return nil, err
	}
	return &remote{base: base, key: apiKey, http: &http.Client{Timeout: remoteTimeout, Transport: tlsconf.Transport(roots)}}, nil
}

// remoteError is an answer of the server other than 200.
type remoteError struct {
	status  int
	message string
}

func (e *remoteError) Error() string {
	msg := fmt.Sprintf("server answered %d %s: %s", e.status, http.StatusText(e.status), e.message)
	switch e.status {
	case http.StatusUnauthorized:
		msg += " (check --api-key or " + apiKeyEnv + ": a key of the server's keys file)"
	case http.StatusNotFound:
		msg += " (--server must be the base URL of amlscreen serve, without /v1)"
	}
	return msg
}

// get sends GET /v1/<path>?q with the key and returns the body of a 200
// answer. A 400 is a usage error, since the server refused the values
// given; a server that cannot be reached says what to check.
func (r *remote) get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	u := r.base + "/v1/" + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, usagef("--server: %v", err)
	}
	req.Header.Set("x-api-key", r.key)
	req.Header.Set("User-Agent", "amlscreen")
	resp, err := r.http.Do(req)
	if err != nil {
		var de *net.DNSError
		if errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &de) && de.IsNotFound {
			return nil, fmt.Errorf("cannot reach the server at %s: %w (check --server, and that amlscreen serve runs there)", r.base, err)
		}
		return nil, fmt.Errorf("server %s: %w", r.base, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("server %s: reading the answer: %w", r.base, err)
	}
	if resp.StatusCode == http.StatusOK {
		return body, nil
	}
	e := &remoteError{status: resp.StatusCode}
	var eb struct {
		Message string `json:"error_message"`
	}
	if json.Unmarshal(body, &eb) == nil && eb.Message != "" {
		e.message = eb.Message
	} else {
		e.message = clip(strings.TrimSpace(string(body)), 200)
	}
	if resp.StatusCode == http.StatusBadRequest {
		return nil, usageError{e}
	}
	return nil, e
}

// lockHint adds to a store that is locked by another process (serve, or a
// sync or import running) how to ask a running server instead.
func lockHint(err error) error {
	var le *store.LockedError
	if errors.As(err, &le) {
		return fmt.Errorf("%w; to ask a running amlscreen serve, use --server URL (key in %s)", err, apiKeyEnv)
	}
	return err
}

// checkPaths are the API endpoints of check --type.
var checkPaths = map[query.Kind]string{query.Individual: "checkIndividual", query.Entity: "checkEntity", query.Any: "checkName"}

// remoteCheck runs check --server: the query, validated as a local check
// validates it, is asked of the server; JSON output is its CheckResponse
// as answered, the table explains its hits as a local check does.
func remoteCheck(out io.Writer, f *checkFlags, q query.Query, format string) error {
	switch {
	case f.server == "":
		return usagef("--api-key: only with --server")
	case len(f.data) > 0 || f.store != "":
		return usagef("--server excludes --store and --data")
	case f.includeOther:
		return usagef("--include-other: with --server the key's settings choose the default sources; name them with --includes")
	case f.limitSet:
		return usagef("--limit: with --server the server answers up to %d hits", query.DefaultLimit)
	}
	r, err := newRemote(f.server, f.apiKey, f.caBundle)
	if err != nil {
		return err
	}
	v := url.Values{}
	for name, val := range map[string]string{
		"names": q.Names, "search_all": q.SearchAll, "dob": q.DOB, "gender": q.Gender,
		"citizenship": q.Citizenship, "includes": f.includes,
	} {
		if val != "" {
			v.Set(name, val)
		}
	}
	if q.Fuzzy > 0 {
		v.Set("fuzzy_search", strconv.Itoa(q.Fuzzy))
	}
	if q.Match == query.Scored {
		v.Set("match", "scored")
		if q.MinScore != 0 {
			v.Set("min_score", strconv.FormatFloat(q.MinScore, 'f', -1, 64))
		}
	}
	ctx := context.Background()
	body, err := r.get(ctx, checkPaths[q.Kind], v)
	if err != nil {
		return remoteParamToUsage(err)
	}
	if format == "json" {
		_, err = out.Write(append(body, '\n'))
		return err
	}
	var resp struct {
		Total int               `json:"total_hits"`
		Found []json.RawMessage `json:"found_records"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return fmt.Errorf("server %s: the answer is not a CheckResponse: %w", r.base, err)
	}
	res := &engine.Result{Total: resp.Total}
	for _, raw := range resp.Found {
		// A scored answer's records carry match_score and match_reason
		// beside the record's own fields.
		var rec record.Record
		var scored struct {
			Score  float64             `json:"match_score"`
			Reason *engine.ScoreReason `json:"match_reason"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("server %s: a found record is not a record: %w", r.base, err)
		}
		if err := json.Unmarshal(raw, &scored); err != nil {
			return fmt.Errorf("server %s: a found record's match_reason: %w", r.base, err)
		}
		delete(rec.Extra, "match_score")
		delete(rec.Extra, "match_reason")
		res.Hits = append(res.Hits, engine.Hit{Record: &rec, Score: scored.Score, Reason: scored.Reason})
	}
	if format == "csv" {
		return writeCheckCSV(out, q, res)
	}
	return writeCheckTable(out, q, res, "server "+r.base, r.version(ctx))
}

// remoteParamToUsage names the flag in a 400 of the server, whose message
// starts with the parameter ("citizenship: ...").
func remoteParamToUsage(err error) error {
	var re *remoteError
	if !errors.As(err, &re) || re.status != http.StatusBadRequest {
		return err
	}
	if param, msg, ok := strings.Cut(re.message, ": "); ok && flagOf[param] != "" {
		return usagef("%s: %s (the server refused it)", flagOf[param], msg)
	}
	return err
}

// version asks /readyz (no key needed) which version the server answers
// from; "" when it does not say.
func (r *remote) version(ctx context.Context) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/readyz", nil)
	if err != nil {
		return ""
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var body struct {
		Version string `json:"version"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body) != nil {
		return ""
	}
	return body.Version
}
