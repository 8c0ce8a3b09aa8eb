package wire

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// TestRemediationsFitEveryRoute: a code's remediation goes out on every
// route and transport that answers the code, so it names none of them
// (issue 47: every MISSING_REQUIRED of /v1/digest told the client about
// /v1/verify, and INVALID_FORMAT off /mcp about /mcp); what one route needs
// said is in its message. FORBIDDEN, which only /mcp answers, may name it.
func TestRemediationsFitEveryRoute(t *testing.T) {
	for code, c := range errorTable {
		for _, route := range []string{"/v1/", "/mcp"} {
			if strings.Contains(c.Remediation, route) && !(code == fault.Forbidden && route == "/mcp") {
				t.Errorf("%s: the remediation names %s, and every route sends it: %q", code, route, c.Remediation)
			}
		}
	}
}
