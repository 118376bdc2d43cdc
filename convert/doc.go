// Package convert turns public sanctions and PEP lists, and a bank's own
// watchlist, into consolidated AML records (package record), so that a site
// without a subscription to the hosted service can screen against them and
// amlscreen can be measured on data nobody in the project wrote:
//
//   - the OFAC SDN and non-SDN lists in their legacy CSV format (OFAC,
//     ConvertOFAC) and in the enhanced XML, zipped or not
//     (OFACEnhanced, OpenOFACEnhanced);
//   - the UN Security Council consolidated list in XML (UN);
//   - the US Consolidated Screening List, one source per list (CSL);
//   - the BIS Denied Persons List (DPL);
//   - OpenSanctions datasets in the Senzing entity format, such as its PEP
//     lists (Senzing), as a FollowTheMoney entity stream (FtM) and as the
//     simplified CSV of targets (OpenSanctionsSimple), the last two
//     written from the published formats;
//   - the EU financial sanctions list (EU) and the UK Sanctions List (UK),
//     both written from their published formats without a real edition at
//     hand, and tested on fixtures made from those formats;
//   - a bank's own list, CSV or JSON Lines read by package table as batch
//     reads a customer book (Watchlist).
//
// Each list has its package (convert/ofac, convert/un, convert/csl,
// convert/dpl, convert/eu, convert/uk, convert/opensanctions,
// convert/watchlist), as watchman's pkg/sources does; what they share is
// in convert/internal/conv. This package keeps the catalogue and the
// detection of a file's format, and dispatches to them.
//
// Catalogue gives the source catalogue entries of the lists. Every record
// written passes CheckRecord, and ids are unique within a file (WriteJSONL
// stops otherwise); inputs are bounded by MaxInputBytes.
//
// The lists say more in free text than in fields: OFAC keeps dates and
// places of birth, nationality, gender and identity documents in one
// remarks column. ParseRemarks reads the statements whose meaning is fixed
// and files them in the record's attributes; whatever it does not
// recognise is kept verbatim in other_information, so that nothing the list
// says is lost to search_all.
//
// Decisions that shape matching, made once here for every list:
//
//   - Names are kept as the list writes them (OFAC's "LAST, First"), since
//     matching ignores token order; individuals' last_names and given_names
//     are filled where the list marks them.
//   - Aliases the lists call weak (OFAC's a.k.a. in remarks and low-quality
//     names, the UN's and UK's Low quality, the EU's strong="false") go to
//     name_remarks, not alias_names: the publishers advise against
//     screening on them, and they are short common names.
//   - Entries a list does not type as a person or an organisation are
//     UNKNOWN, which both checkIndividual and checkEntity return.
//   - Export-control lists are SANCTION sources unless asked otherwise:
//     OTHER sources are screened only where a key includes them.
//   - Dates of birth are dd/mm/yyyy with 00 for unknown parts; a range of
//     years becomes one date per year (up to 15), so that the dob filter
//     accepts exactly the years the list allows; the wording of vague dates
//     is kept in date_of_birth_remarks.
//   - Countries become ISO 3166-1 alpha-2 codes through CountryCode; names
//     it does not know are kept as given.
package convert
