// Package ofac converts OFAC's SDN and consolidated non-SDN lists, in the
// legacy CSV files (ConvertOFAC over an OFACList) and in the enhanced XML,
// zipped or not (OFACEnhanced, OpenOFACEnhanced), into consolidated
// records. The remarks column is read by the shared remarks parser.
package ofac
