// Package csl converts the US Consolidated Screening List (CSV), one
// source per list it merges (CSLLists), into consolidated records.
package csl
