// Package convert turns real public sanctions lists into consolidated AML
// records (package record), so that amlscreen can be measured on data nobody
// in the project wrote: the OFAC SDN and non-SDN lists in their legacy CSV
// format (OFAC, ConvertOFAC) and the UN Security Council consolidated list
// in XML (UN).
//
// The lists say more in free text than in fields: OFAC keeps dates and
// places of birth, nationality, gender and identity documents in one
// remarks column. ParseRemarks reads the statements whose meaning is fixed
// and files them in the record's attributes; whatever it does not
// recognise is kept verbatim in other_information, so that nothing the list
// says is lost to search_all.
//
// Decisions that shape matching, made once here for both lists:
//
//   - Names are kept as the list writes them (OFAC's "LAST, First"), since
//     matching ignores token order; individuals' last_names and given_names
//     are filled where the list marks them.
//   - Aliases the lists call weak (OFAC's a.k.a. in remarks, the UN's Low
//     quality) go to name_remarks, not alias_names: both publishers advise
//     against screening on them, and they are short common names.
//   - Dates of birth are dd/mm/yyyy with 00 for unknown parts; a range of
//     years becomes one date per year (up to 15), so that the dob filter
//     accepts exactly the years the list allows; the wording of vague dates
//     is kept in date_of_birth_remarks.
//   - Countries become ISO 3166-1 alpha-2 codes through CountryCode; names
//     it does not know are kept as given.
package convert
