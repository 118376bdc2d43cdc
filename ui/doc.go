// Package ui is the analyst workbench that amlscreen serve shows at /ui/:
// a few server-rendered pages to screen names, read hits and records,
// download the PDF report, record decisions, manage monitoring profiles
// and their notifications, and see what data the server holds.
//
// Everything is in the binary (html/template pages, plain CSS and a
// little JavaScript, embedded): nothing is fetched from elsewhere, for
// sites without internet. Every page works without JavaScript, with the
// keyboard alone, and escapes everything it shows.
//
// # Sign-in and sessions
//
// An analyst signs in with an API key of the server's keys file and then
// acts as that key: decisions are recorded under its name, and only its
// own decisions, profiles, notifications and usage are shown. The session
// cookie is HttpOnly, SameSite=Strict, Secure over TLS (or with
// Config.SecureCookies behind a proxy), and expires after an hour without
// use and eight hours after sign-in. The key is kept in the server's
// memory and checked again on every request, so a key disabled by a
// reload of the keys file ends its sessions. Every form that changes
// something carries the session's CSRF token, and a form posted from
// another origin is refused.
//
// # One logic
//
// The pages have no screening logic of their own (see Backend and
// NewBackend): checks, reports and profile registration go through the
// /v1 handler in process, with the session's key, so they are
// validated, billed and limited as API calls and fail with the API's
// messages; decisions are package decision's, applied with its rule.
//
// # Casework
//
// People signed in as users of the store's casework (Config.Casework)
// work alerts: a review queue filtered, sorted and paged over casework's
// alert index (queue.go), an alert page where an analyst proposes and a
// reviewer who did not propose approves or sends back (alert.go), the
// audit log and a monthly summary (audit.go). Every change is
// casework's, which checks the person's role again in its transaction; a
// workbench screening raises alerts for the hits no decision suppresses
// and is logged with the person.
package ui
