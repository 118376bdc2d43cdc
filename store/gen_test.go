package store

import (
	"fmt"
	"math/rand/v2"

	"github.com/amlscreen/amlscreen/record"
)

// The generator below makes records shaped like the service's: a few name
// attributes, dates, places and free-text remarks of realistic lengths, with
// every source and entity type. It is deterministic for a seed, so tests can
// rebuild the exact record set a child process wrote.

var (
	syllables    = []string{"al", "an", "ar", "ba", "bo", "da", "di", "el", "fa", "ga", "ha", "ib", "ka", "ko", "la", "li", "ma", "mi", "na", "ni", "ol", "pa", "ra", "ro", "sa", "se", "ta", "to", "va", "vi", "ya", "za", "chen", "kh", "ov", "sky", "ez", "son"}
	sourceTypes  = []string{record.SourceSanction, record.SourcePEP, record.SourceCriminal, record.SourceNonCompliantTaxpayer, record.SourceOther}
	entityTypes  = []string{record.EntityIndividual, record.EntityIndividual, record.EntityIndividual, record.EntityEntity, record.EntityEntity, record.EntityVessel, record.EntityAircraft, record.EntityUnknown}
	countries    = []string{"RU", "IR", "KP", "SY", "CU", "VE", "US", "DE", "CN", "AE", "GB", "FR"}
	legalForms   = []string{"LLC", "LTD", "JSC", "GmbH", "S.A.", "PJSC", "Co., Ltd."}
	remarksWords = []string{"designated", "pursuant", "to", "executive", "order", "for", "acting", "on", "behalf", "of", "the", "government", "linked", "to", "procurement", "network", "involved", "in", "financial", "support", "sanctions", "evasion", "minister", "member", "council", "bank", "director"}
)

func genWord(r *rand.Rand) string {
	n := 2 + r.IntN(2)
	s := ""
	for range n {
		s += syllables[r.IntN(len(syllables))]
	}
	return string(s[0]-32) + s[1:]
}

func genText(r *rand.Rand, words int) string {
	s := ""
	for i := range words {
		if i > 0 {
			s += " "
		}
		s += remarksWords[r.IntN(len(remarksWords))]
	}
	return s
}

// genRecord returns record i of the set for seed; the id depends on i only,
// so two sets of different seeds describe the same ids with other contents.
func genRecord(seed int64, i int) *record.Record {
	r := rand.New(rand.NewPCG(uint64(seed), uint64(i)))
	rec := &record.Record{
		ID:         fmt.Sprintf("R%07d", i),
		SourceID:   fmt.Sprintf("src-%02d", r.IntN(40)),
		SourceType: sourceTypes[r.IntN(len(sourceTypes))],
		EntityType: entityTypes[r.IntN(len(entityTypes))],
		ListDate:   1_500_000_000_000 + r.Int64N(300_000_000_000),
	}
	if rec.SourceType == record.SourcePEP {
		rec.PEPType = "POLITICIAN"
		rec.PEPLevel = int32(1 + r.IntN(4))
	}
	if rec.EntityType == record.EntityIndividual {
		g, l := genWord(r), genWord(r)
		rec.Name = g + " " + l
		rec.GivenNames = []string{g}
		rec.LastNames = []string{l}
		rec.Gender = []string{record.GenderMale, record.GenderFemale}[r.IntN(2)]
		rec.DateOfBirth = []string{fmt.Sprintf("%02d/%02d/%d", 1+r.IntN(28), 1+r.IntN(12), 1940+r.IntN(60))}
		rec.PlaceOfBirth = []string{genWord(r) + ", " + countries[r.IntN(len(countries))]}
		rec.Citizenship = []string{countries[r.IntN(len(countries))]}
		for range r.IntN(4) {
			rec.AliasNames = append(rec.AliasNames, genWord(r)+" "+genWord(r))
		}
		if r.IntN(3) == 0 {
			rec.Positions = []string{genText(r, 4+r.IntN(6))}
		}
	} else {
		rec.Name = genWord(r) + " " + genWord(r) + " " + legalForms[r.IntN(len(legalForms))]
		rec.Jurisdiction = []string{countries[r.IntN(len(countries))]}
		for range r.IntN(3) {
			rec.AliasNames = append(rec.AliasNames, genWord(r)+" "+legalForms[r.IntN(len(legalForms))])
		}
		if r.IntN(2) == 0 {
			rec.CompanyNumber = []string{fmt.Sprintf("%d", r.Int64N(1e9))}
		}
	}
	rec.Address = []string{fmt.Sprintf("%d %s Street, %s, %s", 1+r.IntN(200), genWord(r), genWord(r), countries[r.IntN(len(countries))])}
	if rec.SourceType == record.SourceSanction {
		rec.SanctionDetails = []string{genText(r, 8+r.IntN(20))}
	}
	if r.IntN(2) == 0 {
		rec.OtherInformation = []string{genText(r, 5+r.IntN(25))}
	}
	return rec
}

// genRecords returns records [0, n) of the set for seed.
func genRecords(seed int64, n int) []*record.Record {
	out := make([]*record.Record, n)
	for i := range out {
		out[i] = genRecord(seed, i)
	}
	return out
}
