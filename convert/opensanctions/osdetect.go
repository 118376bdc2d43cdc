package opensanctions

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// OpenSanctions converts an OpenSanctions export read from r, telling the
// format by its content: a stream of JSON objects is the FollowTheMoney
// entity stream (FtM, entities.ftm.json), anything else is read as
// targets.simple.csv. Either may be gzip-compressed. The mapping is FtM's
// or OpenSanctionsSimple's; both give the same ids.
func OpenSanctions(r io.Reader, o OpenSanctionsOptions, emit func(*record.Record) error) error {
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "OpenSanctions export"))
	if err != nil {
		return fmt.Errorf("read OpenSanctions export: %w", err)
	}
	br := bufio.NewReaderSize(in, 4096)
	head, err := br.Peek(4096)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read OpenSanctions export: %w", err)
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) == 0 {
		return errors.New("read OpenSanctions export: the file is empty")
	}
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return fmt.Errorf("read OpenSanctions export: compressed twice: %w", gzip.ErrHeader)
	}
	if head[0] == '<' {
		return errors.New("read OpenSanctions export: an XML file, not entities.ftm.json or targets.simple.csv")
	}
	if head[0] == '{' {
		return FtM(br, o, emit)
	}
	return OpenSanctionsSimple(br, o, emit)
}
