// Package record defines the AML record, the consolidated change and the
// source catalogue entry of the screening service, and reads and writes them
// as JSON in both key casings the service uses: snake_case in API responses,
// camelCase in consolidated files.
//
// Empty attributes are never written. Attributes a reader does not know are
// kept verbatim in Record.Extra and written back out, so a newer upstream
// schema survives a pass through amlscreen.
package record

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Source types of docs/API.md "Records". More may be added upstream; unknown values
// are kept as they are.
const (
	SourceSanction             = "SANCTION"
	SourcePEP                  = "PEP"
	SourceCriminal             = "CRIMINAL"
	SourceNonCompliantTaxpayer = "NON_COMPLIANT_TAXPAYER"
	SourceOther                = "OTHER"
	EntityIndividual           = "INDIVIDUAL"
	EntityEntity               = "ENTITY"
	EntityVessel               = "VESSEL"
	EntityAircraft             = "AIRCRAFT"
	EntityJurisdiction         = "JURISDICTION"
	EntityObject               = "OBJECT"
	EntityUnknown              = "UNKNOWN"
	GenderMale                 = "MALE"
	GenderFemale               = "FEMALE"
	GenderUnknown              = "UNKNOWN"
	ChangeAdd                  = "ADD"
	ChangeUpdate               = "UPDATE"
	ChangeDelete               = "DELETE"
)

// Record is one AML record (docs/API.md "Records"). The zero value is an empty
// record; list attributes are nil when absent.
type Record struct {
	ID            string
	SourceID      string
	SourceType    string
	PEPType       string
	PEPLevel      int32 // 1..4; 0 when absent
	EntityType    string
	ListDate      int64 // Unix milliseconds; 0 when unavailable
	Gender        string
	Name          string
	TLName        string
	SourceCountry string

	LastNames           []string
	GivenNames          []string
	AliasGivenNames     []string
	AliasNames          []string
	NameRemarks         []string
	Spouse              []string
	Parents             []string
	Children            []string
	Siblings            []string
	DateOfBirth         []string
	DateOfBirthRemarks  []string
	PlaceOfBirth        []string
	PlaceOfBirthRemarks []string
	Address             []string
	AddressRemarks      []string
	Citizenship         []string
	CitizenshipRemarks  []string
	Jurisdiction        []string
	CompanyNumber       []string
	SanctionDetails     []string
	Description         []string
	Occupations         []string
	Positions           []string
	Functions           []string
	Titles              []string
	PoliticalParties    []string
	Links               []string
	OtherInformation    []string

	// Extra holds attributes this version does not know, by their original
	// key, so that they survive a read/write round trip. They are not indexed.
	Extra map[string]json.RawMessage
}

// Change is one line of a consolidated delta (docs/API.md "Deltas").
type Change struct {
	Type   string // ADD, UPDATE or DELETE
	Record Record
}

// ErrNoID is returned by Validate for a record without an id.
var ErrNoID = errors.New("record has no id")

// Validate reports the first structural problem of r as a *FieldError
// naming the attribute: a record carries a valid id (see ValidID), a
// pep_level, when given, lies in 1..4, and no value is longer than its
// limit (MaxNameLen, MaxValueLen).
func (r *Record) Validate() error {
	if err := ValidID(r.ID); err != nil {
		return &FieldError{Field: "id", Err: err}
	}
	if r.PEPLevel < 0 || r.PEPLevel > 4 {
		return &FieldError{Field: "pep_level", Err: fmt.Errorf("record %s: %d outside 1..4", r.ID, r.PEPLevel)}
	}
	return r.checkLengths()
}

// Validate reports whether c is a well-formed change: a known type and a
// valid record (Record.Validate). Errors are *FieldError naming "type" or
// "record.KEY".
func (c *Change) Validate() error {
	switch c.Type {
	case ChangeAdd, ChangeUpdate, ChangeDelete:
	default:
		return &FieldError{Field: "type", Err: fmt.Errorf("change type %q is not ADD, UPDATE or DELETE", clip(c.Type, 40))}
	}
	if err := c.Record.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return &FieldError{Field: "record." + fe.Field, Err: fe.Err}
		}
		return err
	}
	return nil
}

// Clone returns a deep copy of r, so that a caller may change it without
// affecting records shared with an index.
func (r *Record) Clone() *Record {
	c := *r
	for _, a := range attributes {
		if a.kind == kindList {
			if p := a.list(&c); *p != nil {
				*p = append([]string(nil), *p...)
			}
		}
	}
	if r.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(r.Extra))
		for k, v := range r.Extra {
			c.Extra[k] = append(json.RawMessage(nil), v...)
		}
	}
	return &c
}
