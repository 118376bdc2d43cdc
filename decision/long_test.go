package decision

import "os"

// longTests reports whether AMLSCREEN_LONG_TESTS asks for the long
// variants of the tests (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
