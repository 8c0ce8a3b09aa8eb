package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

func TestBatchEntries(t *testing.T) {
	at := func(n int) string { return "[" + strings.TrimSuffix(strings.Repeat(`{"id":1},`, n), ",") + "]" }
	for _, tc := range []struct {
		body string
		want string // the entries joined by |, or the error code
	}{
		{`{"jsonrpc":"2.0","id":1}`, ""},
		{` [ {"id":1} ,{"id":[2,3]}, 3 ] `, `{"id":1}|{"id":[2,3]}|3`},
		{"\n[\"a\",\n\"b\"]", `"a"|"b"`},
		{`[]`, ""},
		{`[{"id":1},`, ""},
		{`not json`, ""},
		{at(MaxBatchEntries), strings.TrimSuffix(strings.Repeat(`{"id":1}|`, MaxBatchEntries), "|")},
		{at(MaxBatchEntries + 1), string(fault.TooLarge)},
	} {
		entries, err := BatchEntries([]byte(tc.body))
		got := ""
		if err != nil {
			got = string(fault.As(err).Code)
		} else {
			parts := make([]string, len(entries))
			for i, e := range entries {
				parts[i] = string(e)
			}
			got = strings.Join(parts, "|")
		}
		if got != tc.want {
			t.Errorf("BatchEntries(%.40q) = %.80q, want %.80q", tc.body, got, tc.want)
		}
	}
	if _, err := BatchEntries([]byte(at(MaxBatchEntries + 1))); fault.As(err).Details["max_batch_entries"] != MaxBatchEntries {
		t.Errorf("the refusal's details: %v", fmt.Sprint(fault.As(err).Details))
	}
}
