package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// markdownURIPrefix starts the URI of every archived text rendered as
// Markdown.
const markdownURIPrefix = "digestd://markdown/"

// MarkdownTemplate is the URI template of archived texts rendered as
// Markdown from their text and structure, as GET
// /v1/archive/{hash}?format=markdown answers them.
const MarkdownTemplate = markdownURIPrefix + "{+hash}"

func markdownTemplate() *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{
		Name:        "archived-markdown",
		Title:       "Archived text as Markdown",
		URITemplate: MarkdownTemplate,
		MIMEType:    "text/markdown",
		Description: "The canonical text of a digested source rendered as Markdown (CommonMark with GFM tables) from its text and structure: " +
			"headings, lists, tables, links and emphasis. Every character of its text is a character of the canonical text.",
	}
}

// readMarkdown serves resources/read for an archived text as Markdown,
// with readArchive's errors.
func (t *tools) readMarkdown(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	raw, ok := strings.CutPrefix(uri, markdownURIPrefix)
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
	md, err := t.pipe.Markdown(ctx, d)
	if err != nil {
		return nil, t.resourceFailure(uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: markdownURIPrefix + d.String(), MIMEType: "text/markdown", Text: md.Markdown}}}, nil
}

// resourceFailure is the JSON-RPC error of a failed resources/read of uri.
func (t *tools) resourceFailure(uri string, err error) error {
	fe := fault.As(err)
	if fe.Code == fault.NotFound {
		return mcp.ResourceNotFoundError(uri)
	}
	rerr := resourceError(fe)
	if rerr.Code == jsonrpc.CodeInternalError {
		t.log.Error("resource read failed", "uri", uri, "code", fe.Code, "err", err)
	}
	return rerr
}

// archiveLink is a resource link to an archived text, for tool results.
func archiveLink(hash, title string) mcp.Content {
	return &mcp.ResourceLink{URI: ArchiveURI(hash), Name: hash, Title: title, MIMEType: "text/plain",
		Description: "The archived canonical text the locators index."}
}

// readArchive serves resources/read for an archived text. A text that is
// not archived is the SDK's resource-not-found error (invalid params,
// -32602, as the MCP specification has it since SEP-2164); any other failure
// is a JSON-RPC error whose code says whose it is (resourceError).
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
		return nil, t.resourceFailure(uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: ArchiveURI(d.String()), MIMEType: "text/plain", Text: string(b)}}}, nil
}

// resourceError is the JSON-RPC error of a failed resources/read: invalid
// params (-32602) when the request is at fault (the status of fe's code is
// 4xx: a blob that is not text), an internal error (-32603) when the server
// is (5xx: a corrupt blob, the archive unavailable). Its message is the
// error code and the client-safe message, and its data the response-v2 error
// envelope, as a tool error carries it.
func resourceError(fe *fault.Error) *jsonrpc.Error {
	code := int64(jsonrpc.CodeInvalidParams)
	if status, _, _, _ := wire.Classify(fe.Code); status >= 500 {
		code = jsonrpc.CodeInternalError
	}
	env, _ := wire.Failure(fe, wire.Meta{}, wire.NewRequestID(), time.Now())
	data, _ := json.Marshal(env)
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf("%s: %s", fe.Code, fe.Msg), Data: data}
}
