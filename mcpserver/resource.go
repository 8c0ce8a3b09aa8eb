package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
)

// archiveURIPrefix starts the URI of every archived text.
const archiveURIPrefix = "digestd://archive/"

// ArchiveTemplate is the URI template of archived texts. It uses reserved
// expansion ({+hash}) so that the hash keeps its colon:
// digestd://archive/sha256:<64 hex>. A percent-encoded colon is accepted too.
const ArchiveTemplate = archiveURIPrefix + "{+hash}"

// ArchiveURI returns the resource URI of the archived text with hash
// (sha256:<64 hex>).
func ArchiveURI(hash string) string { return archiveURIPrefix + hash }

func archiveTemplate() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{
		Name:        "archived-text",
		Title:       "Archived canonical text",
		URITemplate: ArchiveTemplate,
		MIMEType:    "text/plain",
		Description: "The canonical text of a digested source, by its hash (sha256:<64 hex>, the digest's source_text_hash). " +
			"Locators index it in Unicode code points; a PDF's pages are separated by U+000C.",
	}
}

// archiveLink is a resource link to an archived text, for tool results.
func archiveLink(hash, title string) mcp.Content {
	return &mcp.ResourceLink{URI: ArchiveURI(hash), Name: hash, Title: title, MIMEType: "text/plain",
		Description: "The archived canonical text the locators index."}
}

// readArchive serves resources/read for an archived text. Errors carry the
// error code and the client-safe message only.
func (t *tools) readArchive(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	raw, ok := strings.CutPrefix(uri, archiveURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if s, err := url.PathUnescape(raw); err == nil {
		raw = s
	}
	d, err := archive.ParseHash(raw)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := t.pipe.Blob(ctx, d)
	if err == nil && !utf8.Valid(b) {
		err = fault.E(fault.UnsupportedContentType, "the archived blob is not text")
	}
	if err != nil {
		fe := fault.As(err)
		if fe.Code == fault.NotFound {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if status, _, _, _ := wire.Classify(fe.Code); status >= 500 {
			t.log.Error("resource read failed", "uri", uri, "code", fe.Code, "err", err)
		}
		return nil, fmt.Errorf("%s: %s", fe.Code, fe.Msg)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: ArchiveURI(d.String()), MIMEType: "text/plain", Text: string(b)}}}, nil
}
