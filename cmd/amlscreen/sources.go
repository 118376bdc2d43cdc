package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/amlscreen/amlscreen/convert"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func init() { register(newSourcesCmd) }

// maxCatalogueBytes bounds a catalogue file: the service's catalogue of
// some hundred sources is tens of kilobytes.
const maxCatalogueBytes = 16 << 20

func newSourcesCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "sources",
		Short: "Import, export and list the source catalogue of a store (getSourceList)",
		Long: `The source catalogue names every source of the records: what getSourceList
answers, with names, descriptions, links and issuers. sync fetches it with the
data; an air-gapped store gets it with sources import, from a file that sources
export wrote on a connected machine, or from sources builtin, which lists the
sources of the lists amlscreen convert writes.`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(newSourcesImportCmd(), newSourcesExportCmd(), newSourcesBuiltinCmd())
	return c
}

func newSourcesImportCmd() *cobra.Command {
	var storePath string
	var merge bool
	c := &cobra.Command{
		Use:   "import --store PATH CATALOGUE.json [--merge]",
		Short: "Store a source catalogue (a JSON array of Source objects) offline",
		Long: `import stores a source catalogue, a JSON array of Source objects as
getSourceList answers it (source, name, description, link, source_type, region,
country_code, country_name, issuer_name, status, ...), in the store, in one
transaction. It replaces the stored catalogue; with --merge its entries are
added to it, replacing only entries of the same source. FILE "-" reads
standard input. The store is created when absent.

Sizes are counted from the records when the catalogue is served, and
included_for_api_key is per key, so both are ignored. Every entry needs a
source id, given once; source_type is written in lower case. Sources of the
store's records that the catalogue lacks are listed afterwards: getSourceList
still answers for them, with the id alone. A running server reads the
catalogue when it next loads a change set or starts.

Exit codes: 0 imported, 1 failure (unreadable file, store locked), 2 bad flags.`,
		Example: `  amlscreen sources export --store connected.db > catalogue.json   # on the connected machine
  amlscreen sources import --store aml.db catalogue.json            # on the air-gapped one
  amlscreen sources builtin | amlscreen sources import --merge --store aml.db -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSourcesImport(cmd.ErrOrStderr(), storePath, args[0], merge)
		},
	}
	addStoreFlag(c.Flags(), &storePath)
	c.Flags().BoolVar(&merge, "merge", false, "add the entries to the stored catalogue instead of replacing it")
	return c
}

func newSourcesExportCmd() *cobra.Command {
	var storePath, out string
	c := &cobra.Command{
		Use:     "export --store PATH [--out FILE]",
		Short:   "Write the store's source catalogue as a JSON array",
		Long:    "export writes the stored source catalogue as the JSON array sources import reads.\nThe store is opened read-only.",
		Example: `  amlscreen sources export --store aml.db --out catalogue.json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if storePath == "" {
				return usagef("--store: required")
			}
			if _, err := os.Stat(storePath); err != nil {
				return usagef("--store: %v", err)
			}
			db, err := store.Open(storePath, store.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			defer db.Close()
			srcs, err := db.Sources()
			if err != nil {
				return err
			}
			return writeCatalogue(cmd.OutOrStdout(), out, srcs)
		},
	}
	addStoreFlag(c.Flags(), &storePath)
	c.Flags().StringVarP(&out, "out", "o", "-", `file to write; "-" writes to stdout`)
	return c
}

func newSourcesBuiltinCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "builtin [--out FILE]",
		Short: "Write the catalogue entries of the lists amlscreen convert writes",
		Long: `builtin writes catalogue entries (name, description, link, issuer) for every
source amlscreen convert writes: us_ofac_sdn, us_ofac_cons, un_sc_sanctions,
us_bis_dpl, eu_fsf, gb_fcdo_sanctions and the us_csl_* lists. Edit them as
needed (an export-control list converted as OTHER should say other) and load
them with sources import --merge. Internal watchlists need entries of your
own, in the same shape.`,
		Example: `  amlscreen sources builtin --out builtin.json
  amlscreen sources builtin | amlscreen sources import --merge --store aml.db -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return writeCatalogue(cmd.OutOrStdout(), out, convert.Catalogue())
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "-", `file to write; "-" writes to stdout`)
	return c
}

// writeCatalogue writes srcs as an indented JSON array to out ("-" is
// stdout), an empty array rather than null when there are none.
func writeCatalogue(stdout io.Writer, out string, srcs []record.Source) error {
	if srcs == nil {
		srcs = []record.Source{}
	}
	b, err := json.MarshalIndent(srcs, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if out == "-" || out == "" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

// readCatalogue reads and checks a catalogue file.
func readCatalogue(file string) ([]record.Source, error) {
	in, size, err := openInput(file)
	if err != nil {
		return nil, usagef("catalogue: %v", err)
	}
	defer in.Close()
	if size > maxCatalogueBytes {
		return nil, fmt.Errorf("catalogue %s: %d bytes, more than the limit of %d", file, size, maxCatalogueBytes)
	}
	data, err := io.ReadAll(io.LimitReader(in, maxCatalogueBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read catalogue %s: %w", file, err)
	}
	if len(data) > maxCatalogueBytes {
		return nil, fmt.Errorf("catalogue %s: more than the limit of %d bytes", file, maxCatalogueBytes)
	}
	return parseCatalogue(file, data)
}

// parseCatalogue reads a JSON array of Source objects, refusing entries
// without a source id or with one given before.
func parseCatalogue(name string, data []byte) ([]record.Source, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			return nil, fmt.Errorf("catalogue %s: line %d: %v", name, line, err)
		}
		return nil, fmt.Errorf("catalogue %s: want a JSON array of Source objects, as getSourceList answers: %v", name, err)
	}
	out := make([]record.Source, 0, len(raw))
	first := map[string]int{}
	for i, r := range raw {
		var s record.Source
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf("catalogue %s: entry %d: %v", name, i+1, err)
		}
		s.Source = strings.TrimSpace(s.Source)
		if s.Source == "" {
			return nil, fmt.Errorf("catalogue %s: entry %d has no source id", name, i+1)
		}
		if j, dup := first[s.Source]; dup {
			return nil, fmt.Errorf("catalogue %s: entries %d and %d are both %s", name, j+1, i+1, s.Source)
		}
		first[s.Source] = i
		s.SourceType = strings.ToLower(strings.TrimSpace(s.SourceType))
		s.Size, s.IncludedForAPIKey = 0, nil
		out = append(out, s)
	}
	return out, nil
}

func runSourcesImport(stderr io.Writer, storePath, file string, merge bool) error {
	if storePath == "" {
		return usagef("--store: required")
	}
	entries, err := readCatalogue(file)
	if err != nil {
		return err
	}
	db, err := store.Open(storePath, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	replaced := 0
	if merge {
		// The store is held for writing, so nothing changes the catalogue
		// between this read and the write.
		old, err := db.Sources()
		if err != nil {
			return err
		}
		byID := map[string]record.Source{}
		for _, s := range old {
			byID[s.Source] = s
		}
		for _, s := range entries {
			if _, ok := byID[s.Source]; ok {
				replaced++
			}
			byID[s.Source] = s
		}
		entries = entries[:0]
		for _, id := range slices.Sorted(func(yield func(string) bool) {
			for id := range byID {
				if !yield(id) {
					return
				}
			}
		}) {
			entries = append(entries, byID[id])
		}
	}
	if err := db.PutSources(entries); err != nil {
		return err
	}
	st, err := db.Stats()
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	for _, s := range entries {
		listed[s.Source] = true
	}
	var missing []string
	for id := range st.BySourceID {
		if !listed[id] && st.BySourceID[id] > 0 {
			missing = append(missing, id)
		}
	}
	slices.Sort(missing)
	log := cliLogger(stderr)
	log.Info("catalogue stored", "file", file, "entries", len(entries), "replaced", replaced, "merge", merge)
	if len(missing) > 0 {
		log.Warn("sources of the records without a catalogue entry (getSourceList answers with the id alone)", "sources", strings.Join(missing, ","))
	}
	return nil
}
