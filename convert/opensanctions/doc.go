// Package opensanctions converts OpenSanctions datasets into consolidated
// records: the Senzing entity format (Senzing), the FollowTheMoney entity
// stream (FtM) and the simplified CSV of targets (OpenSanctionsSimple),
// with OpenSanctions to tell them apart.
package opensanctions
