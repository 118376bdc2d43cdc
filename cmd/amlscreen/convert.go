package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/convert"
	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/opensanctions"
	"github.com/amlscreen/amlscreen/convert/un"
	"github.com/amlscreen/amlscreen/record"
)

func init() { register(newConvertCmd) }

func newConvertCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "convert",
		Short: "Convert public lists and internal watchlists into a consolidated file",
		Long: `convert turns a public sanctions or PEP list, or a bank's own watchlist, into
consolidated AML records (camelCase JSON Lines, gzip-compressed when the output
name ends in .gz), the format import, import --merge, check --data and bench
read. Remarks are parsed into dates and places of birth, nationality, gender,
links and identifiers; see package convert for the rules. Every record must
have a valid, unique id, a source and a name, or the conversion stops; the
output is written under a temporary name and renamed only when complete.

The eu and uk converters were written from the published formats without a
real edition of those lists at hand.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newConvertOFACCmd(), newConvertOFACNonSDNCmd(), newConvertUNCmd(), newConvertCSLCmd(), newConvertDPLCmd(), newConvertSenzingCmd(), newConvertEUCmd(), newConvertUKCmd(), newConvertOpenSanctionsCmd(), newConvertCSVCmd())
	return c
}

func newConvertOFACCmd() *cobra.Command {
	var dir, file, out, list string
	c := &cobra.Command{
		Use:   "ofac --dir DIR | --file SDN_ENHANCED.ZIP --out FILE.jsonl.gz",
		Short: "Convert the OFAC SDN list (legacy CSV or enhanced XML)",
		Long: `ofac converts OFAC's Specially Designated Nationals list, either in the legacy
CSV format (--dir: sdn.csv, alt.csv, add.csv, sdn_comments.csv) or in the
enhanced XML format (--file: SDN_ENHANCED.XML or the SDN_ENHANCED.ZIP OFAC
publishes). Both give the ids OFAC-<ent_num> and the source us_ofac_sdn.

The non-SDN list has its own command, convert ofac-nonsdn; --list nonsdn
still selects it here, for scripts written before.`,
		Example: `  amlscreen convert ofac --dir lists/ --out ofac_sdn.jsonl.gz
  amlscreen convert ofac --file SDN_ENHANCED.ZIP --out ofac_sdn.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var l ofac.OFACList
			switch list {
			case "sdn":
				l = ofac.SDNList(dir)
			case "nonsdn":
				l = ofac.NonSDNList(dir)
			default:
				return usagef("--list: %q is not sdn or nonsdn", list)
			}
			return runConvertOFAC(cmd, l, dir, file, out)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "directory with the CSV files (sdn.csv, alt.csv, add.csv, sdn_comments.csv)")
	c.Flags().StringVar(&file, "file", "", "the enhanced XML file, or the zip archive holding it")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&list, "list", "sdn", "which list: sdn, or nonsdn (same as convert ofac-nonsdn)")
	c.Flags().MarkDeprecated("list", "use convert ofac-nonsdn for the non-SDN list")
	return c
}

func newConvertOFACNonSDNCmd() *cobra.Command {
	var dir, file, out string
	c := &cobra.Command{
		Use:   "ofac-nonsdn --dir DIR | --file CONS_ENHANCED.ZIP --out FILE.jsonl.gz",
		Short: "Convert the OFAC consolidated non-SDN list (legacy CSV or enhanced XML)",
		Long: `ofac-nonsdn converts OFAC's consolidated non-SDN list (SSI, FSE, PLC, CAPTA,
NS-MBS, CMIC), either in the legacy CSV format (--dir: cons_prim.csv,
cons_alt.csv, cons_add.csv, cons_comments.csv) or in the enhanced XML format
(--file: CONS_ENHANCED.XML or the CONS_ENHANCED.ZIP OFAC publishes; the
archive's declared and actual sizes are checked against a limit before and
while it is decompressed). Both give the ids OFAC-CONS-<ent_num> and the
source us_ofac_cons, so either can replace the other.`,
		Example: `  amlscreen convert ofac-nonsdn --dir lists/ --out ofac_cons.jsonl.gz
  amlscreen convert ofac-nonsdn --file CONS_ENHANCED.ZIP --out ofac_cons.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConvertOFAC(cmd, ofac.NonSDNList(dir), dir, file, out)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "directory with the CSV files (cons_prim.csv, cons_alt.csv, cons_add.csv, cons_comments.csv)")
	c.Flags().StringVar(&file, "file", "", "the enhanced XML file, or the zip archive holding it")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	return c
}

// runConvertOFAC converts l from the CSV files in dir or the enhanced XML
// in file, whichever was given.
func runConvertOFAC(cmd *cobra.Command, l ofac.OFACList, dir, file, out string) error {
	switch {
	case dir == "" && file == "":
		return usagef("--dir or --file: required: the directory of the CSV files, or the enhanced XML (or its zip)")
	case dir != "" && file != "":
		return usagef("--dir and --file exclude each other: give one format")
	}
	if err := checkOut(out); err != nil {
		return err
	}
	if dir != "" {
		return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
			return ofac.ConvertOFAC(l, emit)
		})
	}
	rc, err := ofac.OpenOFACEnhanced(file)
	if err != nil {
		return err
	}
	defer rc.Close()
	return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
		return ofac.OFACEnhanced(rc, l, emit)
	})
}

func newConvertUNCmd() *cobra.Command {
	var file, out string
	c := &cobra.Command{
		Use:     "un --file FILE --out FILE.jsonl.gz",
		Short:   "Convert the UN Security Council consolidated list (XML)",
		Example: `  amlscreen convert un --file UN_consolidated.xml --out un_sc.jsonl.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the UN consolidated list XML")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			f, err := os.Open(file)
			if err != nil {
				return err
			}
			defer f.Close()
			return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
				return un.UN(f, emit)
			})
		},
	}
	c.Flags().StringVar(&file, "file", "", "the UN consolidated list XML (UN_consolidated.xml)")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	return c
}

func newConvertCSLCmd() *cobra.Command {
	var file, out, lists, exportType string
	c := &cobra.Command{
		Use:   "csl --file consolidated.csv.gz --out FILE.jsonl.gz",
		Short: "Convert the US Consolidated Screening List (trade.gov CSV)",
		Long: `csl converts the US Consolidated Screening List in the trade.gov CSV format
(consolidated.csv, plain or gzip-compressed). Each of its lists becomes a source
of its own, with ids CSL-<list>-<the CSL's _id>:

  SDN us_csl_sdn   SSI us_csl_ssi   FSE us_csl_fse   PLC us_csl_plc
  CAP us_csl_cap   NS-MBS us_csl_mbs   CMIC us_csl_cmic   ISN us_csl_isn
  (Treasury and State sanctions programmes: source_type SANCTION)
  EL us_csl_el   DPL us_csl_dpl   UVL us_csl_uvl   MEU us_csl_meu   DTC us_csl_dtc
  (BIS and State export controls: SANCTION unless --export-control-type says OTHER)

Export controls are not sanctions programmes, but they are screened like them,
and OTHER sources are left out of every check unless the API key includes
them: converting them as OTHER without changing the keys means they are not
screened. A list the CSL adds later becomes us_csl_<code> as a SANCTION source.
Entries without a type (BIS and State lists) are UNKNOWN, which both
checkIndividual and checkEntity return. The CSL's SDN part duplicates convert
ofac with other ids: load one of them, or leave SDN out with --lists.`,
		Example: `  amlscreen convert csl --file consolidated.csv.gz --out us_csl.jsonl.gz
  amlscreen convert csl --file consolidated.csv --lists el,dpl,uvl,meu,dtc --out us_export_controls.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the CSL CSV (consolidated.csv or .csv.gz)")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			o := csl.CSLOptions{}
			for l := range strings.SplitSeq(lists, ",") {
				if l = strings.TrimSpace(l); l != "" {
					o.Lists = append(o.Lists, l)
				}
			}
			var err error
			if o.ExportControlType, err = exportControlType(exportType); err != nil {
				return err
			}
			return convertFile(cmd, file, out, func(r io.Reader, emit func(*record.Record) error) error {
				return csl.CSL(r, o, emit)
			})
		},
	}
	c.Flags().StringVar(&file, "file", "", "the CSL CSV file, plain or .gz")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&lists, "lists", "", "comma-separated list codes to convert (e.g. el,dpl); default every list")
	c.Flags().StringVar(&exportType, "export-control-type", record.SourceSanction, "source_type of the export-control lists (EL, DPL, UVL, MEU, DTC): SANCTION or OTHER")
	return c
}

func newConvertDPLCmd() *cobra.Command {
	var file, out, exportType string
	c := &cobra.Command{
		Use:   "dpl --file dpl.txt --out FILE.jsonl.gz",
		Short: "Convert the BIS Denied Persons List (tab-separated dpl.txt)",
		Long: `dpl converts the Bureau of Industry and Security's Denied Persons List in its
tab-separated form (dpl.txt, plain or gzip-compressed) into the source
us_bis_dpl. The file has one row per address and no ids: rows with the same
name and effective date are one denial order and become one record with every
address, under the id BIS-DPL-<hash of name and date>, which stays the same
while the order does. Records are UNKNOWN (the list mixes people and firms),
so both checkIndividual and checkEntity return them. The same list is part of
the CSL (convert csl, source us_csl_dpl): load one of the two.`,
		Example: `  amlscreen convert dpl --file dpl.txt --out us_bis_dpl.jsonl.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the Denied Persons List (dpl.txt)")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			t, err := exportControlType(exportType)
			if err != nil {
				return err
			}
			return convertFile(cmd, file, out, func(r io.Reader, emit func(*record.Record) error) error {
				return dpl.DPL(r, t, emit)
			})
		},
	}
	c.Flags().StringVar(&file, "file", "", "the tab-separated Denied Persons List, plain or .gz")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&exportType, "export-control-type", record.SourceSanction, "source_type of the list's records: SANCTION or OTHER")
	return c
}

func newConvertSenzingCmd() *cobra.Command {
	var file, out, sourceID, sourceType string
	c := &cobra.Command{
		Use:   "senzing --file senzing.json --out FILE.jsonl.gz",
		Short: "Convert an OpenSanctions dataset in the Senzing format (e.g. PEPs)",
		Long: `senzing converts a dataset OpenSanctions exports in the Senzing entity format
(senzing.json, one JSON object a line, plain or gzip-compressed), such as its
US Congress PEP list. Ids are OS-<RECORD_ID>; the source is the file's
DATA_SOURCE in lower case (OS_US_CONGRESS: os_us_congress) unless --source-id
names another.

source_type follows each record's risk topics (sanction, export.control,
debarment: SANCTION; crime, wanted: CRIMINAL; role.pep, role.rca, gov.*: PEP;
else OTHER) unless --source-type fixes it. pep_type comes from the topics and
the positions held (senator: POLITICIAN, judge: JUDGE, ambassador:
EMBASSY_OFFICIAL, relatives: RELATIVES_AND_CLOSE_ASSOCIATES, ...), OTHER when
neither says. Positions are records of their own in the file; they become the
holders' positions, are not converted themselves, and are counted on stderr.
The file is read twice, so it must be a file, not a pipe.`,
		Example: `  amlscreen convert senzing --file us_congress_senzing.json --out us_congress.jsonl.gz
  amlscreen convert senzing --file peps.json.gz --source-id my_peps --source-type PEP --out my_peps.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the Senzing JSON file")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			if sourceID != "" && !validSourceID(sourceID) {
				return usagef("--source-id: %q: %s", sourceID, sourceIDProblem(sourceID))
			}
			o := opensanctions.SenzingOptions{SourceID: sourceID}
			if sourceType != "" {
				t, err := parseSourceType(sourceType)
				if err != nil {
					return err
				}
				o.SourceType = t
			}
			if _, err := os.Stat(file); err != nil {
				return err
			}
			var st opensanctions.SenzingStats
			err := runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
				var err error
				st, err = opensanctions.Senzing(func() (io.ReadCloser, error) { return os.Open(file) }, o, emit)
				return err
			})
			if err == nil && st.Positions > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%d positions read as the positions of the people holding them\n", st.Positions)
			}
			return err
		},
	}
	c.Flags().StringVar(&file, "file", "", "the Senzing JSON file, plain or .gz")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&sourceID, "source-id", "", "source_id of every record (default: the file's DATA_SOURCE in lower case)")
	c.Flags().StringVar(&sourceType, "source-type", "", "source_type of every record: SANCTION, PEP, CRIMINAL, NON_COMPLIANT_TAXPAYER or OTHER (default: from the risk topics)")
	return c
}

func newConvertEUCmd() *cobra.Command {
	var file, out string
	c := &cobra.Command{
		Use:   "eu --file FILE --out FILE.jsonl.gz",
		Short: "Convert the EU consolidated financial sanctions list (FSF XML or CSV; written from the format)",
		Long: `eu converts the EU consolidated list of persons, groups and entities subject to
financial sanctions, in the XML format of the Financial Sanctions Files
(xmlFullSanctionsList_1_1) or their semicolon-separated CSV
(csvFullSanctionsList_1_1), told by content, into the source eu_fsf with ids
EU-<logicalId>: both formats give the same records, but the CSV does not mark
weak aliases.

Written from the published format, without a real edition of the list at hand:
it is tested on files made from the format. Check the counts it prints against
the list's own before relying on it, and report what it misreads.

Weak aliases (strong="false") go to name_remarks, as the other lists' weak
aliases do; names in other scripts are aliases. Entries that are neither a
person nor an enterprise are UNKNOWN.`,
		Example: `  amlscreen convert eu --file xmlFullSanctionsList_1_1.xml --out eu_fsf.jsonl.gz
  amlscreen convert eu --file csvFullSanctionsList_1_1.csv --out eu_fsf.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the EU financial sanctions XML or CSV")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			return convertFile(cmd, file, out, convert.EUAnyFormat)
		},
	}
	c.Flags().StringVar(&file, "file", "", "the EU financial sanctions list, XML (xmlFullSanctionsList_1_1) or CSV (csvFullSanctionsList_1_1)")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	return c
}

func newConvertUKCmd() *cobra.Command {
	var file, out string
	c := &cobra.Command{
		Use:   "uk --file FILE --out FILE.jsonl.gz",
		Short: "Convert the UK Sanctions List (FCDO XML or CSV, OFSI CSV; written from the format)",
		Long: `uk converts the UK Sanctions List the FCDO publishes, in its XML format
(UK_Sanctions_List.xml) or its CSV (UK-Sanctions-List.csv), into the source
gb_fcdo_sanctions with ids UK-<UniqueID>; or OFSI's consolidated list in CSV
(ConList.csv), whose Group IDs are another numbering, into the source
gb_hmt_ofsi with ids OFSI-<Group ID>. The format is told by content.
Individuals, entities and ships; names are Name1 to Name6 with Name6 the
family name; low-quality aliases go to name_remarks.

Written from the published format, without a real edition of the list at hand:
it is tested on files made from the format. Check the counts it prints against
the list's own before relying on it, and report what it misreads.`,
		Example: `  amlscreen convert uk --file UK_Sanctions_List.xml --out uk_sanctions.jsonl.gz
  amlscreen convert uk --file ConList.csv --out ofsi.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the UK Sanctions List XML or CSV, or OFSI's ConList.csv")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			return convertFile(cmd, file, out, convert.UKAnyFormat)
		},
	}
	c.Flags().StringVar(&file, "file", "", "the UK Sanctions List, XML or CSV, or OFSI's ConList.csv")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	return c
}

func newConvertOpenSanctionsCmd() *cobra.Command {
	var file, out, sourceID, sourceType string
	c := &cobra.Command{
		Use:   "opensanctions --file FILE --out FILE.jsonl.gz",
		Short: "Convert an OpenSanctions export: the FtM entity stream or targets.simple.csv",
		Long: `opensanctions converts an OpenSanctions export, telling its format by content:
the FollowTheMoney entity stream (entities.ftm.json, one JSON entity a line) or
the simplified CSV of targets (targets.simple.csv); either plain or
gzip-compressed. Ids are OS-<id> in both, so one replaces the other.

From the FtM stream, targets of the schemata Person, Organization, Company,
LegalEntity, PublicBody, Vessel and Airplane become records: names, aliases,
birth dates, nationalities, identifiers, addresses; the source is os_ and the
first dataset; topics give the source_type (sanction: SANCTION, crime:
CRIMINAL, role.pep and role.rca: PEP with a pep_type, else OTHER). From the
CSV, every column is kept; the source is os_ and the first dataset's title,
the source_type SANCTION for rows with sanctions, else OTHER. --source-id and
--source-type fix them instead. --in is accepted for --file, as convert csv
names it.`,
		Example: `  amlscreen convert opensanctions --file entities.ftm.json --out opensanctions.jsonl.gz
  amlscreen convert opensanctions --file targets.simple.csv --source-id os_default --out os.jsonl.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usagef("--file: required: the OpenSanctions export (entities.ftm.json or targets.simple.csv)")
			}
			if err := checkOut(out); err != nil {
				return err
			}
			if sourceID != "" && !validSourceID(sourceID) {
				return usagef("--source-id: %q: %s", sourceID, sourceIDProblem(sourceID))
			}
			o := opensanctions.OpenSanctionsOptions{SourceID: sourceID}
			if sourceType != "" {
				t, err := parseSourceType(sourceType)
				if err != nil {
					return err
				}
				o.SourceType = t
			}
			return convertFile(cmd, file, out, func(r io.Reader, emit func(*record.Record) error) error {
				return opensanctions.OpenSanctions(r, o, emit)
			})
		},
	}
	c.Flags().StringVar(&file, "file", "", "the OpenSanctions export: entities.ftm.json or targets.simple.csv, plain or .gz")
	// --in is the name the issue gave the flag; --file is the name every
	// other convert command uses.
	c.Flags().StringVar(&file, "in", "", "the same as --file")
	c.Flags().MarkHidden("in")
	c.Flags().StringVarP(&out, "out", "o", "", `output file; ".gz" compresses, "-" writes to stdout`)
	c.Flags().StringVar(&sourceID, "source-id", "", "source_id of every record (default: os_ and the record's first dataset)")
	c.Flags().StringVar(&sourceType, "source-type", "", "source_type of every record: SANCTION, PEP, CRIMINAL, NON_COMPLIANT_TAXPAYER or OTHER (default: from the topics, or the sanctions column)")
	return c
}

// sourceTypes are the source types of docs/API.md "Records".
var sourceTypes = []string{record.SourceSanction, record.SourcePEP, record.SourceCriminal, record.SourceNonCompliantTaxpayer, record.SourceOther}

// parseSourceType reads --source-type: one of sourceTypes, any case.
func parseSourceType(s string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if !slices.Contains(sourceTypes, t) {
		return "", usagef("--source-type: %q is not one of %s", s, strings.Join(sourceTypes, ", "))
	}
	return t, nil
}

// validSourceID reports whether s may name a source: 1 to 64 ASCII
// letters, digits, "_" and "-", as the catalogue's ids are written.
func validSourceID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// sourceIDProblem says what keeps s from naming a source, "" when
// nothing does, with a spelling that would do.
func sourceIDProblem(s string) string {
	if validSourceID(s) {
		return ""
	}
	if len(s) > 64 {
		return fmt.Sprintf("%d characters, more than 64", len(s))
	}
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			what := fmt.Sprintf("%q", c)
			if c == ' ' {
				what = "a space"
			}
			fixed := strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
					return r
				}
				return '_'
			}, s)
			return fmt.Sprintf("%s at byte %d is not allowed: a source id is letters, digits, _ and - only, e.g. %q", what, i, strings.ToLower(fixed))
		}
	}
	return "empty"
}

// exportControlType reads --export-control-type.
func exportControlType(s string) (string, error) {
	switch t := strings.ToUpper(s); t {
	case record.SourceSanction, record.SourceOther:
		return t, nil
	}
	return "", usagef("--export-control-type: %q is not SANCTION or OTHER", s)
}

// convertFile opens file and converts it with conv into out.
func convertFile(cmd *cobra.Command, file, out string, conv func(io.Reader, func(*record.Record) error) error) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	return runConvert(cmd.ErrOrStderr(), cmd.OutOrStdout(), out, func(emit func(*record.Record) error) error {
		return conv(f, emit)
	})
}

func checkOut(out string) error {
	if out == "" {
		return usagef("--out: required: the file to write, e.g. list.jsonl.gz, or - for stdout")
	}
	return nil
}

// runConvert writes what conv emits to out and reports on stderr how many
// records of each entity type were written, which is the first thing to
// check after converting a new edition of a list.
func runConvert(stderr, stdout io.Writer, out string, conv convert.Converter) error {
	counts, sources := map[string]int{}, map[string]int{}
	counted := func(emit func(*record.Record) error) error {
		return conv(func(r *record.Record) error {
			counts[r.EntityType]++
			sources[r.SourceID]++
			return emit(r)
		})
	}
	gz := out != "-" && strings.HasSuffix(out, ".gz")
	w, err := createOutput(out, stdout, binaryIf(gz, "gzip"))
	if err != nil {
		return err
	}
	defer w.Close()
	n, err := convert.WriteJSONL(w, gz, counted)
	if err == nil {
		err = w.Commit()
	}
	if err != nil {
		return err
	}
	dest := out
	if out == "-" {
		dest = "stdout"
	}
	fmt.Fprintf(stderr, "converted %d records to %s (%s)\n", n, dest, countList(counts))
	if len(sources) > 1 {
		fmt.Fprintf(stderr, "sources: %s\n", countList(sources))
	}
	return nil
}

// countList writes counts as "A 3, B 1", keys in order.
func countList(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(parts, ", ")
}
