package monitor

import (
	"bytes"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/store"
)

func sortWants(ws []want) []want {
	slices.SortFunc(ws, func(a, b want) int {
		return strings.Compare(a.owner+a.profile+a.matchType+a.record, b.owner+b.profile+b.matchType+b.record)
	})
	return ws
}

func queuedWants(t *testing.T, db *store.Store) []want {
	t.Helper()
	es, err := NewOutbox(db).Queued(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []want
	for _, e := range es {
		got = append(got, want{e.Owner, e.ProfileID, e.MatchType, e.RecordID})
	}
	return sortWants(got)
}

func TestDeltaQueuesOneNotificationPerMatch(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, fixtureProfiles())
	if got := queuedWants(t, db); len(got) != 0 {
		t.Fatalf("registration queued %v; matches existing at registration must not notify", got)
	}
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	got := queuedWants(t, db)
	want := sortWants(slices.Clone(expectedDelta1))
	if !slices.Equal(got, want) {
		t.Fatalf("queued:\n%v\nwant:\n%v", got, want)
	}

	// A profile registered after delta1 never gets its changes; delta2
	// touches only R5 (an OTHER source ownerA does not include).
	register(t, m, []reg{{ownerA, individual("p-late", "Olga Ivanova"), access.Policy{}},
		{ownerA, individual("p-jones", "Peter Jones"), access.Policy{}}})
	applyFile(t, db, "testdata/delta2.jsonl", v1, v2, m.Hook())
	if got2 := queuedWants(t, db); !slices.Equal(got2, want) {
		t.Fatalf("after delta2 queued:\n%v\nwant unchanged:\n%v", got2, want)
	}
}

func TestFreshMonitorAndLoadedMonitorAgree(t *testing.T) {
	// A one-shot command builds the index inside the applying transaction;
	// a server keeps it and changes it with each registration. Both must
	// queue the same.
	db, _ := newStore(t)
	register(t, New(db, Options{}), fixtureProfiles())
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, New(db, Options{}).Hook())
	if got, want := queuedWants(t, db), sortWants(slices.Clone(expectedDelta1)); !slices.Equal(got, want) {
		t.Fatalf("queued:\n%v\nwant:\n%v", got, want)
	}
}

func TestPreloadedIndexFollowsRegistrations(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	if err := m.Preload(); err != nil {
		t.Fatal(err)
	}
	register(t, m, fixtureProfiles())
	// Re-registering changes the query: p-olga now looks for someone else,
	// and a removed profile gets nothing.
	register(t, m, []reg{{ownerA, individual("p-olga", "Somebody Else"), access.Policy{}}})
	if removed, err := m.Remove(ownerA, "p-maria"); err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	var want []want
	for _, w := range expectedDelta1 {
		if w.profile != "p-olga" && w.profile != "p-maria" {
			want = append(want, w)
		}
	}
	if got := queuedWants(t, db); !slices.Equal(got, sortWants(want)) {
		t.Fatalf("queued:\n%v\nwant:\n%v", got, sortWants(want))
	}
}

func TestFullImportNotifiesDifferences(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, fixtureProfiles())
	// The records of delta1 applied as a whole file: the store compares
	// record by record, so the same notifications follow (without the
	// transient R9 and the unknown R99, which a file cannot express).
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, nil)
	var file bytes.Buffer
	if _, _, err := exportAll(db, &file); err != nil {
		t.Fatal(err)
	}
	db2, _ := newStore(t)
	m2 := New(db2, Options{})
	register(t, m2, fixtureProfiles())
	if err := importReader(db2, &file, v1, m2.Hook()); err != nil {
		t.Fatal(err)
	}
	if got, want := queuedWants(t, db2), sortWants(slices.Clone(expectedDelta1)); !slices.Equal(got, want) {
		t.Fatalf("queued:\n%v\nwant:\n%v", got, want)
	}
}

func TestFirstImportNotifiesNothing(t *testing.T) {
	db, err := store.Open(t.TempDir()+"/aml.db", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, Options{})
	register(t, m, fixtureProfiles())
	importFile(t, db, "testdata/records.jsonl", v0, m.Hook())
	if got := queuedWants(t, db); len(got) != 0 {
		t.Fatalf("first import queued %v", got)
	}
}

func TestHookErrorRollsBackTheDelta(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, fixtureProfiles())
	hook := m.Hook()
	boom := errors.New("boom")
	_, err := applyDelta(db, "testdata/delta1.jsonl", v0, v1, func(tx *store.Tx, a *store.Applied) error {
		if err := hook(tx, a); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("apply: %v, want boom", err)
	}
	if got := queuedWants(t, db); len(got) != 0 {
		t.Fatalf("rolled-back delta left %v in the outbox", got)
	}
	if v, _ := db.Version(); v.ID != v0 {
		t.Fatalf("store at %q after a failed hook", v.ID)
	}
}

var (
	bodyRE = regexp.MustCompile(`^\{"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","event_id":"[0-9a-f-]{36}","profile_id":"[^"]+","match_type":"(ADD|UPDATE|DELETE)","entity":\{.*\}\}$`)
)

func TestNotificationBodies(t *testing.T) {
	db, _ := newStore(t)
	now := time.Date(2026, 11, 2, 4, 5, 6, 789_000_000, time.UTC)
	m := New(db, Options{Now: func() time.Time { return now }})
	register(t, m, fixtureProfiles())
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	es, err := NewOutbox(db).Queued(0)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range es {
		if !bodyRE.Match(e.Body) {
			t.Errorf("body shape: %s", e.Body)
		}
		b := parseBody(t, e.Body)
		if b.Timestamp != "2026-11-02T04:05:06.789Z" || b.EventID != e.EventID || b.ProfileID != e.ProfileID || b.MatchType != e.MatchType {
			t.Errorf("body %+v does not agree with entry %+v", b, e)
		}
		if _, err := uuid.Parse(b.EventID); err != nil || ids[b.EventID] {
			t.Errorf("event_id %q: not a fresh UUID (%v)", b.EventID, err)
		}
		ids[b.EventID] = true
		if entityID(t, b.Entity) != e.RecordID {
			t.Errorf("entity of %s is not %s", e.Body, e.RecordID)
		}
		ent := string(b.Entity)
		if !strings.Contains(ent, `"source_id":`) || strings.Contains(ent, `"sourceId"`) {
			t.Errorf("entity is not snake_case: %s", ent)
		}
		switch e.RecordID {
		case "R7":
			// Characters JSON encoders like to escape survive as the
			// record writer wrote them.
			if !strings.Contains(ent, `"place_of_birth":["Moscow"]`) || !strings.Contains(ent, `R&D <procurement> \"network\"`) {
				t.Errorf("R7 entity: %s", ent)
			}
		case "R2":
			// DELETE carries the record as it was; pep_level and
			// source_country only for keys with those features.
			if !strings.Contains(ent, `"name":"Maria Gonzalez"`) || strings.Contains(ent, "pep_level") || strings.Contains(ent, "source_country") {
				t.Errorf("R2 entity: %s", ent)
			}
		case "R1":
			// An UPDATE keeps the stored list_date (deltas carry none).
			if !strings.Contains(ent, `"list_date":"1600000000000"`) || !strings.Contains(ent, `"alias_names":["Ivan Petroff"]`) {
				t.Errorf("R1 entity: %s", ent)
			}
		}
	}
}

func TestAccessFeaturesShowAttributes(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, []reg{{ownerA, individual("p-maria", "Maria Gonzalez"), access.Policy{Features: access.Features{PEPLevel: true, SourceCountry: true}}}})
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	es, _ := NewOutbox(db).Queued(0)
	if len(es) != 1 || !bytes.Contains(es[0].Body, []byte(`"pep_level":2`)) || !bytes.Contains(es[0].Body, []byte(`"source_country":"ES"`)) {
		t.Fatalf("entries %v", es)
	}
}

func TestRegisterValidatesLikeChecks(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	cases := []struct {
		name  string
		p     Params
		param string
	}{
		{"no id", Params{Kind: query.Individual, Names: "a b"}, "profile_id"},
		{"control char id", Params{ID: "a\nb", Kind: query.Individual, Names: "a b"}, "profile_id"},
		{"long id", Params{ID: strings.Repeat("x", MaxProfileIDLen+1), Kind: query.Individual, Names: "a"}, "profile_id"},
		{"neither", Params{ID: "p", Kind: query.Individual}, "names"},
		{"both", Params{ID: "p", Kind: query.Individual, Names: "a", SearchAll: "b"}, "names"},
		{"fuzzy 3", Params{ID: "p", Kind: query.Individual, Names: "a", Fuzzy: 3}, "fuzzy_search"},
		{"bad dob", Params{ID: "p", Kind: query.Individual, Names: "a", DOB: "32/01/2000"}, "dob"},
		{"bad gender", Params{ID: "p", Kind: query.Individual, Names: "a", Gender: "x"}, "gender"},
		{"entity dob", Params{ID: "p", Kind: query.Entity, Names: "a", DOB: "01/01/2000"}, "dob"},
		{"any kind", Params{ID: "p", Kind: query.Any, Names: "a"}, "type"},
		{"no words", Params{ID: "p", Kind: query.Individual, Names: "--"}, "names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := m.Register(ownerA, c.p, access.Policy{}, -1)
			var pe *query.ParamError
			if !errors.As(err, &pe) || pe.Param != c.param {
				t.Fatalf("err %v, want a ParamError on %s", err, c.param)
			}
		})
	}
	if _, _, err := m.Register("", individual("p", "a"), access.Policy{}, -1); !errors.Is(err, ErrOwner) {
		t.Fatalf("empty owner: %v", err)
	}
	if n, _ := m.Count(ownerA); n != 0 {
		t.Fatalf("refused registrations stored %d profiles", n)
	}
}

func TestRegisterUpsertQuotaRemove(t *testing.T) {
	db, _ := newStore(t)
	clock := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	m := New(db, Options{Now: func() time.Time { return clock }})
	reg := func(id, names string, quota int64) (bool, error) {
		_, created, err := m.Register(ownerA, individual(id, names), access.Policy{}, quota)
		return created, err
	}
	if c, err := reg("a", "Ivan Petrov", 2); !c || err != nil {
		t.Fatalf("first: %v %v", c, err)
	}
	clock = clock.Add(time.Hour)
	if c, err := reg("a", "Olga Ivanova", 2); c || err != nil {
		t.Fatalf("upsert: created=%v %v", c, err)
	}
	p, _ := m.Get(ownerA, "a")
	if p == nil || p.Names != "Olga Ivanova" || !p.Registered.Equal(clock.Add(-time.Hour)) || !p.Updated.Equal(clock) || p.Kind != query.Individual {
		t.Fatalf("after upsert: %+v", p)
	}
	if _, err := reg("b", "Maria Gonzalez", 2); err != nil {
		t.Fatal(err)
	}
	_, err := reg("c", "John Smith", 2)
	var qe *QuotaError
	if !errors.As(err, &qe) || qe.Quota != 2 {
		t.Fatalf("third profile with quota 2: %v", err)
	}
	// Updating an existing profile is allowed at the quota.
	if _, err := reg("b", "Maria Gonzales", 2); err != nil {
		t.Fatalf("update at quota: %v", err)
	}
	// Other owners have their own count.
	if _, _, err := m.Register(ownerB, individual("c", "John Smith"), access.Policy{}, 1); err != nil {
		t.Fatal(err)
	}
	if n, _ := m.Count(ownerA); n != 2 {
		t.Fatalf("count %d", n)
	}
	for i, want := range []bool{true, false} {
		removed, err := m.Remove(ownerA, "a")
		if err != nil || removed != want {
			t.Fatalf("remove %d: %v %v", i, removed, err)
		}
	}
	if removed, err := m.Remove(ownerA, "never"); removed || err != nil {
		t.Fatalf("remove unknown: %v %v", removed, err)
	}
	ps, _ := m.Profiles(ownerA)
	if len(ps) != 1 || ps[0].ID != "b" {
		t.Fatalf("profiles %+v", ps)
	}
	all, _ := m.Profiles("")
	if len(all) != 2 {
		t.Fatalf("all profiles %+v", all)
	}
	if _, err := reg("c", "John Smith", 2); err != nil {
		t.Fatalf("after a removal the quota has room: %v", err)
	}
}

func TestEntryRoundTrip(t *testing.T) {
	e := &Entry{
		Seq: 42, EventID: uuid.NewString(), Owner: ownerA, ProfileID: "p \x00 ü", MatchType: "UPDATE", RecordID: "R1",
		Test: true, Queued: time.Unix(1, 2).UTC(), Attempts: 7, Next: time.Unix(3, 4).UTC(),
		LastStatus: 503, LastError: "receiver answered 503", Body: []byte(`{"a":"<&>"}`),
	}
	got, err := decodeEntry(e.encode())
	if err != nil {
		t.Fatal(err)
	}
	if got.Seq != e.Seq || got.EventID != e.EventID || got.ProfileID != e.ProfileID || !got.Test || !got.Queued.Equal(e.Queued) ||
		!got.Next.Equal(e.Next) || got.Attempts != 7 || got.LastStatus != 503 || got.LastError != e.LastError ||
		!bytes.Equal(got.Body, e.Body) || !got.Dead.IsZero() {
		t.Fatalf("round trip: %+v", got)
	}
	for _, bad := range [][]byte{nil, {9}, e.encode()[:20], append(e.encode(), 'x')} {
		if _, err := decodeEntry(bad); err == nil {
			t.Errorf("decoded %x", bad)
		}
	}
}

func TestBackoffSchedule(t *testing.T) {
	b := Backoff{}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	for i, w := range want {
		if d := b.Delay(i + 1); d != w {
			t.Errorf("delay %d = %v, want %v", i+1, d, w)
		}
	}
	if d := b.Delay(13); d != time.Hour {
		t.Errorf("delay 13 = %v, want 1h", d)
	}
	if d := b.Delay(1000); d != time.Hour {
		t.Errorf("delay 1000 = %v", d)
	}
}

func TestTestWebhookQueuesSample(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	e, err := m.TestWebhook(ownerA, "any-profile", access.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	b := parseBody(t, e.Body)
	if b.MatchType != "ADD" || b.ProfileID != "any-profile" || entityID(t, b.Entity) != SampleRecord().ID || !e.Test {
		t.Fatalf("sample %s", e.Body)
	}
	if _, err := m.TestWebhook(ownerA, "", access.Policy{}); err == nil {
		t.Fatal("empty profile id accepted")
	}
}

// TestHookSeesProfilesOfOtherProcesses: sync --every keeps one hook (and
// its index) across runs while amlscreen monitor register changes the
// profiles in between; the generation makes the hook rebuild.
func TestHookSeesProfilesOfOtherProcesses(t *testing.T) {
	db, _ := newStore(t)
	hook := New(nil, Options{}).Hook()
	register(t, New(db, Options{}), fixtureProfiles())
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, hook)
	before := len(queuedWants(t, db))
	other := New(db, Options{}) // another process, as far as hook knows
	register(t, other, []reg{{ownerB, individual("p-jones", "Peter Jones"), access.Policy{Sources: access.Sources{IncludeOther: true}}}})
	applyFile(t, db, "testdata/delta2.jsonl", v1, v2, hook)
	got := queuedWants(t, db)
	if len(got) != before+1 || !slices.Contains(got, want{ownerB, "p-jones", "UPDATE", "R5"}) {
		t.Fatalf("queued %v", got)
	}
}
