// Package layering holds no code: its test checks the import rules the
// package map depends on, so that a shortcut across layers fails the
// build's tests instead of growing unnoticed.
package layering
