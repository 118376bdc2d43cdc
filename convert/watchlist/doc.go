// Package watchlist converts a bank's own list of names, CSV or JSON Lines
// read by package table as batch reads a customer book, into consolidated
// records (Watchlist).
package watchlist
