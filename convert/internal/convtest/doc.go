// Package convtest holds the helpers the converters' tests share:
// comparing records, checking dates and converted lists, finding the real
// lists, seeding fuzz targets.
package convtest
