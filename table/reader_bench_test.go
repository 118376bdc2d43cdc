package table

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkReaderCSV reads a 100,000-row CSV book, quoted values included:
// the reader's share of a batch run.
//
//	go test ./batch -run '^$' -bench ReaderCSV -count 6
func BenchmarkReaderCSV(b *testing.B) {
	var book bytes.Buffer
	book.WriteString("customer_id,full_name,type,date_of_birth,gender,nationality\n")
	for i := range 100_000 {
		fmt.Fprintf(&book, "C%07d,\"Müller, Anna %d\",individual,01/02/1970,F,DE\n", i, i)
	}
	data := book.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data), ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			row, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil || row.Reject != nil {
				b.Fatalf("%v %+v", err, row.Reject)
			}
			n++
		}
		if n != 100_000 {
			b.Fatalf("%d rows", n)
		}
	}
}
