package screen

import (
	"os"
	"testing"
)

// TestMain removes what the tests of this binary shared once they end.
func TestMain(m *testing.M) {
	code := m.Run()
	if damagedTemplate.dir != "" {
		os.RemoveAll(damagedTemplate.dir)
	}
	os.Exit(code)
}
