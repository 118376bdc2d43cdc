// Package lists knows the public sanctions and PEP lists amlscreen can
// fetch itself: where each issuer publishes its files, under what licence,
// and which converter of package convert turns them into records. Fetcher
// downloads them (conditional GET, retries), converts them and applies each
// list to a store as one change set of local sources, so that monitoring
// and the screening index see a list change as they see any delta; it
// keeps each list's fetch state in the store (Status).
package lists

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/opensanctions"
	"github.com/amlscreen/amlscreen/convert/uk"
	"github.com/amlscreen/amlscreen/convert/un"
	"github.com/amlscreen/amlscreen/record"
)

// File is one file of a list as its issuer publishes it.
type File struct {
	// Name is the file's name as the issuer names it; a directory carried
	// in (FetchDir) holds it under this name, in any case.
	Name string
	// URL is the issuer's public download address.
	URL string
	// Optional files may be missing (a 404, or absent from a directory):
	// the list converts without them.
	Optional bool
}

// List is one public list amlscreen knows.
type List struct {
	Name    string   // the name given to lists fetch: ofac, un, ...
	Title   string   // what the issuer calls it
	Issuer  string   // who publishes it
	Format  string   // the format of its files
	Licence string   // the terms under which the issuer publishes it
	MapsTo  string   // what its records become: source ids and types
	Files   []File   // the files, with their default URLs
	Sources []string // the source ids its records carry, when fixed in advance
	// Convert reads the list's files from dir (each under File.Name) and
	// calls emit with every record.
	Convert func(dir string, emit func(*record.Record) error) error
}

// openIn opens the file name of dir, whatever the case of its name on disk.
func openIn(dir, name string) (*os.File, error) {
	p, err := findIn(dir, name)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// findIn returns the path of the file name in dir, compared without case,
// since issuers change the case of their file names (OFAC's SDN.CSV).
func findIn(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(e.Name(), name) {
			return filepath.Join(dir, e.Name()), nil
		}
	}
	return "", fmt.Errorf("%s: %w", p, os.ErrNotExist)
}

// readerList returns the converter of a list of one file read as a stream.
func readerList(name string, conv func(r io.Reader, emit func(*record.Record) error) error) func(string, func(*record.Record) error) error {
	return func(dir string, emit func(*record.Record) error) error {
		f, err := openIn(dir, name)
		if err != nil {
			return err
		}
		defer f.Close()
		return conv(f, emit)
	}
}

// ofacList returns the converter of an OFAC list in the legacy CSV format;
// the converter wants exact paths, so they are looked up without case.
func ofacList(l func(string) ofac.OFACList) func(string, func(*record.Record) error) error {
	return func(dir string, emit func(*record.Record) error) error {
		ol := l(dir)
		for _, p := range []*string{&ol.Primary, &ol.Alt, &ol.Add, &ol.Comments} {
			if found, err := findIn(dir, filepath.Base(*p)); err == nil {
				*p = found
			}
		}
		return ofac.ConvertOFAC(ol, emit)
	}
}

// ofacEnhanced returns the converter of an OFAC list in the enhanced XML
// format, zipped as OFAC publishes it or not.
func ofacEnhanced(name string, l func(string) ofac.OFACList) func(string, func(*record.Record) error) error {
	return func(dir string, emit func(*record.Record) error) error {
		p, err := findIn(dir, name)
		if err != nil {
			return err
		}
		rc, err := ofac.OpenOFACEnhanced(p)
		if err != nil {
			return err
		}
		defer rc.Close()
		return ofac.OFACEnhanced(rc, l(""), emit)
	}
}

const (
	ofacBase = "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/"
	osBase   = "https://data.opensanctions.org/datasets/latest/default/"
	// licenceUSGov is the terms of the US government's lists.
	licenceUSGov = "US government work, public domain"
	// licenceOS is OpenSanctions' licence; commercial use needs theirs.
	licenceOS = "CC BY-NC 4.0 (non-commercial; a commercial licence from OpenSanctions otherwise)"
)

// cslSources are the source ids of the CSL's lists.
func cslSources() []string {
	var ids []string
	for _, l := range csl.CSLLists {
		ids = append(ids, l.SourceID)
	}
	return ids
}

// known is the table of lists, in the order lists available prints them.
var known = []List{
	{
		Name: "ofac", Title: "OFAC Specially Designated Nationals (SDN) List",
		Issuer: "US Treasury, Office of Foreign Assets Control", Format: "CSV (legacy, four files)",
		Licence: licenceUSGov, MapsTo: "us_ofac_sdn, SANCTION; ids OFAC-<ent_num>",
		Files: []File{
			{Name: "sdn.csv", URL: ofacBase + "SDN.CSV"},
			{Name: "add.csv", URL: ofacBase + "ADD.CSV"},
			{Name: "alt.csv", URL: ofacBase + "ALT.CSV"},
			{Name: "sdn_comments.csv", URL: ofacBase + "SDN_COMMENTS.CSV", Optional: true},
		},
		Sources: []string{ofac.SourceOFACSDN},
		Convert: ofacList(ofac.SDNList),
	},
	{
		Name: "ofac-cons", Title: "OFAC Consolidated Sanctions List (non-SDN lists)",
		Issuer: "US Treasury, Office of Foreign Assets Control", Format: "CSV (legacy, four files)",
		Licence: licenceUSGov, MapsTo: "us_ofac_cons, SANCTION; ids OFAC-CONS-<ent_num>",
		Files: []File{
			{Name: "cons_prim.csv", URL: ofacBase + "CONS_PRIM.CSV"},
			{Name: "cons_add.csv", URL: ofacBase + "CONS_ADD.CSV"},
			{Name: "cons_alt.csv", URL: ofacBase + "CONS_ALT.CSV"},
			{Name: "cons_comments.csv", URL: ofacBase + "CONS_COMMENTS.CSV", Optional: true},
		},
		Sources: []string{ofac.SourceOFACNonSDN},
		Convert: ofacList(ofac.NonSDNList),
	},
	{
		Name: "ofac-xml", Title: "OFAC Specially Designated Nationals (SDN) List, enhanced XML",
		Issuer: "US Treasury, Office of Foreign Assets Control", Format: "XML (enhanced, zipped)",
		Licence: licenceUSGov, MapsTo: "us_ofac_sdn, SANCTION; ids OFAC-<ent_num> (as ofac: load one of the two)",
		Files:   []File{{Name: "SDN_ENHANCED.ZIP", URL: ofacBase + "SDN_ENHANCED.ZIP"}},
		Sources: []string{ofac.SourceOFACSDN},
		Convert: ofacEnhanced("SDN_ENHANCED.ZIP", ofac.SDNList),
	},
	{
		Name: "ofac-cons-xml", Title: "OFAC Consolidated Sanctions List (non-SDN lists), enhanced XML",
		Issuer: "US Treasury, Office of Foreign Assets Control", Format: "XML (enhanced, zipped)",
		Licence: licenceUSGov, MapsTo: "us_ofac_cons, SANCTION; ids OFAC-CONS-<ent_num> (as ofac-cons: load one of the two)",
		Files:   []File{{Name: "CONS_ENHANCED.ZIP", URL: ofacBase + "CONS_ENHANCED.ZIP"}},
		Sources: []string{ofac.SourceOFACNonSDN},
		Convert: ofacEnhanced("CONS_ENHANCED.ZIP", ofac.NonSDNList),
	},
	{
		Name: "un", Title: "UN Security Council Consolidated List",
		Issuer: "United Nations Security Council", Format: "XML",
		Licence: "UN public information, free to reuse", MapsTo: "un_sc_sanctions, SANCTION; ids UN-<DATAID>",
		Files:   []File{{Name: "consolidated.xml", URL: "https://scsanctions.un.org/resources/xml/en/consolidated.xml"}},
		Sources: []string{un.SourceUN},
		Convert: readerList("consolidated.xml", un.UN),
	},
	{
		Name: "csl", Title: "US Consolidated Screening List",
		Issuer: "US Department of Commerce, International Trade Administration", Format: "CSV",
		Licence: licenceUSGov, MapsTo: "us_csl_<list> (one source per list), SANCTION; ids CSL-<list>-<_id>",
		Files:   []File{{Name: "consolidated.csv", URL: "https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv"}},
		Sources: cslSources(),
		Convert: readerList("consolidated.csv", func(r io.Reader, emit func(*record.Record) error) error {
			return csl.CSL(r, csl.CSLOptions{}, emit)
		}),
	},
	{
		Name: "dpl", Title: "BIS Denied Persons List",
		Issuer: "US Department of Commerce, Bureau of Industry and Security", Format: "tab-separated text",
		Licence: licenceUSGov, MapsTo: "us_bis_dpl, SANCTION; ids BIS-DPL-<hash>",
		Files:   []File{{Name: "dpl.txt", URL: "https://www.bis.doc.gov/dpl/dpl.txt"}},
		Sources: []string{dpl.SourceBISDPL},
		Convert: readerList("dpl.txt", func(r io.Reader, emit func(*record.Record) error) error {
			return dpl.DPL(r, "", emit)
		}),
	},
	{
		Name: "eu", Title: "EU Consolidated Financial Sanctions List",
		Issuer: "European Commission (FISMA)", Format: "XML (FSF 1.1)",
		Licence: "EU Commission reuse policy (Decision 2011/833/EU), free with attribution", MapsTo: "eu_fsf, SANCTION; ids EU-<logicalId>",
		Files:   []File{{Name: "xmlFullSanctionsList_1_1.xml", URL: "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw"}},
		Sources: []string{eu.SourceEUFSF},
		Convert: readerList("xmlFullSanctionsList_1_1.xml", eu.EU),
	},
	{
		Name: "eu-csv", Title: "EU Consolidated Financial Sanctions List, CSV",
		Issuer: "European Commission (FISMA)", Format: "CSV (FSF 1.1, semicolon-separated)",
		Licence: "EU Commission reuse policy (Decision 2011/833/EU), free with attribution", MapsTo: "eu_fsf, SANCTION; ids EU-<logicalId> (as eu: load one of the two)",
		Files:   []File{{Name: "csvFullSanctionsList_1_1.csv", URL: "https://webgate.ec.europa.eu/fsd/fsf/public/files/csvFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw"}},
		Sources: []string{eu.SourceEUFSF},
		Convert: readerList("csvFullSanctionsList_1_1.csv", eu.EUCSV),
	},
	{
		Name: "uk", Title: "UK Sanctions List",
		Issuer: "UK Foreign, Commonwealth & Development Office", Format: "XML",
		Licence: "Open Government Licence v3.0", MapsTo: "gb_fcdo_sanctions, SANCTION; ids UK-<UniqueID>",
		Files:   []File{{Name: "UK_Sanctions_List.xml", URL: "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.xml"}},
		Sources: []string{uk.SourceUKSanctions},
		Convert: readerList("UK_Sanctions_List.xml", uk.UK),
	},
	{
		Name: "uk-csv", Title: "UK Sanctions List, CSV",
		Issuer: "UK Foreign, Commonwealth & Development Office", Format: "CSV",
		Licence: "Open Government Licence v3.0", MapsTo: "gb_fcdo_sanctions, SANCTION; ids UK-<Unique ID> (as uk: load one of the two)",
		Files:   []File{{Name: "UK-Sanctions-List.csv", URL: "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv"}},
		Sources: []string{uk.SourceUKSanctions},
		Convert: readerList("UK-Sanctions-List.csv", uk.UKCSV),
	},
	{
		Name: "uk-ofsi", Title: "OFSI Consolidated List of Financial Sanctions Targets",
		Issuer: "HM Treasury, Office of Financial Sanctions Implementation", Format: "CSV (ConList.csv)",
		Licence: "Open Government Licence v3.0", MapsTo: "gb_hmt_ofsi, SANCTION; ids OFSI-<Group ID> (the people of uk under other ids: load uk or uk-ofsi)",
		Files:   []File{{Name: "ConList.csv", URL: "https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv"}},
		Sources: []string{uk.SourceOFSI},
		Convert: readerList("ConList.csv", uk.UKCSV),
	},
	{
		Name: "opensanctions", Title: "OpenSanctions default collection (sanctions, PEPs, crime)",
		Issuer: "OpenSanctions", Format: "FollowTheMoney entity stream (JSON lines)",
		Licence: licenceOS, MapsTo: "os_<first dataset>; topics to SANCTION, PEP (pep_type), CRIMINAL or OTHER; ids OS-<id>",
		Files: []File{{Name: "entities.ftm.json", URL: osBase + "entities.ftm.json"}},
		Convert: readerList("entities.ftm.json", func(r io.Reader, emit func(*record.Record) error) error {
			return opensanctions.FtM(r, opensanctions.OpenSanctionsOptions{}, emit)
		}),
	},
	{
		Name: "opensanctions-simple", Title: "OpenSanctions default collection, simplified CSV of targets",
		Issuer: "OpenSanctions", Format: "CSV (targets.simple.csv)",
		Licence: licenceOS, MapsTo: "os_<first dataset title>; SANCTION for rows with sanctions, else OTHER; ids OS-<id>",
		Files: []File{{Name: "targets.simple.csv", URL: osBase + "targets.simple.csv"}},
		Convert: readerList("targets.simple.csv", func(r io.Reader, emit func(*record.Record) error) error {
			return opensanctions.OpenSanctionsSimple(r, opensanctions.OpenSanctionsOptions{}, emit)
		}),
	},
}

// Known returns the lists amlscreen knows, in a fixed order; the caller
// may change the copy.
func Known() []List {
	out := make([]List, len(known))
	for i, l := range known {
		l.Files = slices.Clone(l.Files)
		l.Sources = slices.Clone(l.Sources)
		out[i] = l
	}
	return out
}

// Names returns the names of the lists amlscreen knows.
func Names() []string {
	var names []string
	for _, l := range known {
		names = append(names, l.Name)
	}
	return names
}

// Lookup returns the list called name (any case).
func Lookup(name string) (List, bool) {
	for _, l := range Known() {
		if strings.EqualFold(l.Name, strings.TrimSpace(name)) {
			return l, true
		}
	}
	return List{}, false
}

// Resolve returns the lists called names, in the order given and each
// once, or an error naming the first unknown one.
func Resolve(names []string) ([]List, error) {
	var out []List
	seen := map[string]bool{}
	for _, n := range names {
		l, ok := Lookup(n)
		if !ok {
			return nil, fmt.Errorf("unknown list %q (known: %s)", n, strings.Join(Names(), ", "))
		}
		if !seen[l.Name] {
			seen[l.Name] = true
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no list named (known: %s)", strings.Join(Names(), ", "))
	}
	return out, nil
}
