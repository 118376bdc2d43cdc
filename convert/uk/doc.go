// Package uk converts the UK Sanctions List, in its XML (UK) and CSV
// (UKCSV) formats, and OFSI's consolidated list CSV into consolidated
// records.
package uk
