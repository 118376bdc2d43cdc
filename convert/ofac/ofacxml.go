package ofac

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
)

// The OFAC enhanced XML format (SDN_ENHANCED.XML, CONS_ENHANCED.XML, each
// also published zipped): one <entity> per list entry, its names in every
// script, addresses in parts, dates as ranges, and the remarks of the CSV
// format split into typed "features" and identity documents. Country
// references point into a table of reference values at the top of the
// file, which gives their ISO codes.

type ofacXMLEntity struct {
	ID         string `xml:"id,attr"`
	EntityType string `xml:"generalInfo>entityType"`
	Remarks    string `xml:"generalInfo>remarks"`
	Title      string `xml:"generalInfo>title"`
	Lists      []struct {
		Name      string `xml:",chardata"`
		Published string `xml:"datePublished,attr"`
	} `xml:"sanctionsLists>sanctionsList"`
	Programs    []string        `xml:"sanctionsPrograms>sanctionsProgram"`
	Types       []string        `xml:"sanctionsTypes>sanctionsType"`
	Authorities []string        `xml:"legalAuthorities>legalAuthority"`
	Names       []ofacXMLName   `xml:"names>name"`
	Addresses   []ofacXMLAddr   `xml:"addresses>address"`
	Features    []ofacXMLFeat   `xml:"features>feature"`
	Documents   []ofacXMLDoc    `xml:"identityDocuments>identityDocument"`
	Relations   []ofacXMLRelate `xml:"relationships>relationship"`
}

type ofacXMLName struct {
	Primary      bool   `xml:"isPrimary"`
	AliasType    string `xml:"aliasType"`
	LowQuality   bool   `xml:"isLowQuality"`
	Translations []struct {
		Primary bool   `xml:"isPrimary"`
		Script  string `xml:"script"`
		First   string `xml:"formattedFirstName"`
		Last    string `xml:"formattedLastName"`
		Full    string `xml:"formattedFullName"`
	} `xml:"translations>translation"`
}

type ofacXMLRef struct {
	Text  string `xml:",chardata"`
	RefID string `xml:"refId,attr"`
}

type ofacXMLAddr struct {
	Country      ofacXMLRef `xml:"country"`
	Translations []struct {
		Primary bool `xml:"isPrimary"`
		Parts   []struct {
			Type  string `xml:"type"`
			Value string `xml:"value"`
		} `xml:"addressParts>addressPart"`
	} `xml:"translations>translation"`
}

type ofacXMLFeat struct {
	Type       string `xml:"type"`
	Value      string `xml:"value"`
	ValueRefID string `xml:"valueRefId"`
	Comments   string `xml:"comments"`
	Date       *struct {
		Approximate bool `xml:"isApproximate"`
	} `xml:"valueDate"`
}

type ofacXMLDoc struct {
	Type      string     `xml:"type"`
	Number    string     `xml:"documentNumber"`
	Country   ofacXMLRef `xml:"issuingCountry"`
	Authority string     `xml:"issuingAuthority"`
	Valid     *bool      `xml:"isValid"`
	Location  string     `xml:"issuingLocation"`
	Comments  string     `xml:"comments"`
}

type ofacXMLRelate struct {
	Type    string `xml:"type"`
	Related string `xml:"relatedEntity"`
}

// ofacXMLLists are the sanctionsList values publicationInfo gives for each
// list: a file of the other list is refused rather than loaded under the
// wrong source.
var ofacXMLLists = map[string]string{
	SourceOFACSDN:    "SDN List",
	SourceOFACNonSDN: "Consolidated List",
}

// OFACEnhanced converts a list in OFAC's enhanced XML format read from r
// (CONS_ENHANCED.XML for the non-SDN list, SDN_ENHANCED.XML for the SDN
// list) and calls emit with every record, in the order of the file. Its
// ids are l.IDPrefix + the entity id, which is the ent_num of the CSV
// format, so both formats of one list give the same ids. A file whose
// publication info names another list than l is refused.
//
// The mapping follows ConvertOFAC: the primary name's primary translation
// is name (and, for individuals, last_names and given_names); every other
// name and translation (Cyrillic, Chinese) goes to alias_names, except
// low-quality aliases, which go to name_remarks as the CSV's weak aliases
// do; addresses are joined street to country; Birthdate, Place of Birth,
// Nationality and Citizenship Country and Gender features fill their
// attributes; every other feature, identity document and relationship is
// written as the CSV's remarks write it ("Passport A123 (Iran)", "Website
// x") and filed by the same rules (ParseRemarks), so registration numbers
// of entities land in company_number and sanction statements in
// sanction_details. Programs, sanctions types, legal authorities and the
// lists go to sanction_details; the earliest publication date of the
// entry's lists is its list_date.
func OFACEnhanced(r io.Reader, l OFACList, emit func(*record.Record) error) error {
	d := xml.NewDecoder(conv.LimitReader(r, conv.MaxInputBytes, "OFAC XML"))
	iso := map[string]string{} // refId of a COUNTRY reference value -> ISO code
	sawEntity := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if !sawEntity {
				return errors.New("read OFAC XML: no <entity> element: is this an OFAC enhanced XML file?")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read OFAC XML: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		line, _ := d.InputPos()
		switch se.Name.Local {
		case "publicationInfo":
			var p struct {
				Lists []string `xml:"filters>sanctionsLists>sanctionsList"`
			}
			if err := d.DecodeElement(&p, &se); err != nil {
				return fmt.Errorf("read OFAC XML: publicationInfo at line %d: %w", line, err)
			}
			if want, ok := ofacXMLLists[l.SourceID]; ok && len(p.Lists) > 0 && !slices.Contains(p.Lists, want) {
				return fmt.Errorf("read OFAC XML: the file holds %s, not the %s", strings.Join(p.Lists, ", "), want)
			}
		case "referenceValue":
			var v struct {
				RefID string `xml:"refId,attr"`
				Type  string `xml:"type"`
				ISO   string `xml:"isoCode"`
			}
			if err := d.DecodeElement(&v, &se); err != nil {
				return fmt.Errorf("read OFAC XML: referenceValue at line %d: %w", line, err)
			}
			if v.ISO = strings.TrimSpace(v.ISO); v.ISO != "" {
				iso[v.RefID] = strings.ToUpper(v.ISO)
			}
		case "entity":
			sawEntity = true
			var e ofacXMLEntity
			if err := d.DecodeElement(&e, &se); err != nil {
				return fmt.Errorf("read OFAC XML: entity at line %d: %w", line, err)
			}
			rec, err := ofacXMLRecord(&e, l, iso)
			if err != nil {
				return fmt.Errorf("OFAC XML: entity at line %d: %w", line, err)
			}
			if err := emit(rec); err != nil {
				return err
			}
		}
	}
}

// ofacXMLRecord turns one entity of the enhanced XML into a record.
// It is long on purpose: it maps the format's fields in the format's own
// order, a short block each, so that it can be checked against the
// format's documentation from top to bottom.
func ofacXMLRecord(e *ofacXMLEntity, l OFACList, iso map[string]string) (*record.Record, error) {
	id := strings.TrimSpace(e.ID)
	if _, ok := conv.AtoiLen(id, 1, 12); !ok {
		return nil, fmt.Errorf("entity id %q is not a number", id)
	}
	r := &record.Record{ID: l.IDPrefix + id, SourceID: l.SourceID, SourceType: record.SourceSanction}
	r.EntityType = conv.EntityType(strings.ToLower(conv.Clean(e.EntityType)), record.EntityEntity)
	addOFACXMLNames(r, e)
	if r.Name == "" {
		// No name marked primary: the first one is the name.
		if len(r.AliasNames) == 0 {
			return nil, fmt.Errorf("entity %s has no name", id)
		}
		r.Name, r.AliasNames = r.AliasNames[0], r.AliasNames[1:]
	}
	addOFACXMLListing(r, e)
	if t := conv.Clean(e.Title); t != "" {
		r.Titles = conv.AppendUnique(r.Titles, t)
	}
	for _, a := range e.Addresses {
		addOFACXMLAddress(r, a, iso)
	}
	for _, f := range e.Features {
		addOFACXMLFeature(r, f, iso)
	}
	for _, doc := range e.Documents {
		s := conv.JoinNonEmpty(" ", doc.Type, doc.Number)
		if c := conv.Clean(doc.Country.Text); c != "" {
			s += " (" + c + ")"
		}
		if a := conv.JoinNonEmpty(", ", doc.Authority, doc.Location); a != "" {
			s += " issued by " + a
		}
		if doc.Valid != nil && !*doc.Valid {
			s += " (not valid)"
		}
		if c := conv.Clean(doc.Comments); c != "" {
			s += " - " + c
		}
		conv.ParseRemark(r, s)
	}
	for _, rel := range e.Relations {
		if n := conv.Clean(rel.Related); n != "" {
			r.OtherInformation = conv.AppendUnique(r.OtherInformation, conv.JoinNonEmpty(": ", rel.Type, n))
		}
	}
	conv.ParseRemarks(r, e.Remarks)
	if r.EntityType == record.EntityIndividual && r.Gender == "" {
		r.Gender = record.GenderUnknown
	}
	return r, nil
}

// addOFACXMLNames files e's names in r: the primary name of the primary
// translation is the name, low-quality ones are name remarks, the others
// aliases.
func addOFACXMLNames(r *record.Record, e *ofacXMLEntity) {
	// The primary name first, so that aliases equal to it are dropped.
	names := slices.Clone(e.Names)
	slices.SortStableFunc(names, func(a, b ofacXMLName) int {
		switch {
		case a.Primary == b.Primary:
			return 0
		case a.Primary:
			return -1
		}
		return 1
	})
	for _, n := range names {
		for _, t := range n.Translations {
			full := conv.Clean(t.Full)
			if full == "" {
				full = conv.JoinNonEmpty(" ", t.First, t.Last)
			}
			switch {
			case full == "":
			case r.Name == "" && n.Primary && t.Primary:
				r.Name = full
				if r.EntityType == record.EntityIndividual && conv.Clean(t.Last) != "" && conv.Clean(t.First) != "" {
					r.LastNames, r.GivenNames = []string{conv.Clean(t.Last)}, []string{conv.Clean(t.First)}
				}
			case full == r.Name:
			case n.LowQuality:
				r.NameRemarks = conv.AppendUnique(r.NameRemarks, full)
			default:
				r.AliasNames = conv.AppendUnique(r.AliasNames, full)
			}
		}
	}
}

// addOFACXMLListing files when e was first listed and the programmes,
// lists, sanction types and legal authorities it is listed under.
func addOFACXMLListing(r *record.Record, e *ofacXMLEntity) {
	var listed time.Time
	for _, ls := range e.Lists {
		if t, err := time.Parse("2006-01-02", strings.TrimSpace(ls.Published)); err == nil && (listed.IsZero() || t.Before(listed)) {
			listed = t
		}
	}
	if !listed.IsZero() {
		r.ListDate = listed.UnixMilli()
	}
	for _, p := range e.Programs {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, conv.Clean(p))
	}
	for _, ls := range e.Lists {
		if n := conv.Clean(ls.Name); n != "" && n != "Consolidated List" {
			r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "List: "+n)
		}
	}
	for _, v := range e.Types {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Sanctions type: "+conv.Clean(v))
	}
	for _, v := range e.Authorities {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Legal authority: "+conv.Clean(v))
	}
}

// ofacXMLAddressOrder is the order in which address parts are joined.
var ofacXMLAddressOrder = []string{"ADDRESS1", "ADDRESS2", "ADDRESS3", "CITY", "STATE/PROVINCE", "REGION", "POSTAL CODE"}

func addOFACXMLAddress(r *record.Record, a ofacXMLAddr, iso map[string]string) {
	country := conv.Clean(a.Country.Text)
	for i, t := range a.Translations {
		if i > 0 && !t.Primary {
			continue
		}
		var parts []string
		for _, typ := range ofacXMLAddressOrder {
			for _, p := range t.Parts {
				if strings.EqualFold(conv.Clean(p.Type), typ) {
					parts = append(parts, conv.Clean(p.Value))
				}
			}
		}
		for _, p := range t.Parts {
			if !slices.Contains(ofacXMLAddressOrder, strings.ToUpper(conv.Clean(p.Type))) {
				parts = append(parts, conv.Clean(p.Value))
			}
		}
		if country != "" && !conv.IsNullCountry(country) {
			parts = append(parts, country)
		}
		r.Address = conv.AppendUnique(r.Address, conv.JoinNonEmpty(", ", parts...))
	}
	if len(a.Translations) == 0 && country != "" && !conv.IsNullCountry(country) {
		r.Address = conv.AppendUnique(r.Address, country)
	}
	if r.EntityType != record.EntityIndividual {
		if c, ok := refCountry(a.Country.RefID, country, iso); ok {
			r.Jurisdiction = conv.AppendUnique(r.Jurisdiction, c)
		}
	}
}

// refCountry returns the ISO code of a country reference: the reference
// table's, or the name's.
func refCountry(refID, name string, iso map[string]string) (string, bool) {
	if c, ok := iso[strings.TrimSpace(refID)]; ok {
		return c, true
	}
	return conv.CountryCode(name)
}

func addOFACXMLFeature(r *record.Record, f ofacXMLFeat, iso map[string]string) {
	typ, value := conv.Clean(f.Type), conv.Clean(f.Value)
	if value == "" {
		return
	}
	switch strings.ToLower(typ) {
	case "birthdate":
		if f.Date != nil && f.Date.Approximate && conv.ApproxWord.FindStringIndex(value) == nil {
			value = "circa " + value
		}
		conv.AddDOB(r, value)
	case "place of birth":
		r.PlaceOfBirth = conv.AppendUnique(r.PlaceOfBirth, value)
	case "nationality country", "citizenship country":
		if c, ok := refCountry(f.ValueRefID, value, iso); ok {
			r.Citizenship = conv.AppendUnique(r.Citizenship, c)
		} else {
			conv.AddCitizenship(r, value)
		}
	case "title":
		r.Titles = conv.AppendUnique(r.Titles, value)
	default:
		s := typ + " " + value
		if strings.EqualFold(typ, "gender") {
			s = "Gender " + value
		}
		if c := conv.Clean(f.Comments); c != "" {
			s += " - " + c
		}
		conv.ParseRemark(r, s)
	}
}

// OpenOFACEnhanced opens an OFAC enhanced XML file, or the XML file inside
// a zip archive as OFAC publishes it (CONS_ENHANCED.ZIP). The archive
// must hold exactly one .xml file; its declared size is checked against
// MaxInputBytes before anything is decompressed, and the decompressed
// bytes are counted too, so that a zip bomb stops at the limit.
func OpenOFACEnhanced(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var head [4]byte
	if n, _ := io.ReadFull(f, head[:]); n < 4 || string(head[:]) != "PK\x03\x04" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	f.Close()
	return openZipMember(path, ".xml", conv.MaxInputBytes)
}

// openZipMember opens the one member of the zip archive at path whose name
// ends in suffix (any case). A member that declares more than limit bytes
// is refused before it is opened; one that decompresses to more fails
// with ErrInputTooLarge when it passes the limit.
func openZipMember(path, suffix string, limit int64) (io.ReadCloser, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	var found []*zip.File
	for _, m := range zr.File {
		if strings.HasSuffix(strings.ToLower(m.Name), suffix) && !m.FileInfo().IsDir() {
			found = append(found, m)
		}
	}
	switch {
	case len(found) == 0:
		zr.Close()
		return nil, fmt.Errorf("%s: no %s file in the archive", path, suffix)
	case len(found) > 1:
		zr.Close()
		return nil, fmt.Errorf("%s: %d %s files in the archive (%s, %s, …); expected one", path, len(found), suffix,
			filepath.Base(found[0].Name), filepath.Base(found[1].Name))
	}
	m := found[0]
	if m.UncompressedSize64 > uint64(limit) {
		zr.Close()
		return nil, fmt.Errorf("%s: %s declares %d bytes, more than the limit of %d: %w", path, m.Name, m.UncompressedSize64, limit, conv.ErrInputTooLarge)
	}
	rc, err := m.Open()
	if err != nil {
		zr.Close()
		return nil, fmt.Errorf("%s: open %s: %w", path, m.Name, err)
	}
	return &zipMember{Reader: conv.LimitReader(rc, limit, path+": "+m.Name), rc: rc, zr: zr}, nil
}

type zipMember struct {
	io.Reader
	rc io.Closer
	zr *zip.ReadCloser
}

func (z *zipMember) Close() error {
	err := z.rc.Close()
	if e := z.zr.Close(); err == nil {
		err = e
	}
	return err
}
