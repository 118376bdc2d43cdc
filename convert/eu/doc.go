// Package eu converts the EU financial sanctions list, in its XML (EU) and
// CSV (EUCSV) formats, into consolidated records.
package eu
