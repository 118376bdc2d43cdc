package dpl

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/convert/internal/conv"
	"github.com/amlscreen/amlscreen/record"
	"golang.org/x/text/encoding/charmap"
)

// SourceBISDPL is the source id of the records DPL writes.
const SourceBISDPL = "us_bis_dpl"

// dplColumns are the columns of the BIS file, by their header names.
var dplColumns = []string{"Name", "Street_Address", "City", "State", "Country", "Postal_Code",
	"Effective_Date", "Expiration_Date", "Standard_Order", "Last_Update", "Action", "FR_Citation"}

// DPL converts the BIS Denied Persons List (dpl.txt: tab-separated, a
// header row, values in double quotes) read from r and calls emit with
// every record, in the order of the file. sourceType is the records'
// source_type; empty means SANCTION (see CSLOptions.ExportControlType for
// why).
//
// The file has no ids and one row per address: a denial order against a
// person with three addresses is three rows. Rows with the same name
// (compared without case and runs of spaces) and the same effective date
// are one order and become one record, with every address; its id is
// "BIS-DPL-" and 16 hex digits of a hash of that name and date, so it
// stays the same from one edition of the list to the next for as long as
// the order does.
//
// The mapping: entity_type UNKNOWN (the list mixes people and companies,
// and says which of the two neither), name as written with runs of spaces
// collapsed; address street to country; list_date the effective date;
// sanction_details the order's dates and its Federal Register citations;
// other_information the standard-order flag, the last update and the
// action.
func DPL(r io.Reader, sourceType string, emit func(*record.Record) error) error {
	if sourceType == "" {
		sourceType = record.SourceSanction
	}
	in, err := conv.MaybeGunzip(conv.LimitReader(r, conv.MaxInputBytes, "DPL"))
	if err != nil {
		return fmt.Errorf("read DPL: %w", err)
	}
	cr := csv.NewReader(in)
	cr.Comma = '\t'
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("read DPL header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, c := range dplColumns {
		if _, ok := col[strings.ToLower(c)]; !ok {
			return fmt.Errorf("read DPL: the header has no %q column: is this the tab-separated dpl.txt?", c)
		}
	}
	dec := charmap.Windows1252.NewDecoder()
	var out []*record.Record
	byID := map[string]*record.Record{}
	for {
		f, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("read DPL: %w", err)
		}
		get := func(name string) string {
			i := col[strings.ToLower(name)]
			if i >= len(f) {
				return ""
			}
			v := f[i]
			if !utf8.ValidString(v) {
				if d, err := dec.String(v); err == nil {
					v = d
				}
			}
			return conv.Clean(v)
		}
		if conv.Blank(f) {
			continue
		}
		rec, err := dplRecord(get, sourceType)
		if err != nil {
			return fmt.Errorf("DPL line %d: %w", line, err)
		}
		if prev, ok := byID[rec.ID]; ok {
			conv.MergeRecord(prev, rec)
			continue
		}
		byID[rec.ID] = rec
		out = append(out, rec)
	}
	for _, rec := range out {
		if err := emit(rec); err != nil {
			return err
		}
	}
	return nil
}

func dplRecord(get func(string) string, sourceType string) (*record.Record, error) {
	name := get("Name")
	if name == "" {
		return nil, errors.New("no name")
	}
	effective := get("Effective_Date")
	r := &record.Record{
		ID:         conv.HashID("BIS-DPL-", strings.ToUpper(name), effective),
		SourceID:   SourceBISDPL,
		SourceType: sourceType,
		EntityType: record.EntityUnknown,
		Name:       name,
	}
	if t, err := time.Parse("01/02/2006", effective); err == nil {
		r.ListDate = t.UnixMilli()
	}
	r.Address = conv.AppendUnique(r.Address, conv.JoinNonEmpty(", ",
		get("Street_Address"), get("City"), get("State"), get("Postal_Code"), get("Country")))
	order := "Denial order"
	if effective != "" {
		order += " effective " + effective
	}
	if exp := get("Expiration_Date"); exp != "" {
		order += ", expires " + exp
	}
	r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, order)
	if v := get("FR_Citation"); v != "" {
		r.SanctionDetails = conv.AppendUnique(r.SanctionDetails, "Federal Register notice "+v)
	}
	if v := get("Standard_Order"); v != "" {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Standard order "+v)
	}
	if v := get("Last_Update"); v != "" {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Last update "+v)
	}
	if v := get("Action"); v != "" {
		r.OtherInformation = conv.AppendUnique(r.OtherInformation, "Action: "+v)
	}
	return r, nil
}
