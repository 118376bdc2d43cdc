package decision

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/sampledata"
)

// BenchmarkSetJudge is the cost decisions add to each hit of a batch run:
// a map look-up and, when the customer has a decision on the record, the
// fingerprint of the record's content.
func BenchmarkSetJudge(b *testing.B) {
	recs, err := sampledata.Records()
	if err != nil {
		b.Fatal(err)
	}
	set := &Set{bySubject: map[string]map[string]*Decision{}}
	for i, r := range recs {
		if i%2 == 0 {
			subject := fmt.Sprintf("C-%d", i)
			set.bySubject[subject] = map[string]*Decision{r.ID: {Status: FalsePositive, Fingerprint: Content(r)}}
			set.n++
		}
	}
	for _, tc := range []struct {
		name    string
		decided bool
	}{{"no decision", false}, {"decided", true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				j := (i % (len(recs) / 2)) * 2
				subject := fmt.Sprintf("C-%d", j)
				if !tc.decided {
					subject = "C-none"
				}
				o := set.Judge(subject, recs[j])
				if tc.decided != o.Suppressed {
					b.Fatal("unexpected outcome")
				}
			}
		})
	}
}
