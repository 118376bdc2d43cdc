package conv

import (
	"reflect"

	"github.com/amlscreen/amlscreen/record"
)

var stringSlice = reflect.TypeFor[[]string]()

// genderField is the index of Record.Gender: an UNKNOWN there gives way to
// a gender another row states.
var genderField = func() int {
	f, _ := reflect.TypeFor[record.Record]().FieldByName("Gender")
	return f.Index[0]
}()

// MergeRecord adds what src says to dst, for a list that gives one entry in
// several rows: every list attribute of src is appended to dst's, without
// repeats; single values of dst win, and those dst lacks are taken from src.
func MergeRecord(dst, src *record.Record) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range d.NumField() {
		df, sf := d.Field(i), s.Field(i)
		switch {
		case df.Type() == stringSlice:
			l := df.Interface().([]string)
			for _, v := range sf.Interface().([]string) {
				l = AppendUnique(l, v)
			}
			df.Set(reflect.ValueOf(l))
		case df.Kind() == reflect.String && (df.String() == "" || df.String() == record.GenderUnknown && i == genderField):
			if sf.String() != "" {
				df.SetString(sf.String())
			}
		case df.Kind() == reflect.Int64 || df.Kind() == reflect.Int32:
			if df.Int() == 0 {
				df.SetInt(sf.Int())
			}
		}
	}
}
