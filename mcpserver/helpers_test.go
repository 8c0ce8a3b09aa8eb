package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

const testQuery = "how does HIV pass from mother to child?"

// newPipeline returns a pipeline over a fresh on-disk archive.
func newPipeline(t testing.TB) *pipeline.Pipeline {
	t.Helper()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 500_000}, Store: store}
}

// fixture returns a text of testdata.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// connectInMemory returns a client session to a server over pipe, through
// the SDK's in-memory transport.
func connectInMemory(t testing.TB, pipe *pipeline.Pipeline) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := mcpserver.NewServer(pipe, mcpserver.Options{Version: "test"})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return connect(t, ct)
}

// connect returns a client session over transport, closed at cleanup.
func connect(t testing.TB, transport mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "digestd-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// envelope is the response-v2 envelope as a client reads it.
type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *string         `json:"error"`
	Meta    struct {
		Version        string   `json:"version"`
		RequestID      string   `json:"request_id"`
		Timestamp      string   `json:"timestamp"`
		ToolID         string   `json:"tool_id"`
		ToolVersion    string   `json:"tool_version"`
		Capabilities   []string `json:"capabilities"`
		Warnings       []string
		WarningDetails []struct {
			Code     string         `json:"code"`
			Severity string         `json:"severity"`
			Message  string         `json:"message"`
			Context  map[string]any `json:"context"`
		} `json:"warning_details"`
		ContentFidelity      string            `json:"content_fidelity"`
		DroppedContentIDs    []string          `json:"dropped_content_ids"`
		ContentArchiveHashes map[string]string `json:"content_archive_hashes"`
		Pagination           *struct {
			Cursor     *string `json:"cursor"`
			HasMore    bool    `json:"has_more"`
			PageSize   int     `json:"page_size"`
			TotalCount *int    `json:"total_count"`
		} `json:"pagination"`
	} `json:"meta"`
}

type errorData struct {
	ErrorCode   string         `json:"error_code"`
	ErrorType   string         `json:"error_type"`
	Remediation string         `json:"remediation"`
	Retryable   bool           `json:"retryable"`
	Details     map[string]any `json:"details"`
}

type digestData struct {
	Digest     wire.Payload `json:"digest"`
	Source     wire.Source  `json:"source"`
	DigestHash string       `json:"digest_hash"`
}

type archivedText struct {
	pipeline.Slice
	Truncated   bool   `json:"truncated"`
	ResourceURI string `json:"resource_uri"`
}

// call calls a tool and returns its result and the envelope in its
// structured content. It fails the test on a protocol error or a result
// without a response-v2 envelope.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, envelope) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: structured content is not an envelope: %v\n%s", tool, err, b)
	}
	if env.Meta.Version != "response-v2" || env.Meta.RequestID == "" || env.Meta.Timestamp == "" {
		t.Fatalf("%s: envelope meta incomplete: %s", tool, b)
	}
	// The contract's meta holds over MCP: the tool, the service version,
	// the capabilities, and a severity and message for every warning.
	if env.Meta.ToolID != tool || env.Meta.ToolVersion == "" || !slices.Contains(env.Meta.Capabilities, "response-v2") {
		t.Fatalf("%s: meta.tool_id %q, tool_version %q, capabilities %v", tool, env.Meta.ToolID, env.Meta.ToolVersion, env.Meta.Capabilities)
	}
	if len(env.Meta.Warnings) != len(env.Meta.WarningDetails) {
		t.Fatalf("%s: %d warnings for %d details", tool, len(env.Meta.Warnings), len(env.Meta.WarningDetails))
	}
	for i, wd := range env.Meta.WarningDetails {
		if wd.Severity != wire.WarningSeverity(fault.Warning(wd.Code)) || env.Meta.Warnings[i] != wd.Message || wd.Message == wd.Code {
			t.Fatalf("%s: warning %d: %+v / %q", tool, i, wd, env.Meta.Warnings[i])
		}
	}
	if env.Success == res.IsError {
		t.Fatalf("%s: success %t but isError %t", tool, env.Success, res.IsError)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no text content", tool)
	}
	return res, env
}

// hasWarning reports whether env carries a warning with code.
func hasWarning(env envelope, code string) bool {
	for _, wd := range env.Meta.WarningDetails {
		if wd.Code == code {
			return true
		}
	}
	return false
}

// mustSucceed calls a tool that must succeed and decodes its data into v.
func mustSucceed(t testing.TB, cs *mcp.ClientSession, tool string, args, v any) (*mcp.CallToolResult, envelope) {
	t.Helper()
	res, env := call(t, cs, tool, args)
	if !env.Success {
		t.Fatalf("%s failed: %s", tool, textOf(res))
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("%s: data: %v", tool, err)
	}
	return res, env
}

// mustFail calls a tool that must fail and returns its error data.
func mustFail(t testing.TB, cs *mcp.ClientSession, tool string, args any) (errorData, envelope) {
	t.Helper()
	res, env := call(t, cs, tool, args)
	if env.Success || !res.IsError {
		t.Fatalf("%s succeeded, want an error: %s", tool, textOf(res))
	}
	var ed errorData
	if err := json.Unmarshal(env.Data, &ed); err != nil {
		t.Fatalf("%s: error data: %v", tool, err)
	}
	if env.Error == nil || *env.Error == "" {
		t.Fatalf("%s: error envelope without a message", tool)
	}
	checkNamedDetails(t, ed)
	return ed, env
}

// checkNamedDetails fails unless the error carries every detail its
// remediation points the client to.
func checkNamedDetails(t testing.TB, ed errorData) {
	t.Helper()
	for _, name := range wire.NamedDetails(ed.Remediation) {
		if _, ok := ed.Details[name]; !ok {
			t.Errorf("%s: the remediation points to details.%s, which the error does not carry: %v", ed.ErrorCode, name, ed.Details)
		}
	}
}

func textOf(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// runes slices s in code points, as Python slices a str.
func runes(s string, start, end int) string {
	r := []rune(s)
	return string(r[start:end])
}
