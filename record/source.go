package record

// Source is one entry of the source catalogue (docs/API.md "Sources"), as
// getSourceList answers it.
type Source struct {
	Source       string `json:"source"`
	Name         string `json:"name,omitempty"`
	Description  string `json:"description,omitempty"`
	Link         string `json:"link,omitempty"`
	SourceType   string `json:"source_type,omitempty"` // lower case: sanction, pep, criminal, other, ...
	Region       string `json:"region,omitempty"`
	CountryCode  string `json:"country_code,omitempty"`
	CountryName  string `json:"country_name,omitempty"`
	IssuerName   string `json:"issuer_name,omitempty"`
	Status       string `json:"status,omitempty"` // "discontinued" or empty for active sources
	LastChecked  string `json:"last_checked,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	Size         int64  `json:"size"`
	// IncludedForAPIKey is set only in answers to a calling key.
	IncludedForAPIKey *bool `json:"included_for_api_key,omitempty"`
}
