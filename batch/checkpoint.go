package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// checkpointFormat is bumped when the file's meaning changes, so that an
// old checkpoint is refused rather than misread.
const checkpointFormat = 1

// checkpoint is the sidecar file of a run: how far it got, where the hits
// and rejects files ended at that point, and the counts so far. A resumed
// run truncates both files to those offsets and skips the rows before
// NextRow, which is what makes its output byte-identical to a run that was
// never interrupted.
type checkpoint struct {
	Format int `json:"format"`
	// Settings are everything that shapes the output; a resume with
	// different ones would splice two different runs into one file.
	Settings      map[string]string `json:"settings"`
	NextRow       int64             `json:"next_row"`
	Line          int               `json:"line"` // of the last row done, for people reading the file
	OutOffset     int64             `json:"out_offset"`
	RejectsOffset int64             `json:"rejects_offset"`
	// SuppressedOffset is the end of the suppressed hits file of a run
	// that applies decisions.
	SuppressedOffset int64  `json:"suppressed_offset,omitempty"`
	ElapsedNS        int64  `json:"elapsed_ns"`
	Counts           Counts `json:"counts"`
}

// readCheckpoint returns the checkpoint at path; an error wrapping
// os.ErrNotExist when there is none.
func readCheckpoint(path string) (*checkpoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if cp.Format != checkpointFormat {
		return nil, fmt.Errorf("checkpoint %s: format %d, this version writes %d", path, cp.Format, checkpointFormat)
	}
	if cp.NextRow < 0 || cp.OutOffset < 0 || cp.RejectsOffset < 0 || cp.SuppressedOffset < 0 {
		return nil, fmt.Errorf("checkpoint %s: negative position", path)
	}
	cp.Counts.init()
	return &cp, nil
}

// mismatch names the first setting that differs between a checkpoint and
// the run that wants to resume from it, or returns "".
func (cp *checkpoint) mismatch(settings map[string]string) string {
	keys := slices.Sorted(maps.Keys(settings))
	for k := range cp.Settings {
		if _, ok := settings[k]; !ok {
			keys = append(keys, k)
		}
	}
	// Sorted whole, so that the setting named is the same on every run.
	slices.Sort(keys)
	for _, k := range keys {
		if cp.Settings[k] != settings[k] {
			return fmt.Sprintf("%s was %q, now %q", k, cp.Settings[k], settings[k])
		}
	}
	return ""
}

// writeCheckpoint replaces the checkpoint at path atomically: a crash
// leaves the old one or the new one, never half of either.
func writeCheckpoint(path string, cp *checkpoint) error {
	cp.Format = checkpointFormat
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return fmt.Errorf("encode checkpoint: %w", err)
	}
	return writeFileAtomic(path, append(b, '\n'))
}

func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	// Created like os.Create, so that the umask decides who may read it,
	// as for the hits file beside it.
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", filepath.Base(path), os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	// The rename is durable once the directory is; a failure here only
	// risks the previous checkpoint coming back after a power cut.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeCheckpoint deletes a checkpoint that no longer describes the files.
func removeCheckpoint(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove checkpoint: %w", err)
	}
	return nil
}
