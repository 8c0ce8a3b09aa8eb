package api_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
)

// TestJSONRoutesHonourContentType: a route that takes JSON refuses a body
// declared as anything else with 415 UNSUPPORTED_MEDIA_TYPE naming the types
// it takes, before reading the body; a body declared as JSON (with or
// without charset=utf-8) or not declared at all is read as JSON.
func TestJSONRoutesHonourContentType(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	valid := map[string]string{
		"/v1/digests": `{"query":"MTCT","sources":[{"text":"Placental DC-SIGNR plays a crucial role in MTCT."}]}`,
		"/v1/locate":  `{"sources":[{"text":"Placental DC-SIGNR plays a crucial role in MTCT."}],"quotes":["crucial role"]}`,
		"/v1/check":   `{"report":"It \"plays a crucial role\" [a].","sources":[{"id":"a","text":"Placental DC-SIGNR plays a crucial role in MTCT."}]}`,
		"/v1/verify":  `{"digest":{}}`,
	}
	for route, body := range valid {
		for _, ctype := range []string{"application/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain", "application/json; charset=latin1"} {
			resp, b := c.do(t, h, "POST", route, ctype, []byte(body))
			if resp.StatusCode != 415 {
				t.Errorf("%s as %s: %d, want 415: %.300s", route, ctype, resp.StatusCode, b)
				continue
			}
			ed := errorOf(t, b)
			accepted, _ := ed.Details["accepted_content_types"].([]any)
			if ed.ErrorCode != "UNSUPPORTED_MEDIA_TYPE" || len(accepted) != 1 || accepted[0] != "application/json" {
				t.Errorf("%s as %s: %s details %v, want UNSUPPORTED_MEDIA_TYPE accepting application/json", route, ctype, ed.ErrorCode, ed.Details)
			}
		}
		for _, ctype := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON", ""} {
			resp, b := c.do(t, h, "POST", route, ctype, []byte(body))
			if resp.StatusCode == 415 || strings.Contains(string(b), "UNSUPPORTED_MEDIA_TYPE") {
				t.Errorf("%s as %q: refused: %.300s", route, ctype, b)
			}
		}
	}

	// /v1/digest takes more than JSON, and says which.
	resp, b := c.do(t, h, "POST", "/v1/digest?query=x", "image/gif", []byte("GIF89a"))
	ed := errorOf(t, b)
	var accepted []string
	raw, _ := json.Marshal(ed.Details["accepted_content_types"])
	json.Unmarshal(raw, &accepted)
	if resp.StatusCode != 415 || !slices.Contains(accepted, "application/pdf") || !slices.Contains(accepted, "multipart/form-data") {
		t.Errorf("/v1/digest as image/gif: %d %v", resp.StatusCode, ed.Details)
	}
}
