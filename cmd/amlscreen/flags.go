package main

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/tlsconf"
)

// This file defines the flags several commands share, once each: a flag
// has one name, one meaning and one help text in every command that takes
// it (TestSharedFlagsAgree holds them to it). A command's description says
// what is particular to it: whether --store is required, created or
// opened read-only, which checks --type offers.

// storeUsage is the help of --store in every command.
const storeUsage = "store file (bbolt), as amlscreen import and sync keep it"

// Help texts of the flags of serving, syncing and monitoring that several
// commands take.
const (
	keysUsage        = "API keys file (JSON; see docs/OPERATIONS.md, \"Keys file\")"
	signingKeysUsage = "signing keyring directory, created when absent"
	upstreamUsage    = "base URL of the service or of a primary amlscreen serve (a trailing /v1 is taken off)"
)

// caBundleUsage is the help of --ca-bundle, taken by every command that
// connects out over HTTPS.
const caBundleUsage = "PEM file of CA certificates to trust for outgoing HTTPS besides the system's (an internal CA)"

// addCABundleFlag defines --ca-bundle.
func addCABundleFlag(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "ca-bundle", "", caBundleUsage) }

// rootCAs loads --ca-bundle: the system's CAs plus the bundle's, nil for
// the system's alone. A file that does not read or holds no certificate
// is an error naming the flag.
func rootCAs(bundle string) (*x509.CertPool, error) {
	roots, err := tlsconf.RootCAs(bundle)
	if err != nil {
		return nil, fmt.Errorf("--ca-bundle: %w", err)
	}
	return roots, nil
}

// dataUsage is the help of --data, the files screening commands load
// instead of a store.
const dataUsage = "consolidated JSON Lines file (plain or .gz) to screen against; repeat for several (default: the embedded sample)"

// addStoreFlag defines --store.
func addStoreFlag(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "store", "", storeUsage) }

// formatUsage is the help of --format in the commands that print a table
// or JSON, table by default.
const formatUsage = "table or json"

// addFormatFlag defines --format table|json.
func addFormatFlag(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "format", "table", formatUsage) }

// addJSONAlias defines --json, the older spelling of --format json that
// the bench commands took, hidden from --help; jsonAlias warns when it is
// used. (cobra's own deprecation notice would go to standard output, into
// the JSON.)
func addJSONAlias(fl *pflag.FlagSet, p *bool) {
	fl.BoolVar(p, "json", false, "deprecated: use --format json")
	if err := fl.MarkHidden("json"); err != nil {
		panic(err) // the flag was defined on the line before
	}
}

// jsonAlias applies --json to format, with a warning on stderr.
func jsonAlias(asJSON bool, format *string, stderr io.Writer) {
	if asJSON {
		fmt.Fprintln(stderr, "amlscreen: --json is deprecated; use --format json")
		*format = "json"
	}
}

// checkFormat checks a --format table|json value.
func checkFormat(format string) error {
	if format != "table" && format != "json" {
		return usagef("--format: %q is not table or json", format)
	}
	return nil
}

// queryFlags are the flags of one screening query: check, report, media
// check, batch and monitor register declare them with add.
type queryFlags struct {
	kind         string
	names        string
	searchAll    string
	fuzzy        int
	dob          string
	gender       string
	citizenship  string
	includes     string
	includeOther bool
	limit        int
	// match is --match as given; minScore is --min-score as given ("" when
	// absent), both checked by matchMode.
	match    string
	minScore string
}

// queryFlag selects the query flags a command takes besides --type.
type queryFlag uint

const (
	withNames queryFlag = 1 << iota
	withSearchAll
	withFuzzy
	withDOB
	withGender
	withCitizenship
	withIncludes
	withIncludeOther
	withLimit
	withMatch
)

// Help texts of the query flags. The filters say "individuals:" because
// entity checks do not take them.
const (
	namesUsage        = "name to screen against name fields (name, aliases, given and last names)"
	searchAllUsage    = "text to screen against all fields of a record (names fuzzy, other fields exact)"
	fuzzyUsage        = "spelling edits allowed per word: 0, 1 or 2 (a swap of two adjacent letters is one)"
	dobUsage          = "individuals: date of birth dd/mm/yyyy, 00 for an unknown day or month, e.g. 00/00/1952"
	genderUsage       = "individuals: male or female (m, f; any case); records without gender always pass"
	citizenshipUsage  = "individuals: ISO 3166-1 alpha-2 code, e.g. RU (UK and EL read as GB and GR; XK is Kosovo), or an English country name as batch reads it (Russia); records without citizenship always pass"
	includesUsage     = "comma-separated source ids and/or 'included' (default: every source except OTHER ones)"
	includeOtherUsage = "include sources of type OTHER in the default sources"
	limitUsage        = "most records to return per name (total_hits and reports count all)"
	matchUsage        = "strict (every query word pairs with a word of one name; the /v1 rule) or scored (partial and variant names, ranked by score; see docs/MATCHING.md, Match modes)"
	minScoreUsage     = "with --match scored: the least score in (0, 1] a record needs to be a hit (default 0.82)"
	// mediaSearchAllUsage is --search-all of the media commands, whose
	// text is looked for in articles.
	mediaSearchAllUsage = "the name to look for in articles (required)"
)

// querySpec is what varies between commands in their query flags: which
// checks --type offers (its help and default), and for media, whose
// search_all is looked for in articles rather than records, the help of
// --search-all.
type querySpec struct {
	kindUsage, kindDefault string
	searchAllUsage         string // "" is searchAllUsage
	with                   queryFlag
}

// add defines --type (unless spec.kindUsage is empty) and the query flags
// of spec.with on fl.
func (q *queryFlags) add(fl *pflag.FlagSet, spec querySpec) {
	if spec.kindUsage != "" {
		fl.StringVar(&q.kind, "type", spec.kindDefault, spec.kindUsage)
	}
	if spec.with&withNames != 0 {
		fl.StringVar(&q.names, "names", "", namesUsage)
	}
	if spec.with&withSearchAll != 0 {
		usage := spec.searchAllUsage
		if usage == "" {
			usage = searchAllUsage
		}
		fl.StringVar(&q.searchAll, "search-all", "", usage)
	}
	if spec.with&withFuzzy != 0 {
		fl.IntVar(&q.fuzzy, "fuzzy", 0, fuzzyUsage)
	}
	if spec.with&withDOB != 0 {
		fl.StringVar(&q.dob, "dob", "", dobUsage)
	}
	if spec.with&withGender != 0 {
		fl.StringVar(&q.gender, "gender", "", genderUsage)
	}
	if spec.with&withCitizenship != 0 {
		fl.StringVar(&q.citizenship, "citizenship", "", citizenshipUsage)
	}
	if spec.with&withIncludes != 0 {
		fl.StringVar(&q.includes, "includes", "", includesUsage)
	}
	if spec.with&withIncludeOther != 0 {
		fl.BoolVar(&q.includeOther, "include-other", false, includeOtherUsage)
	}
	if spec.with&withLimit != 0 {
		fl.IntVar(&q.limit, "limit", query.DefaultLimit, limitUsage)
	}
	if spec.with&withMatch != 0 {
		fl.StringVar(&q.match, "match", "strict", matchUsage)
		fl.StringVar(&q.minScore, "min-score", "", minScoreUsage)
	}
}

// matchMode reads --match and --min-score: the mode and the threshold (0
// for the default). --min-score without --match scored is refused rather
// than ignored, so that a threshold is never silently dropped.
func (q *queryFlags) matchMode() (query.MatchMode, float64, error) {
	m, err := query.ParseMatch(q.match)
	if err != nil {
		return 0, 0, paramToUsage(err)
	}
	if q.minScore == "" {
		return m, 0, nil
	}
	if m != query.Scored {
		return 0, 0, usagef("--min-score: applies only with --match scored")
	}
	v, err := query.ParseMinScore(q.minScore)
	if err != nil {
		return 0, 0, paramToUsage(err)
	}
	return m, v, nil
}

// query returns the query the flags describe, of kind, without sources;
// an error for a bad --match or --min-score.
func (q *queryFlags) query(kind query.Kind) (query.Query, error) {
	m, ms, err := q.matchMode()
	if err != nil {
		return query.Query{}, err
	}
	// The filters are of individuals: an entity check refuses them
	// rather than drop them unseen.
	if kind == query.Entity {
		for _, f := range []struct{ flag, value string }{{"--dob", q.dob}, {"--gender", q.gender}, {"--citizenship", q.citizenship}} {
			if f.value != "" {
				return query.Query{}, usagef("%s: filters individuals only; --type entity would ignore it (use --type individual, or any to screen both)", f.flag)
			}
		}
	}
	// The same countries as batch's citizenship column: codes and names.
	citizenship := q.citizenship
	if strings.TrimSpace(citizenship) != "" {
		if citizenship, err = batch.ParseCountry(citizenship); err != nil {
			return query.Query{}, usagef("--citizenship: %v", err)
		}
	}
	return query.Query{
		Kind: kind, Names: q.names, SearchAll: q.searchAll, Fuzzy: q.fuzzy,
		DOB: q.dob, Gender: longGender(q.gender), Citizenship: citizenship, Limit: q.limit,
		Match: m, MinScore: ms,
	}, nil
}

// longGender writes the short forms --gender takes (m, f, any case) as
// male and female, the only values /v1 accepts, so that a query sent to a
// running server (or stored in a profile) means what it meant here. Other
// values pass unchanged, for the engine to judge.
func longGender(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "m":
		return "male"
	case "f":
		return "female"
	}
	return s
}

// flagOf maps a parameter of the API (engine, monitoring and media
// parameters) to the flag that sets it, for messages.
var flagOf = map[string]string{
	"names": "--names", "search_all": "--search-all", "fuzzy_search": "--fuzzy", "dob": "--dob",
	"gender": "--gender", "citizenship": "--citizenship", "includes": "--includes", "type": "--type",
	"limit": "--limit", "profile_id": "--profile-id", "cursor": "--cursor",
	"articles_per_category": "--articles-per-category", "match": "--match", "min_score": "--min-score",
}

// paramToUsage turns a parameter error of the engine, monitoring or media
// (all *query.ParamError) into a usage error naming the flag.
func paramToUsage(err error) error {
	var pe *query.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	name := flagOf[pe.Param]
	if name == "" {
		name = "--" + pe.Param
	}
	return usagef("%s: %s", name, pe.Msg)
}
