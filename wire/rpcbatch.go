package wire

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/digestd/digestd/fault"
)

// MaxBatchEntries bounds the messages of one JSON-RPC batch sent to MCP's
// streamable HTTP transport: a batch is admitted as that many requests and
// answered one message at a time, so a small body cannot ask for an
// unbounded answer.
const MaxBatchEntries = 50

// BatchEntries returns the messages of a JSON-RPC batch, as slices of
// body, or nil when body is not a JSON array (one message, or malformed,
// for the transport to judge). A batch of more than MaxBatchEntries
// messages is TOO_LARGE, found without reading past the entry over the
// bound.
func BatchEntries(body []byte) ([][]byte, error) {
	rest := bytes.TrimLeft(body, " \t\r\n")
	if len(rest) == 0 || rest[0] != '[' {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return nil, nil
	}
	var entries [][]byte
	for dec.More() {
		if len(entries) == MaxBatchEntries {
			return nil, fault.E(fault.TooLarge, fmt.Sprintf("a JSON-RPC batch holds at most %d messages; send the rest in further requests", MaxBatchEntries)).
				With("max_batch_entries", MaxBatchEntries)
		}
		start := dec.InputOffset()
		var skip discard
		if err := dec.Decode(&skip); err != nil {
			return nil, nil
		}
		entries = append(entries, bytes.TrimLeft(body[start:dec.InputOffset()], " \t\r\n,"))
	}
	return entries, nil
}

// discard is a JSON value read and dropped.
type discard struct{}

func (*discard) UnmarshalJSON([]byte) error { return nil }
