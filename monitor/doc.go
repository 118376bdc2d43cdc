// Package monitor is ongoing monitoring (docs/API.md "Monitoring and
// webhooks"): search profiles registered per
// API key, matched against every change set the store applies, with the
// resulting notifications kept in a durable outbox and posted to the key's
// webhook URL, signed, until the receiver acknowledges them.
//
// # Guarantees
//
// Matching runs in the store transaction that applies an import or change
// set (a store.Hook the writer registers once with store.Store.OnApply,
// so that every writing path runs it), and the notifications it produces are written to
// store.Outbox in that same transaction. A crash therefore leaves
// either the old records and no notifications, or the new records and all
// of their notifications: none is lost and none invented. The profiles a
// change set is matched against are those the same transaction sees, so a
// profile registered after a change never gets it, and matches existing at
// registration never trigger a webhook (there is no initial screening).
//
// Delivery is at least once. Each notification has a UUID event_id and a
// body fixed when it is queued; every redelivery sends the same bytes with
// the same event_id, so receivers de-duplicate by event_id (see the
// example). A Sender retries with exponential backoff (1 s doubling to
// 1 h) and gives a notification up 72 h after it was queued, moving it to
// the dead letters that amlscreen monitor outbox shows. A delivery cut short
// by a crash is retried once its lease runs out.
//
// # Matching rules
//
// A profile is the check it was registered with (checkIndividual or
// checkEntity with its names or search_all, dob, gender and fuzzy_search),
// restricted to the sources the registering key includes by default (the
// rule of package access, stored with the profile as Profile.Access). For each record the change set touches, compared with the state
// before the change set:
//
//   - ADD: the added record matches;
//   - UPDATE: the record matches after or before the change (the entity
//     sent is the record after);
//   - DELETE: the deleted record matched before (the entity sent is the
//     record as it was).
//
// An UPDATE is not notified when the profile's owner decided the record a
// false_positive for that profile (a decision whose subject is the profile
// id, see package decision) and no name, date of birth or citizenship of
// the record changed since the decision.
//
// One notification is sent per (profile, record) and change set, however
// many name strings match. A record added and deleted within one change set
// notifies nothing. Changes are judged by what the store did (an UPDATE of
// an unknown id is an ADD). A full import that replaces a store's records
// is compared record by record with what it replaces; the first import into
// an empty store notifies nothing, there being no earlier state.
package monitor
