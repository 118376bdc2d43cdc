package syncer

import (
	"errors"
	"testing"
)

// TestRedactOnlyCredentials: the key is replaced where it stands as a
// credential (a header or query value, after "key"), never inside
// ordinary words, so that a short key does not mangle a message.
func TestRedactOnlyCredentials(t *testing.T) {
	for _, tt := range []struct{ key, msg, want string }{
		{"the", "the upstream said: the file is broken", "the upstream said: the file is broken"},
		{"the", "GET https://up.example/v1/x?api_key=the&y=1: 500", "GET https://up.example/v1/x?api_key=[api key]&y=1: 500"},
		{"the", "GET https://up.example/v1/x?y=1&token=the: 500", "GET https://up.example/v1/x?y=1&token=[api key]: 500"},
		{"the", `{"x-api-key":"the"} rejected`, `{"x-api-key":"[api key]"} rejected`},
		{"the", "Authorization: Bearer the", "Authorization: Bearer [api key]"},
		{"the", "x-api-key: the (other)", "x-api-key: [api key] (other)"},
		{"the", "api key theory: bad", "api key theory: bad"},
		{"k3y-S3CRET", "API key k3y-S3CRET is disabled", "API key [api key] is disabled"},
		{"k3y-S3CRET", "API key k3y-S3CRET-2 is disabled", "API key k3y-S3CRET-2 is disabled"},
	} {
		c := &Client{APIKey: tt.key}
		if got := c.redact(errors.New(tt.msg)).Error(); got != tt.want {
			t.Errorf("key %q in %q:\n got %q\nwant %q", tt.key, tt.msg, got, tt.want)
		}
	}
}
