package ui

// oidcName names the identity provider the sign-in page offers; "" for
// none.
func (h *handler) oidcName() string { return "" }
