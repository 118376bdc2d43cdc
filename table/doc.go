// Package table reads tables of people: customer books and watchlists as
// CSV with a header row or JSON Lines, plain or gzip, in any of the
// encodings banks export, one row at a time, and the values of their
// cells (type, date of birth, gender) as batch screens them and convert
// turns them into records. batch and convert share it, so that a book and
// a watchlist made from the same export read alike.
package table
