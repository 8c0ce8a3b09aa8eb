package wire

import (
	"bytes"
	"encoding/json"
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

// FuzzBatchEntries holds BatchEntries to its contract on any body: no
// panic; a batch is at most MaxBatchEntries messages, each a single JSON
// value taken from the body as it is; a refusal is TOO_LARGE.
func FuzzBatchEntries(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"id":1},{"id":2}]`, ` [ 1 , "a", [2], {"b":null} ] `, `[`, `[,]`, `[1 2]`, `["\u00ff\xff"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		entries, err := BatchEntries(body)
		if err != nil {
			if fault.As(err).Code != fault.TooLarge {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		if len(entries) > MaxBatchEntries {
			t.Fatalf("%d entries", len(entries))
		}
		for _, e := range entries {
			if !json.Valid(e) || !bytes.Contains(body, e) {
				t.Fatalf("entry %q is not one JSON value of the body", e)
			}
		}
	})
}
