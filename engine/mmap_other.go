//go:build !unix

package engine

import (
	"fmt"
	"io"
	"os"
)

// mapFile reads the file into the heap where memory mapping is not
// available: the segment works the same, at the cost of its size in heap.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return b, func() error { return nil }, nil
}

func dropPages([]byte) {}
