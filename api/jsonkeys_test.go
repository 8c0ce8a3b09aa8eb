package api_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
)

// TestJSONKeysMatchedExactly sends bodies whose keys differ from the
// documented names only in case, alone or beside the right key: each is
// refused, never decoded as encoding/json's case-insensitive match would.
func TestJSONKeysMatchedExactly(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	for _, c := range []struct {
		path, body, want string
	}{
		{"/v1/digest", `{"query":"q","source":{"text":"A","TEXT":"B"}}`, "400 VALIDATION_ERROR"},
		{"/v1/digest", `{"query":"q","QUERY":"other","source":{"text":"Some text here."}}`, "400 VALIDATION_ERROR"},
		{"/v1/digest", `{"Query":"q","source":{"text":"Some text here."}}`, "400 VALIDATION_ERROR"},
		{"/v1/digest", `{"query":"q","source":{"text":"Some text here."},"options":{"Max_Evidence":3}}`, "400 VALIDATION_ERROR"},
		{"/v1/digests", `{"query":"q","sources":[{"text":"Some text here."},{"Text":"x"}]}`, "400 VALIDATION_ERROR"},
		{"/v1/digest", `{"query":"q","source":{"text":"A","text":"B"}}`, "400 INVALID_FORMAT"},
		{"/v1/digest", `{"query":"q","source":{"text":"Some text here."}}`, "200"},
	} {
		req := httptest.NewRequest("POST", c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		resp, body := serve(h, req)
		got := "200"
		if resp.StatusCode != 200 {
			got = fmt.Sprintf("%d %s", resp.StatusCode, errorOf(t, body).ErrorCode)
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s (%s)", c.body, got, c.want, body)
		}
	}
}
