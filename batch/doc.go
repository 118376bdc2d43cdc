// Package batch screens whole customer books against the engine: the run
// a bank makes over every customer after each list update.
//
// A book is CSV with a header row or JSON Lines, in any of the encodings
// core-banking exports use; its columns map to the fields of a check (id,
// name, type, dob, gender, citizenship). Each row becomes one
// checkIndividual, checkEntity or checkName with the semantics of
// docs/MATCHING.md, so a batch finds exactly what the same checks made one by
// one would. Rows that cannot make a check (no name, a bad date, an
// unknown country) are rejected with their line number rather than
// stopping the run.
//
// Run streams the book through a pool of workers and writes the hits in
// input order, with memory bounded by a few batches per worker whatever
// the book's size. It checkpoints as it goes: an interrupted run resumes
// where it stopped and yields the same bytes as one that never stopped.
// Shards split a book between processes.
//
// The package knows no storage: the caller hands it an index (of a whole
// store, or of only the records changed since a version).
package batch
