package monitor

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// Match types of notifications (docs/API.md "Monitoring and webhooks").
const (
	MatchAdd    = record.ChangeAdd
	MatchUpdate = record.ChangeUpdate
	MatchDelete = record.ChangeDelete
)

// netChange is what a change set did to one record id, from the state
// before the set to the state after it.
type netChange struct {
	id            string
	before, after *record.Record
	pb, pa        *probe
}

func (n *netChange) matchType() string {
	switch {
	case n.before == nil && n.after != nil:
		return MatchAdd
	case n.before != nil && n.after != nil:
		return MatchUpdate
	case n.before != nil:
		return MatchDelete
	}
	return ""
}

// netChanges folds applied into one change per record id, in the order of
// first appearance: the state before the set and the state after it.
func netChanges(applied *store.Applied) []*netChange {
	var out []*netChange
	byID := make(map[string]*netChange, len(applied.Changes))
	for i := range applied.Changes {
		c := &applied.Changes[i]
		if c.Effect == store.EffectNone {
			continue
		}
		n := byID[c.ID]
		if n == nil {
			n = &netChange{id: c.ID, before: c.Before}
			byID[c.ID] = n
			out = append(out, n)
		}
		n.after = c.After
	}
	return out
}

// Notification is a webhook to send: to whom, and the body.
type Notification struct {
	Profile   *Profile
	MatchType string
	Entity    *record.Record
}

// matches returns the notifications of a change set, in change order and,
// within one record, by owner and profile id. eix is the list's index, for
// scored profiles (nil when there are none).
func matches(ix *profileIndex, eix *engine.Index, applied *store.Applied) ([]Notification, error) {
	if ix == nil || ix.live == 0 {
		return nil, nil
	}
	changes := netChanges(applied)
	var probes []*probe
	for _, n := range changes {
		mt := n.matchType()
		if mt == "" {
			continue
		}
		if n.after != nil {
			n.pa = newProbe(n.after)
			probes = append(probes, n.pa)
		}
		if n.before != nil && mt != MatchAdd {
			n.pb = newProbe(n.before)
			probes = append(probes, n.pb)
		}
	}
	ix.matchAll(probes)
	if err := ix.matchScored(eix, probes); err != nil {
		return nil, err
	}
	var out []Notification
	for _, n := range changes {
		var slots []uint32
		if n.pa != nil {
			slots = append(slots, n.pa.matched...)
		}
		if n.pb != nil {
			slots = append(slots, n.pb.matched...)
		}
		if len(slots) == 0 {
			continue
		}
		slices.Sort(slots)
		slots = slices.Compact(slots)
		entity := n.after
		mt := n.matchType()
		if mt == MatchDelete {
			entity = n.before
		}
		start := len(out)
		for _, s := range slots {
			out = append(out, Notification{Profile: ix.slots[s].p, MatchType: mt, Entity: entity})
		}
		slices.SortFunc(out[start:], func(a, b Notification) int {
			return cmp.Or(cmp.Compare(a.Profile.Owner, b.Profile.Owner), cmp.Compare(a.Profile.ID, b.Profile.ID))
		})
	}
	return out, nil
}

// writeNotifications matches applied against ix and queues a notification
// per match in tx, due at once, except UPDATEs that an analyst's decision
// holds back (decision.SuppressUpdate). It returns how many it queued.
func writeNotifications(tx *store.Tx, ix *profileIndex, eix *engine.Index, applied *store.Applied, now time.Time) ([]Notification, error) {
	ns, err := matches(ix, eix, applied)
	if err != nil {
		return nil, err
	}
	now = now.UTC()
	var queued []Notification
	for _, n := range ns {
		if n.MatchType == MatchUpdate {
			held, err := decision.SuppressUpdate(tx, n.Profile.Owner, n.Profile.ID, n.Entity)
			if err != nil {
				return nil, fmt.Errorf("decision on %q for profile %q: %w", n.Entity.ID, n.Profile.ID, err)
			}
			if held {
				continue
			}
		}
		queued = append(queued, n)
		e, err := newEntry(n, now, false)
		if err != nil {
			return nil, err
		}
		if err := enqueue(tx, e); err != nil {
			return nil, fmt.Errorf("queue notification for profile %q: %w", n.Profile.ID, err)
		}
	}
	return queued, nil
}

// newEntry builds the outbox entry of n with a fresh event id; its body is
// fixed here, once.
func newEntry(n Notification, now time.Time, test bool) (*Entry, error) {
	id, err := uuid.NewRandom()
	if err != nil {
		return nil, fmt.Errorf("event id: %w", err)
	}
	e := &Entry{
		EventID:   id.String(),
		Owner:     n.Profile.Owner,
		ProfileID: n.Profile.ID,
		MatchType: n.MatchType,
		RecordID:  n.Entity.ID,
		Test:      test,
		Queued:    now,
		Next:      now,
	}
	e.Body = appendBody(nil, now, e.EventID, n.Profile.ID, n.MatchType, n.Entity, n.Profile.Access.WriteOptions(record.Snake))
	return e, nil
}

// appendBody writes the notification body of docs/API.md "Monitoring and webhooks", in that
// field order: timestamp (RFC 3339 UTC with milliseconds), event_id,
// profile_id, match_type and entity, the record with snake_case keys as
// the checks answer it.
func appendBody(dst []byte, ts time.Time, eventID, profileID, matchType string, entity *record.Record, o record.WriteOptions) []byte {
	str := func(s string) {
		b, _ := json.Marshal(s) // a string always marshals
		dst = append(dst, b...)
	}
	dst = append(dst, `{"timestamp":`...)
	str(ts.UTC().Format(record.TimestampFormat))
	dst = append(dst, `,"event_id":`...)
	str(eventID)
	dst = append(dst, `,"profile_id":`...)
	str(profileID)
	dst = append(dst, `,"match_type":`...)
	str(matchType)
	dst = append(dst, `,"entity":`...)
	dst = entity.Append(dst, o)
	return append(dst, '}')
}

// Body is a notification as a receiver decodes it (docs/API.md "Monitoring and webhooks").
type Body struct {
	Timestamp string          `json:"timestamp"`
	EventID   string          `json:"event_id"`
	ProfileID string          `json:"profile_id"`
	MatchType string          `json:"match_type"`
	Entity    json.RawMessage `json:"entity"`
}

// SampleRecord is the entity of testWebhookDelivery samples: a record that
// is in no list, marked as a sample in every field a receiver might show.
func SampleRecord() *record.Record {
	return &record.Record{
		ID:          "SAMPLE0000000001",
		SourceID:    "amlscreen_sample",
		SourceType:  record.SourceSanction,
		EntityType:  record.EntityIndividual,
		Gender:      record.GenderMale,
		Name:        "John Sample",
		GivenNames:  []string{"John"},
		LastNames:   []string{"Sample"},
		DateOfBirth: []string{"01/01/1970"},
		Citizenship: []string{"DE"},
		SanctionDetails: []string{
			"Sample notification sent by testWebhookDelivery: not a real record.",
		},
	}
}

// TestWebhook queues a sample ADD notification for profileID of owner
// (testWebhookDelivery), sent like every other: signed, with retries. The
// profile need not exist. It returns the queued entry.
func (m *Monitor) TestWebhook(owner, profileID string, a access.Policy) (*Entry, error) {
	if err := checkOwner(owner); err != nil {
		return nil, err
	}
	if profileID == "" {
		return nil, fmt.Errorf("test webhook: profile_id is required")
	}
	p := &Profile{Owner: owner, Params: Params{ID: profileID}, Access: a}
	e, err := newEntry(Notification{Profile: p, MatchType: MatchAdd, Entity: SampleRecord()}, m.now().UTC(), true)
	if err != nil {
		return nil, err
	}
	err = m.db.Write(func(tx *store.Tx) error {
		if err := enqueue(tx, e); err != nil {
			return err
		}
		tx.OnCommit(m.wake)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("test webhook: %w", err)
	}
	return e, nil
}
