//go:build linux

package outfile

import (
	"errors"
	"testing"

	"github.com/amlscreen/amlscreen/internal/ptytest"
)

// TestBinaryToTerminalRefused: a PDF or gzip stream is never written to a
// terminal, named as a file or reached as standard output; text is.
func TestBinaryToTerminalRefused(t *testing.T) {
	_, tty := ptytest.Open(t)
	var te *TerminalError
	if err := WriteFile("-", []byte("%PDF"), Options{Stdout: tty, Binary: "PDF"}); !errors.As(err, &te) {
		t.Errorf("PDF to a terminal on stdout: %v", err)
	}
	if err := WriteFile(tty.Name(), []byte("\x1f\x8b"), Options{Binary: "gzip"}); !errors.As(err, &te) {
		t.Errorf("gzip to a terminal by name: %v", err)
	}
	if err := WriteFile("-", []byte("text\n"), Options{Stdout: tty}); err != nil {
		t.Errorf("text to a terminal: %v", err)
	}
}
