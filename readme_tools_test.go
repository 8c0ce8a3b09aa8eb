package digestd_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/mcpserver"
)

// TestReadmeTools: the README's MCP tool table has a row for each tool the
// server offers (mcpserver.ToolNames), in its order, and the meta section
// names each as a tool_id (issue 47: both lacked search_archive).
func TestReadmeTools(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	tools := mcpserver.ToolNames()
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| .* \\| `(?:GET|POST) /v1/[^`]*` \\|$").FindAllSubmatch(readme, -1) {
		rows = append(rows, string(m[1]))
	}
	if !slices.Equal(rows, tools) {
		t.Errorf("README's MCP tool table lists %v, the server offers %v", rows, tools)
	}
	meta := regexp.MustCompile("(?s)- `tool_id`:(.*?)\n- ").FindSubmatch(readme)
	if meta == nil {
		t.Fatal("README has no tool_id item under Envelope meta")
	}
	for _, tool := range tools {
		if !strings.Contains(string(meta[1]), "`"+tool+"`") {
			t.Errorf("README's tool_id item does not name %s", tool)
		}
	}
}
