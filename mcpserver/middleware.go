package mcpserver

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/fault"
)

// maxInputErrorChars bounds the schema-validation message passed on to the
// client, which may quote what the client sent.
const maxInputErrorChars = 500

// refuseBadUTF8 answers a tools/call whose arguments are not UTF-8 with the
// INVALID_FORMAT envelope of wire.CheckUTF8, the HTTP API's rule, before the
// SDK decodes them (which would put U+FFFD where the bad bytes were).
func refuseBadUTF8(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		err := wire.CheckUTF8(p.Arguments)
		if err == nil {
			return next(ctx, method, req)
		}
		env, _ := wire.Failure(err, wire.Meta{ToolID: p.Name}, wire.NewRequestID(), time.Now())
		return &mcp.CallToolResult{IsError: true, StructuredContent: env, Content: []mcp.Content{&mcp.TextContent{Text: renderError(env)}}}, nil
	}
}

// envelopeInputErrors gives the tool errors the SDK raises itself (arguments
// that fail the input schema, before any tool handler runs) the same
// VALIDATION_ERROR envelope as every other failure. A tool error that
// already carries structured content came from a handler and is left alone.
func envelopeInputErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		r, ok := res.(*mcp.CallToolResult)
		if !ok || !r.IsError || r.StructuredContent != nil {
			return res, err
		}
		var parts []string
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
		msg := strings.Join(parts, "; ")
		if utf8.RuneCountInString(msg) > maxInputErrorChars {
			msg = cutRunes(msg, maxInputErrorChars) + "…"
		}
		if msg == "" {
			msg = "the arguments do not match the tool's input schema"
		}
		env, _ := wire.Failure(fault.E(fault.ValidationError, msg), wire.Meta{}, wire.NewRequestID(), time.Now())
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			env.Meta.ToolID = p.Name
		}
		r.StructuredContent = env
		r.Content = []mcp.Content{&mcp.TextContent{Text: renderError(env)}}
		return r, nil
	}
}
