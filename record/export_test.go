package record

// DecodeFast and DecodeGeneral expose the two decoders behind
// Record.UnmarshalJSON to the differential tests of package record_test,
// which need internal/gen and convert (both import record).
func DecodeFast(data []byte) (Record, bool) {
	var r Record
	ok := decodeFast(data, &r)
	return r, ok
}

func DecodeGeneral(data []byte) (Record, error) {
	var r Record
	err := r.decodeGeneral(data)
	return r, err
}
