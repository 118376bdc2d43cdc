package main

import (
	"errors"
	"io"

	"github.com/amlscreen/amlscreen/outfile"
)

// createOutput opens the file a command writes (its --out) by the rules
// of package outfile, the same for every command: "-" is stdout, regular
// files are replaced whole when complete, devices and pipes are written
// in place. binary ("PDF", "gzip", or "") refuses a terminal; that
// refusal is a usage error, since the destination is the caller's choice.
func createOutput(name string, stdout io.Writer, binary string) (*outfile.File, error) {
	f, err := outfile.Create(name, outfile.Options{Stdout: stdout, Binary: binary})
	var te *outfile.TerminalError
	if errors.As(err, &te) {
		return nil, usagef("--out: %v", err)
	}
	return f, err
}

// writeOutput writes data to the file name as createOutput opens it.
func writeOutput(name string, stdout io.Writer, binary string, data []byte) error {
	f, err := createOutput(name, stdout, binary)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// binaryIf returns kind when cond holds, else "" (text).
func binaryIf(cond bool, kind string) string {
	if cond {
		return kind
	}
	return ""
}
