package ofac

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
	"golang.org/x/text/encoding/charmap"
)

// Source ids of the records this package writes.
const (
	SourceOFACSDN    = "us_ofac_sdn"
	SourceOFACNonSDN = "us_ofac_cons"
)

// ofacNull is how the OFAC legacy CSV files write an empty field.
const ofacNull = "-0-"

// OFACList names the files of one OFAC list in the legacy CSV format and
// what its records are called. The files have no header row; their columns
// are, in order:
//
//	primary  ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
//	         Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks
//	alt      ent_num, alt_num, alt_type, alt_name, alt_remarks
//	add      ent_num, add_num, address, city_state_postal, country, add_remarks
//	comments ent_num, remarks continued
//
// A remarks field longer than the primary file allows is cut and carried on
// in the comments file, without a separator, so the two are joined as they
// are.
type OFACList struct {
	Primary  string // required
	Alt      string // required
	Add      string // required
	Comments string // optional: a missing file means no overflow
	SourceID string // source_id of every record
	IDPrefix string // record ids are IDPrefix + ent_num
}

// SDNList is the Specially Designated Nationals list in dir: sdn.csv,
// alt.csv, add.csv and sdn_comments.csv; ids are "OFAC-<ent_num>".
func SDNList(dir string) OFACList {
	return OFACList{
		Primary:  filepath.Join(dir, "sdn.csv"),
		Alt:      filepath.Join(dir, "alt.csv"),
		Add:      filepath.Join(dir, "add.csv"),
		Comments: filepath.Join(dir, "sdn_comments.csv"),
		SourceID: SourceOFACSDN,
		IDPrefix: "OFAC-",
	}
}

// NonSDNList is OFAC's consolidated non-SDN list in dir, which has the same
// layout under cons_prim.csv, cons_alt.csv, cons_add.csv and
// cons_comments.csv. Its ids are "OFAC-CONS-<ent_num>": OFAC numbers both
// lists from one sequence, but an entry moved between lists would otherwise
// collide when both files are loaded together.
func NonSDNList(dir string) OFACList {
	return OFACList{
		Primary:  filepath.Join(dir, "cons_prim.csv"),
		Alt:      filepath.Join(dir, "cons_alt.csv"),
		Add:      filepath.Join(dir, "cons_add.csv"),
		Comments: filepath.Join(dir, "cons_comments.csv"),
		SourceID: SourceOFACNonSDN,
		IDPrefix: "OFAC-CONS-",
	}
}

// ConvertOFAC converts one OFAC list and calls emit with every record, in
// the order of its primary file.
//
// The mapping: id IDPrefix+ent_num; source_type SANCTION; entity_type from
// SDN_Type (individual, vessel, aircraft; "-0-" is an ENTITY); name as OFAC
// writes it ("LAST, First" for individuals, whose last_names and
// given_names are the parts either side of the first comma, so the name's
// natural order is still a name string); gender UNKNOWN for individuals whose
// remarks give none; programs to sanction_details; title to titles; the
// vessel columns to other_information; remarks as ParseRemarks says; every
// alt.csv name (aka, fka, nka) to alias_names; each address as one string
// ending with its country and, for records that are not individuals, the
// country's code in jurisdiction (the list's only hint of where an entity
// is based; an individual's address says nothing of citizenship).
func ConvertOFAC(l OFACList, emit func(*record.Record) error) error {
	// The primary file is the one a wrong directory lacks; name it first.
	if _, err := os.Stat(l.Primary); err != nil {
		return err
	}
	alts := map[string][][]string{}
	if err := readOFACFile(l.Alt, 4, func(f []string) error {
		alts[f[0]] = append(alts[f[0]], f)
		return nil
	}); err != nil {
		return err
	}
	adds := map[string][][]string{}
	if err := readOFACFile(l.Add, 5, func(f []string) error {
		adds[f[0]] = append(adds[f[0]], f)
		return nil
	}); err != nil {
		return err
	}
	comments := map[string]string{}
	if l.Comments != "" {
		err := readOFACFile(l.Comments, 2, func(f []string) error {
			comments[f[0]] += f[1]
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return readOFACFile(l.Primary, 12, func(f []string) error {
		r, err := ofacRecord(l, f, comments[f[0]])
		if err != nil {
			return err
		}
		for _, a := range alts[f[0]] {
			if name := ofacValue(a[3]); name != "" && name != r.Name {
				r.AliasNames = conv.AppendUnique(r.AliasNames, name)
				if len(a) > 4 && ofacValue(a[4]) != "" {
					r.NameRemarks = conv.AppendUnique(r.NameRemarks, name+": "+ofacValue(a[4]))
				}
			}
		}
		for _, a := range adds[f[0]] {
			addOFACAddress(r, a)
		}
		return emit(r)
	})
}

func ofacRecord(l OFACList, f []string, overflow string) (*record.Record, error) {
	ent := f[0]
	if _, ok := conv.AtoiLen(ent, 1, 12); !ok {
		return nil, fmt.Errorf("ent_num %q is not a number", ent)
	}
	r := &record.Record{
		ID:         l.IDPrefix + ent,
		SourceID:   l.SourceID,
		SourceType: record.SourceSanction,
		Name:       ofacValue(f[1]),
	}
	if r.Name == "" {
		return nil, fmt.Errorf("ent_num %s has no name", ent)
	}
	r.EntityType = conv.EntityType(strings.ToLower(ofacValue(f[2])), record.EntityEntity)
	if r.EntityType == record.EntityIndividual {
		if last, given, ok := strings.Cut(r.Name, ","); ok {
			last, given = strings.TrimSpace(last), strings.TrimSpace(given)
			if last != "" && given != "" {
				r.LastNames = []string{last}
				r.GivenNames = []string{given}
			}
		}
	}
	for p := range strings.SplitSeq(ofacValue(f[3]), "] [") {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, strings.Trim(p, "[] "))
	}
	if t := ofacValue(f[4]); t != "" {
		r.Titles = []string{t}
	}
	for i, label := range []string{"Call Sign", "Vessel Type", "Tonnage", "Gross Registered Tonnage", "Vessel Flag", "Vessel Owner"} {
		if v := ofacValue(f[5+i]); v != "" {
			r.OtherInformation = append(r.OtherInformation, label+" "+v)
		}
	}
	remarks := f[11]
	if strings.TrimSpace(remarks) == ofacNull {
		remarks = ""
	}
	conv.ParseRemarks(r, remarks+overflow)
	if r.EntityType == record.EntityIndividual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

func addOFACAddress(r *record.Record, f []string) {
	var parts []string
	for _, i := range []int{2, 3, 4} {
		// "undetermined" says nothing an address string should carry.
		if v := ofacValue(f[i]); v != "" && (i != 4 || !conv.IsNullCountry(v)) {
			parts = append(parts, v)
		}
	}
	r.Address = conv.AppendUnique(r.Address, strings.Join(parts, ", "))
	if len(f) > 5 {
		r.AddressRemarks = conv.AppendUnique(r.AddressRemarks, ofacValue(f[5]))
	}
	if r.EntityType != record.EntityIndividual {
		if c, ok := conv.CountryCode(ofacValue(f[4])); ok {
			r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, c)
		}
	}
}

// ofacValue trims a field and turns the null marker into "".
func ofacValue(s string) string {
	s = strings.TrimSpace(s)
	if s == ofacNull {
		return ""
	}
	return s
}

// readOFACFile calls fn with every row of a headerless OFAC CSV file. Rows
// need at least minFields fields; the first is trimmed (it is the ent_num
// the files are joined on), the others are left as written. The DOS
// end-of-file byte (0x1A) the files end with and blank lines are skipped;
// fields that are not UTF-8 are read as Windows-1252, the encoding OFAC
// used before it moved to UTF-8.
func readOFACFile(path string, minFields int, fn func([]string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	cr := csv.NewReader(file)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	dec := charmap.Windows1252.NewDecoder()
	for {
		f, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		if len(f) == 1 && strings.Trim(f[0], " \t\r\n\x1a") == "" {
			continue
		}
		if len(f) < minFields {
			return fmt.Errorf("%s: line %d: %d fields, want %d", path, line, len(f), minFields)
		}
		for i, v := range f {
			if !utf8.ValidString(v) {
				if d, err := dec.String(v); err == nil {
					f[i] = d
				} else {
					f[i] = strings.ToValidUTF8(v, "\uFFFD")
				}
			}
		}
		f[0] = strings.TrimSpace(f[0])
		if err := fn(f); err != nil {
			return fmt.Errorf("%s: line %d: %w", path, line, err)
		}
	}
}
