// Package casework keeps the work done on hits: alerts, their review with
// four eyes, the people who do it and an audit log a regulator can check.
//
// # Alerts
//
// An alert is one hit that needs a human: one per (subject, record), the
// subject being a customer id (batch), a profile id (monitoring) or a
// query subject (decision.QuerySubject, a screening). Raise adds alerts in
// one transaction per call and never duplicates one: raising a hit that
// already has an alert changes nothing while the record's content is the
// one the alert was raised on (decision.Content, the fingerprint rule of
// decisions), and reopens the alert when the record changed since. Hook,
// registered on a store that applies changes, reopens the alerts of every
// updated record in the transaction that updates it.
//
// An alert moves open → proposed → closed: an analyst proposes
// false_positive or true_match with a reason; a reviewer who is not the
// proposer approves (closed) or sends it back (open). Only an approval
// acts: a false positive becomes a decision of the alert's owner in
// package decision, so later screenings suppress the hit while the record
// stays as it was; a true match is recorded the same way (never
// suppressed) and listed apart as escalated. For source types a site
// exempts (SetFourEyesOff), a proposal closes the alert at once.
//
// # People
//
// Users have a role: analyst (works alerts), reviewer (also approves and
// sends back, and assigns to others) or admin (also manages users and
// settings). Passwords are hashed with argon2id. Every method that
// changes something takes the Actor doing it and checks the role in the
// transaction that makes the change, so no surface can skip the check. An
// Operator actor is someone holding the store file (the command line):
// allowed the administrative actions, never a review.
//
// # Audit log
//
// Every change (alerts raised, reopened, assigned, commented, proposed,
// approved, sent back; decisions; users; settings) and every screening a
// caller logs (LogScreening) appends an entry to the audit bucket in the
// transaction of the change. Each entry carries the SHA-256 of the
// canonical encoding of the one before, so Verify finds an entry changed,
// removed or inserted and names the first one broken.
//
// # Store
//
// The package keeps its state in store's sub-stores store.Alerts,
// AlertIndex, AlertKeys, AlertRecords, Users, Audit and CaseworkSettings
// (settings and the audit log's head), read and written through a
// store.Tx and created on first write; a store without them reads as
// holding nothing. Every change is one store transaction.
package casework
