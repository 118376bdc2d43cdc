// Package decision keeps what analysts decided about hits, so that a
// resolved false positive does not come back at every screening, and keeps
// every decision ever made as an audit trail.
//
// # Decisions
//
// A decision is about one record for one subject, made by one API key:
//
//   - Owner is the key's id (server.KeyID: a hash, never the secret). A key
//     reads and changes only its own decisions.
//   - Subject is who was screened: a customer id (batch uses the book's
//     id column), a search profile id (monitoring), or, for a screening
//     that names no one, the normalised query (QuerySubject: "q:", the
//     check's kind, the query's words folded and sorted, and its filters).
//   - RecordID is the list record the hit was on.
//   - Status is false_positive, true_match or escalated; Note says why; Who
//     is the key's name (or the analyst named in an imported row); At is
//     when.
//   - Two fingerprints of the record as the analyst saw it: Fingerprint over
//     its whole content (screening), IdentityFingerprint over its names,
//     dates of birth and citizenships (monitoring). See Content and
//     Identity.
//
// Decisions are never deleted or changed. A new decision on the same
// (owner, subject, record) supersedes the current one and both stay in the
// history; the current decision is the one decided last (by At, then by
// the order they were stored in), so an imported old decision does not
// override a newer one. Every change is one bbolt transaction in the
// bucket this package owns (store.Decisions), created on first write; a store
// without it reads as holding no decisions.
//
// # Suppression
//
// The rule every surface applies (Judge):
//
//   - a current false_positive whose Fingerprint equals the record's content
//     now suppresses that (subject, record) hit: it is left out of the hits
//     (the workbench lists it apart, batch writes it to a file of its own);
//   - when the record's content changed since the decision, the hit comes
//     back, marked "changed since decision", until someone decides again;
//   - true_match and escalated are shown with the decision and never
//     suppressed: a confirmed sanctioned customer keeps appearing.
//
// Monitoring applies the narrower identity rule (SuppressUpdate): an
// UPDATE notification of a record that a profile's owner decided
// false_positive for that profile (subject = profile id) is not sent
// unless a name, date of birth or citizenship changed since the decision.
// ADD and DELETE notifications are always sent.
//
// A fingerprint is taken of the content the analyst reviewed (the
// workbench sends the one of the page that was shown), so a record that
// changed between review and decision is never suppressed on the strength
// of a review of its older content.
package decision
