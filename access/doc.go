// Package access decides what a caller may do and see: the API keys of the
// keys file (their quotas, feature flags and webhook), the usage book that
// counts calls against those quotas, and the settings of the one rule for
// which sources a caller includes by default (Sources).
//
// Every surface applies those settings: the HTTP server for each request
// and the command line (check, report, batch) for its --includes and
// --include-other flags, through package screen, and monitoring for each
// profile it matches. So a key, a profile registered with it and the CLI
// given the same flags screen the same sources.
//
// # The default-source rule
//
// A caller includes by default every source that is not of type OTHER,
// OTHER ones only with include_other, plus its extra_sources, minus its
// excluded_sources (excluded wins over extra). An includes parameter names
// source ids, and the selector "included" stands for the defaults (see
// screen.ResolveIncludes). Sources.Includes judges one record;
// screen.Catalog applies the rule to every source of one database version
// and keeps each key's defaults, so a check costs a map look-up.
package access
