package main

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/mcpserver"
)

// TestHelpNamesWhatIs: the help texts name what the code has, from the
// one place each fact lives (issue 47: serve's default address, extract
// --kind, batch --dir's kinds and mcp's tools were stale).
func TestHelpNamesWhatIs(t *testing.T) {
	defaults, _ := helpDefaults(t, "serve")
	out, _, _ := runCLI(t, "", "help")
	if want := "(default " + defaults["addr"] + ", archive " + defaults["archive"] + ")"; !strings.Contains(out, want) {
		t.Errorf("digestd help does not say %q:\n%s", want, out)
	}
	_, mcpHelp, _ := runCLI(t, "", "mcp", "--help")
	for _, tool := range mcpserver.ToolNames() {
		if !strings.Contains(mcpHelp, tool) {
			t.Errorf("mcp --help does not name the tool %s", tool)
		}
	}
	for _, cmd := range []string{"digest", "extract"} {
		_, usage := helpDefaults(t, cmd)
		for _, kind := range format.Kinds {
			if !strings.Contains(usage["kind"], kind) {
				t.Errorf("%s --help: -kind does not name %s: %s", cmd, kind, usage["kind"])
			}
		}
		for _, mode := range ingest.RenderModes {
			if !strings.Contains(usage["render"], mode) {
				t.Errorf("%s --help: -render does not name %s: %s", cmd, mode, usage["render"])
			}
		}
	}
	_, usage := helpDefaults(t, "batch")
	for _, ext := range format.Extensions() {
		if !strings.Contains(usage["dir"], ext) {
			t.Errorf("batch --help: -dir does not name %s: %s", ext, usage["dir"])
		}
	}
}

// TestFlagsApply: a command lists the flags that change what it does, and
// no others (issue 47: reindex, gc and extract listed the fetch, PDF and
// browser limits).
func TestFlagsApply(t *testing.T) {
	ingestFlags := []string{"max-text-chars", "html-max-nodes", "pdf-workers", "pdf-deadline", "pdf-memory-bytes", "fetch-timeout", "fetch-max-bytes", "fetch-allow-loopback", "renderer", "render-timeout"}
	for _, c := range []struct {
		cmd      string
		has, not []string
	}{
		{"reindex", []string{"archive", "index", "max-text-bytes", "all"}, ingestFlags},
		{"gc", []string{"archive", "index", "dry-run", "grace"}, append([]string{"max-text-bytes"}, ingestFlags...)},
		{"verify", []string{"archive"}, append([]string{"index", "max-text-bytes"}, ingestFlags...)},
		{"extract", append([]string{"render", "kind", "explain"}, ingestFlags...), []string{"archive", "index", "max-text-bytes", "render-pages"}},
		{"digest", append([]string{"archive", "index", "max-text-bytes", "render", "query"}, ingestFlags...), []string{"render-pages"}},
		{"serve", append([]string{"archive", "index", "max-text-bytes", "render-pages", "addr"}, ingestFlags...), []string{"render"}},
	} {
		_, usage := helpDefaults(t, c.cmd)
		for _, f := range c.has {
			if _, ok := usage[f]; !ok {
				t.Errorf("%s --help lacks -%s", c.cmd, f)
			}
		}
		for _, f := range c.not {
			if _, ok := usage[f]; ok {
				t.Errorf("%s --help lists -%s, which does not apply to it", c.cmd, f)
			}
		}
	}
}

// --render takes the service's modes, on URL sources only; asking a
// one-shot command to render without a browser is FEATURE_DISABLED, as it
// is from a server started without one.
func TestRenderFlag(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"digest", "--archive", dir, "--query", "q", "--render", "sometimes", "https://example.org/"},
		{"digest", "--archive", dir, "--query", "q", "--render", "auto", "notes.txt"},
		{"extract", "--render", "always", "-"},
	} {
		if _, _, code := runCLI(t, "Some text.", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	out, _, code := runCLI(t, "", "digest", "--archive", dir, "--query", "q", "--render", "always", "--renderer", "off", "https://example.org/")
	if code != 2 || !strings.Contains(out, `"error_code": "FEATURE_DISABLED"`) {
		t.Errorf("--render always --renderer off: exit %d %s", code, out)
	}
}
