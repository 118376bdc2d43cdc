//go:build unix

package engine

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file read-only into memory, as bbolt maps its store:
// pages are read on first use and stay in the kernel's page cache, shared
// with every process that maps the same file, and the garbage collector
// never scans them. The returned function unmaps it.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("map %s: %d bytes do not fit in memory", f.Name(), size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", f.Name(), err)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// dropPages tells the kernel that the mapped pages of b are not needed
// now: they leave the process's resident memory (they stay in the page
// cache, and are read back from it if used again). Opening a segment
// reads it whole to check it; this keeps that from raising the peak.
func dropPages(b []byte) {
	const page = 4096
	// Only whole pages inside b: madvise works on pages.
	start := (page - int(uintptrOf(b))%page) % page
	if start >= len(b) {
		return
	}
	end := start + (len(b)-start)/page*page
	if end > start {
		syscall.Madvise(b[start:end], syscall.MADV_DONTNEED)
	}
}
