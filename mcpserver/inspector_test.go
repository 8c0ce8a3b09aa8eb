package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/pipeline"
)

// inspectorBin returns the MCP Inspector installed by
// "npm ci --prefix e2e/mcp". It skips the test when node or the inspector
// is missing, except under CI=true, where that is a failure.
func inspectorBin(t *testing.T) string {
	t.Helper()
	testenv.FullSuite(t, "drives the MCP Inspector")
	bin, err := filepath.Abs(filepath.Join("..", "e2e", "mcp", "node_modules", ".bin", "mcp-inspector"))
	if err != nil {
		t.Fatal(err)
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(bin); err != nil {
		missing = "the MCP Inspector is not installed (run: npm ci --prefix e2e/mcp)"
	}
	testenv.Need(t, missing == "", "%s", missing)
	return bin
}

// inspect runs the Inspector CLI against url and decodes its JSON output.
func inspect(t *testing.T, bin, url string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli", url}, args...)...)
	cmd.Dir = filepath.Dir(filepath.Dir(filepath.Dir(bin))) // e2e/mcp
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("inspector %v: %v\nstdout: %s\nstderr: %s", args, err, out, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("inspector %v: output is not JSON: %v\n%s", args, err, out)
	}
	return v
}

// TestInspectorCLI drives the server with an independent client, the
// official MCP Inspector, over streamable HTTP at /mcp of the HTTP API.
func TestInspectorCLI(t *testing.T) {
	bin := inspectorBin(t)
	url := newHTTPServer(t).URL + "/mcp"

	list := inspect(t, bin, url, "--method", "tools/list")
	var names []string
	for _, tool := range list["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	// The independent client lists what the SDK's own client lists.
	sdk, err := connectInMemory(t, newPipeline(t)).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tool := range sdk.Tools {
		want = append(want, tool.Name)
	}
	slices.Sort(want)
	if len(want) < 10 || !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	source, _ := json.Marshal(map[string]any{"text": fixture(t, "transmission.txt")})
	res := inspect(t, bin, url, "--method", "tools/call", "--tool-name", "digest_source",
		"--tool-arg", "query="+testQuery, "--tool-arg", "source="+string(source))
	var env envelope
	remarshal(t, res["structuredContent"], &env)
	var d digestData
	remarshal(t, env.Data, &d)
	if !env.Success || res["isError"] == true || len(d.Digest.EvidenceSnippets) == 0 {
		t.Fatalf("digest_source: %v", res)
	}
	if err := digest.Validate(d.Digest.Value()); err != nil {
		t.Fatal(err)
	}
	rr := inspect(t, bin, url, "--method", "resources/read", "--uri", "digestd://archive/"+d.Digest.SourceTextHash)
	contents, _ := rr["contents"].([]any)
	if len(contents) != 1 {
		t.Fatalf("resources/read: %v", rr)
	}
	text, _ := contents[0].(map[string]any)["text"].(string)
	if digest.SourceTextHash(text) != d.Digest.SourceTextHash {
		t.Fatal("the resource does not hash to source_text_hash")
	}
	for _, s := range d.Digest.EvidenceSnippets {
		loc, err := digest.ParseLocator(s.Locator)
		if err != nil {
			t.Fatal(err)
		}
		if runes(text, loc.Start, loc.End) != s.Text {
			t.Errorf("%s does not slice to its snippet", s.Locator)
		}
	}
	s0 := d.Digest.EvidenceSnippets[len(d.Digest.EvidenceSnippets)-1]
	span := inspect(t, bin, url, "--method", "tools/call", "--tool-name", "get_archived_text",
		"--tool-arg", "hash="+d.Digest.SourceTextHash, "--tool-arg", "locator="+s0.Locator)
	remarshal(t, span["structuredContent"], &env)
	var sl archivedText
	remarshal(t, env.Data, &sl)
	if sl.Text != s0.Text {
		t.Errorf("get_archived_text %s = %q, want %q", s0.Locator, sl.Text, s0.Text)
	}

	// check_citations: a citation by hash needs no sources (the Inspector
	// CLI passes arrays as strings, so this tool is the one to drive here).
	report := fmt.Sprintf("It says “%s” [%s#%s].", strings.ToUpper(s0.Text), d.Digest.SourceTextHash, s0.Locator)
	cc := inspect(t, bin, url, "--method", "tools/call", "--tool-name", "check_citations", "--tool-arg", "report="+report)
	remarshal(t, cc["structuredContent"], &env)
	var checked struct {
		Citations []struct{ Status, Locator, Text string }
	}
	remarshal(t, env.Data, &checked)
	if len(checked.Citations) != 1 || checked.Citations[0].Status != "supported" || checked.Citations[0].Text != s0.Text {
		t.Errorf("check_citations: %v", cc)
	}

	bad := inspect(t, bin, url, "--method", "tools/call", "--tool-name", "get_archived_text",
		"--tool-arg", "hash=sha256:0000000000000000000000000000000000000000000000000000000000000000")
	remarshal(t, bad["structuredContent"], &env)
	var ed errorData
	remarshal(t, env.Data, &ed)
	if bad["isError"] != true || ed.ErrorCode != string(fault.NotFound) {
		t.Errorf("unknown hash: isError %v, error_code %q", bad["isError"], ed.ErrorCode)
	}
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

// TestMain lets the test binary serve MCP over stdio for the Inspector's
// stdio test, as "digestd mcp" does.
func TestMain(m *testing.M) {
	if dir := os.Getenv("DIGESTD_TEST_STDIO_ARCHIVE"); dir != "" {
		store, err := fsstore.Open(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 1 << 20}, Store: store}
		if err := mcpserver.ServeStdio(context.Background(), pipe, mcpserver.Options{Version: "test"}, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestInspectorPassesOptions: the arguments the Inspector once could not
// send (options, budget, start, end were nullable unions, which it sends as
// strings) reach the tools, over streamable HTTP and over stdio.
func TestInspectorPassesOptions(t *testing.T) {
	bin := inspectorBin(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stdioEnv := "DIGESTD_TEST_STDIO_ARCHIVE=" + t.TempDir()
	for name, target := range map[string][]string{
		"http":  {newHTTPServer(t).URL + "/mcp"},
		"stdio": {"-e", stdioEnv, self},
	} {
		t.Run(name, func(t *testing.T) {
			source, _ := json.Marshal(map[string]any{"text": fixture(t, "transmission.txt")})
			res := inspect(t, bin, target[len(target)-1], append(target[:len(target)-1:len(target)-1], "--method", "tools/call", "--tool-name", "digest_source",
				"--tool-arg", "query="+testQuery, "--tool-arg", "source="+string(source),
				"--tool-arg", `options={"max_evidence": 2, "max_key_points": 0}`)...)
			var env envelope
			remarshal(t, res["structuredContent"], &env)
			var d digestData
			remarshal(t, env.Data, &d)
			if res["isError"] == true || len(d.Digest.EvidenceSnippets) != 2 || len(d.Digest.KeyPoints) != 0 {
				t.Fatalf("digest_source with options: %v", res)
			}
			hash := d.Digest.SourceTextHash
			span := inspect(t, bin, target[len(target)-1], append(target[:len(target)-1:len(target)-1], "--method", "tools/call", "--tool-name", "get_archived_text",
				"--tool-arg", "hash="+hash, "--tool-arg", "start=3", "--tool-arg", "end=12")...)
			remarshal(t, span["structuredContent"], &env)
			var sl archivedText
			remarshal(t, env.Data, &sl)
			if span["isError"] == true || sl.Start != 3 || sl.End != 12 || utf8.RuneCountInString(sl.Text) != 9 {
				t.Fatalf("get_archived_text with start and end: %v", span)
			}
			many := inspect(t, bin, target[len(target)-1], append(target[:len(target)-1:len(target)-1], "--method", "tools/call", "--tool-name", "digest_sources",
				"--tool-arg", "query="+testQuery, "--tool-arg", `sources=[{"archive": "`+hash+`"}]`,
				"--tool-arg", `budget={"max_chars": 300}`, "--tool-arg", `options={"max_evidence": 1}`)...)
			remarshal(t, many["structuredContent"], &env)
			var md struct {
				Digests []json.RawMessage `json:"digests"`
			}
			remarshal(t, env.Data, &md)
			if many["isError"] == true || !env.Success || len(md.Digests) != 1 || utf8.RuneCount(md.Digests[0]) > 300 {
				t.Fatalf("digest_sources with budget and options: %v", many)
			}
		})
	}
}
