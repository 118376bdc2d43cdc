package access

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseKeys: a keys file with any other fields either loads or is
// refused with a message that never shows the key itself (keys files are
// read at start and on SIGHUP, and their errors go to logs).
func FuzzParseKeys(f *testing.F) {
	for _, rest := range []string{
		`"name":"n"`, `"montly_quota":5`, `"monthly_quota":-1`, `"webhook_url":"ftp://x"`,
		`"profile_quota":"3"`, `"disabled":1`, `"features":{"pep_level":true}`, `"key":"dup"`, `}`, `]`,
	} {
		f.Add("secret-key-123456", rest)
	}
	f.Add("sp ace-key-12345", `"name":"n"`)
	f.Fuzz(func(t *testing.T, key, rest string) {
		k, err := json.Marshal(key)
		if err != nil {
			return
		}
		_, err = Parse([]byte(`[{"key":` + string(k) + `,` + rest + `}]`))
		// (A key that also stands in another field may be shown as that.)
		if err != nil && len(key) >= 8 && strings.Contains(err.Error(), key) && !strings.Contains(rest, key) {
			t.Fatalf("the error shows the key %q: %v", key, err)
		}
	})
}
