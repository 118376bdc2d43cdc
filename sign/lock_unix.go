//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sign

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive advisory lock on dir/.lock so that two
// processes changing the keyring (say, `amlscreen keys rotate` run twice at
// once) apply their changes one after the other instead of losing one. The
// kernel drops the lock when the process dies, so a crash never leaves the
// keyring locked. Readers do not lock: they only ever see whole files.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock keyring %s: %w", dir, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock keyring %s: %w", dir, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
