package sign

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tmpPrefix starts the names of files being written; a crash can leave one
// behind, and the next writer (holding the lock) removes it.
const tmpPrefix = ".tmp-"

// writeFileAtomic replaces dir/name with data so that a reader, or a crash,
// sees either the old file or the whole new one: the data is written to a
// temporary file in the same directory, synced, and renamed over the target,
// then the directory is synced so the rename itself survives a power cut.
func writeFileAtomic(dir, name string, data []byte, perm os.FileMode) (err error) {
	f, err := os.CreateTemp(dir, tmpPrefix)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return syncDir(dir)
}

// syncDir flushes directory entries (new names, renames) to disk. Platforms
// that cannot sync a directory report an error on Sync; that is not a
// failure of the write, so only opening the directory can fail here.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	_ = d.Sync()
	return d.Close()
}

// removeStaleTemps deletes temporary files left by a writer that crashed.
// Callers hold the directory lock, so no live writer owns one.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
