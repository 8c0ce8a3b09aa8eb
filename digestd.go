// Package digestd holds what the whole program shares: its version and the
// OpenAPI description of its HTTP API, embedded so the binary serves it.
package digestd

import _ "embed"

// Version is digestd's release version.
const Version = "0.1.0"

// OpenAPI is openapi.yaml, served at /openapi.yaml and used by tests to
// validate every response.
//
//go:embed openapi.yaml
var OpenAPI []byte
