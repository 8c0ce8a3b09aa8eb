#!/bin/sh
# Runs the pinned MCP Inspector CLI against a digestd MCP server.
#
#   e2e/mcp/inspect.sh http://localhost:8080/mcp --method tools/list
#   e2e/mcp/inspect.sh http://localhost:8080/mcp --method tools/call --tool-name list_sources
#   e2e/mcp/inspect.sh /path/to/digestd --method tools/list -- mcp --archive ./digestd-data   (stdio)
#
# Install it first with: npm ci --prefix e2e/mcp
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/node_modules/.bin/mcp-inspector"
if [ ! -x "$bin" ]; then
	echo "inspect.sh: the MCP Inspector is not installed; run: npm ci --prefix e2e/mcp" >&2
	exit 2
fi
exec "$bin" --cli "$@"
