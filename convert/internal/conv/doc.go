// Package conv holds what the converters of every list share: record ids
// and their rules, dates and their ranges, country names, the remarks
// parser, merging records of one entry, input limits, and writing and
// checking consolidated files.
package conv
