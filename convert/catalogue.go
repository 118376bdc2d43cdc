package convert

import (
	"strings"

	"github.com/amlscreen/amlscreen/convert/csl"
	"github.com/amlscreen/amlscreen/convert/dpl"
	"github.com/amlscreen/amlscreen/convert/eu"
	"github.com/amlscreen/amlscreen/convert/ofac"
	"github.com/amlscreen/amlscreen/convert/uk"
	"github.com/amlscreen/amlscreen/convert/un"
	"github.com/amlscreen/amlscreen/record"
)

// Catalogue returns the source catalogue entries (as getSourceList
// answers them) of every source this package writes, so that a store
// loaded with converted lists, and no upstream catalogue, can still name
// its sources: amlscreen sources builtin prints them for sources import.
// Sizes and times are left to the store, which counts and stamps them.
// The export-control lists of the CSL are listed as sanction; an entry
// converted as OTHER should be edited to match.
func Catalogue() []record.Source {
	out := []record.Source{
		{Source: ofac.SourceOFACSDN, Name: "OFAC Specially Designated Nationals (SDN) List",
			Description: "Individuals, entities, vessels and aircraft whose property is blocked by the US Treasury's Office of Foreign Assets Control.",
			Link:        "https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists",
			SourceType:  "sanction", Region: "americas", CountryCode: "us", CountryName: "United States", IssuerName: "Office of Foreign Assets Control (OFAC)"},
		{Source: ofac.SourceOFACNonSDN, Name: "OFAC Consolidated Sanctions List (non-SDN lists)",
			Description: "OFAC's sanctions lists other than the SDN list: SSI, FSE, PLC, CAPTA, NS-MBS and CMIC.",
			Link:        "https://ofac.treasury.gov/consolidated-sanctions-list-non-sdn-lists",
			SourceType:  "sanction", Region: "americas", CountryCode: "us", CountryName: "United States", IssuerName: "Office of Foreign Assets Control (OFAC)"},
		{Source: un.SourceUN, Name: "UN Security Council Consolidated List",
			Description: "Individuals and entities subject to sanctions measures imposed by the UN Security Council.",
			Link:        "https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list",
			SourceType:  "sanction", Region: "international", IssuerName: "United Nations Security Council"},
		{Source: dpl.SourceBISDPL, Name: "BIS Denied Persons List",
			Description: "Persons denied export privileges by the US Bureau of Industry and Security.",
			Link:        "https://www.bis.doc.gov/index.php/the-denied-persons-list",
			SourceType:  "sanction", Region: "americas", CountryCode: "us", CountryName: "United States", IssuerName: "Bureau of Industry and Security (BIS)"},
		{Source: eu.SourceEUFSF, Name: "EU Consolidated Financial Sanctions List",
			Description: "Persons, groups and entities subject to EU financial sanctions (Financial Sanctions Files).",
			Link:        "https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions",
			SourceType:  "sanction", Region: "emea", CountryCode: "eu", CountryName: "European Union", IssuerName: "European Commission"},
		{Source: uk.SourceUKSanctions, Name: "UK Sanctions List",
			Description: "Persons, entities and ships designated under UK sanctions regulations.",
			Link:        "https://www.gov.uk/government/publications/the-uk-sanctions-list",
			SourceType:  "sanction", Region: "emea", CountryCode: "gb", CountryName: "United Kingdom", IssuerName: "Foreign, Commonwealth & Development Office (FCDO)"},
		{Source: uk.SourceOFSI, Name: "OFSI Consolidated List of Financial Sanctions Targets",
			Description: "Persons, entities and ships subject to UK financial sanctions, as HM Treasury's Office of Financial Sanctions Implementation lists them.",
			Link:        "https://www.gov.uk/government/publications/financial-sanctions-consolidated-list-of-targets",
			SourceType:  "sanction", Region: "emea", CountryCode: "gb", CountryName: "United Kingdom", IssuerName: "Office of Financial Sanctions Implementation (OFSI), HM Treasury"},
	}
	for _, l := range csl.CSLLists {
		name, issuer, _ := strings.Cut(l.Name, " - ")
		out = append(out, record.Source{
			Source: l.SourceID, Name: "US CSL: " + name,
			Description: "The " + name + " as published in the US Consolidated Screening List.",
			Link:        "https://www.trade.gov/consolidated-screening-list",
			SourceType:  "sanction", Region: "americas", CountryCode: "us", CountryName: "United States", IssuerName: issuer,
		})
	}
	return out
}
