package digestd_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/mcpserver"
)

// TestRoutesDeclaredOnce reads the API's one route table (api.Routes):
// openapi.yaml documents each route and no other, method for method; every
// MCP tool is the operation of a route; and the README's tool table names,
// for each tool, a route whose operation it is.
func TestRoutesDeclaredOnce(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(digestd.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	mounted := map[string]bool{}
	byTool := map[string][]string{}
	for _, rt := range api.Routes() {
		method := rt.Method
		if method == "" {
			method = "GET" // served for any method, documented as GET
		}
		key := method + " " + rt.Pattern
		if mounted[key] {
			t.Errorf("route %s is declared twice", key)
		}
		mounted[key] = true
		if !documented[key] {
			t.Errorf("route %s is not in openapi.yaml", key)
		}
		if rt.Tool != "" {
			byTool[rt.Tool] = append(byTool[rt.Tool], key)
		}
	}
	for key := range documented {
		if !mounted[key] {
			t.Errorf("openapi.yaml documents %s, which is not a route", key)
		}
	}
	for _, tool := range mcpserver.ToolNames() {
		if len(byTool[tool]) == 0 {
			t.Errorf("MCP tool %s is the operation of no route", tool)
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| .* \\| `((?:GET|POST) /v1/[^`]*)` \\|$").FindAllStringSubmatch(string(readme), -1)
	if len(rows) != len(mcpserver.ToolNames()) {
		t.Errorf("README's tool table has %d rows, the server offers %d tools", len(rows), len(mcpserver.ToolNames()))
	}
	for _, m := range rows {
		if !slices.Contains(byTool[m[1]], m[2]) {
			t.Errorf("README gives %s the route %s; its routes are %v", m[1], m[2], byTool[m[1]])
		}
	}
}
