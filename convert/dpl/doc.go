// Package dpl converts the BIS Denied Persons List into consolidated
// records.
package dpl
