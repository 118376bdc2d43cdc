package access

import (
	"encoding/json"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestPolicyJSON pins the form monitoring stores with every profile: flat,
// the field names of the keys file. Stored profiles must keep reading.
func TestPolicyJSON(t *testing.T) {
	p := Policy{Sources: Sources{IncludeOther: true, Extra: []string{"x"}, Excluded: []string{"y"}}, Features: Features{PEPLevel: true, SourceCountry: true}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"include_other":true,"extra_sources":["x"],"excluded_sources":["y"],"pep_level":true,"source_country":true}`
	if string(b) != want {
		t.Errorf("Policy JSON %s, want %s", b, want)
	}
	var back Policy
	if err := json.Unmarshal([]byte(want), &back); err != nil || !back.IncludeOther || back.Extra[0] != "x" || back.Excluded[0] != "y" || !back.PEPLevel || !back.SourceCountry {
		t.Errorf("read back %+v, %v", back, err)
	}
	if b, _ := json.Marshal(Policy{}); string(b) != `{}` {
		t.Errorf("empty policy %s", b)
	}
	if o := (Features{}).WriteOptions(record.Snake); !o.OmitPEPLevel || !o.OmitSourceCountry || o.Case != record.Snake {
		t.Errorf("no features: %+v", o)
	}
}
