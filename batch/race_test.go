//go:build race

package batch

// raceEnabled shrinks the big generated books under the race detector,
// which runs them ten times slower: its job is the concurrency, which a
// smaller book exercises as well.
const raceEnabled = true
