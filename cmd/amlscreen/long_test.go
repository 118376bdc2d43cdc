package main

import "os"

// longTests reports whether the long variants of the tests that start
// child processes run, with today's larger books:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 ./cmd/amlscreen
//
// CI's nightly run sets it (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
