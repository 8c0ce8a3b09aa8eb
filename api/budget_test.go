package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
)

// TestDigestsBudgetWords (issue 47): a budget gives max_chars or
// max_tokens, not both; one that holds nothing is an error naming the
// budget that would hold the smallest digest, not a success with nothing
// in it; and CONTENT_TRUNCATED says what was left out and what was cut
// down, never "0 of N digests were left out".
func TestDigestsBudgetWords(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	c := loadContract(t)
	var srcs []map[string]string
	for i := range 4 {
		srcs = append(srcs, map[string]string{"id": fmt.Sprintf("t%d", i), "text": "Tides rise twice a day because the moon pulls the sea.\n" + syntheticDocument(3000, uint64(i+1))})
	}
	post := func(budget map[string]int, detail string) (int, []byte) {
		b, _ := json.Marshal(map[string]any{"query": "why do tides rise", "sources": srcs, "budget": budget, "detail": detail})
		resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", b)
		return resp.StatusCode, body
	}
	truncated := func(body []byte) (string, map[string]any) {
		var m fidelityMeta
		json.Unmarshal(body, &m)
		for _, wd := range m.Meta.WarningDetails {
			if wd.Code == "CONTENT_TRUNCATED" {
				return wd.Message, wd.Context
			}
		}
		return "", nil
	}

	status, body := post(map[string]int{"max_chars": 5000, "max_tokens": 1000}, "")
	if ed := errorOf(t, body); status != 400 || ed.ErrorCode != "INVALID_FORMAT" || !strings.Contains(string(body), "max_chars") || !strings.Contains(string(body), "max_tokens") {
		t.Errorf("both bounds: %d %.400s", status, body)
	}

	status, body = post(map[string]int{"max_chars": 100}, "")
	ed := errorOf(t, body)
	least, _ := ed.Details["min_budget_chars"].(float64)
	hashes, _ := ed.Details["content_archive_hashes"].(map[string]any)
	if status != 400 || ed.ErrorCode != "VALIDATION_ERROR" || least <= 100 || len(hashes) != len(srcs) {
		t.Fatalf("a budget that holds nothing: %d %.600s", status, body)
	}
	status, body = post(map[string]int{"max_chars": int(least)}, "")
	var data digestsData
	json.Unmarshal(decodeEnvelope(t, body).Data, &data)
	if status != 200 || data.Included == 0 {
		t.Errorf("the least budget the error named (%v): %d, %d included", least, status, data.Included)
	}

	// Cut down, nothing left out: say so.
	status, body = post(map[string]int{"max_chars": 16000}, "")
	json.Unmarshal(decodeEnvelope(t, body).Data, &data)
	msg, ctx := truncated(body)
	if status != 200 || data.Dropped != 0 || ctx == nil || ctx["degraded_count"] == float64(0) || strings.Contains(msg, "0 of") || !strings.Contains(msg, "cut down to") {
		t.Errorf("items cut down, none left out (%d dropped): %q %v", data.Dropped, msg, ctx)
	}
	// Summaries asked for and sent: nothing was cut to fit.
	status, body = post(map[string]int{"max_chars": 100000}, "summary")
	msg, ctx = truncated(body)
	if status != 200 || ctx == nil || ctx["reason"] != "detail" || strings.Contains(msg, "left out") && !strings.Contains(msg, "no digest was left out") {
		t.Errorf("detail summary within the budget: %q %v", msg, ctx)
	}
}
