package ingest

import (
	"context"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/render"
)

// The values of Source.Render.
const (
	// RenderNever reads the page as fetched (the default).
	RenderNever = "never"
	// RenderAuto renders the page when the fetched one is a shell that its
	// scripts fill (verdict.Verdict.Shell, which every JS_REQUIRED verdict
	// is), on a server with a renderer; elsewhere it reads the page as
	// fetched.
	RenderAuto = "auto"
	// RenderAlways renders every HTML page; without a renderer it is
	// FEATURE_DISABLED.
	RenderAlways = "always"
)

// RenderModes are the values Source.Render takes, the default first.
var RenderModes = []string{RenderNever, RenderAuto, RenderAlways}

// PageRenderer renders a URL's page in a browser and returns its DOM
// (package render's Renderer).
type PageRenderer interface {
	Render(ctx context.Context, rawURL string) (*render.Page, error)
	// Version names the browser and its version, for the record.
	Version() string
}

// checkRender refuses a render mode that is not one of RenderModes, and
// "always" on a server without a renderer.
func (in *Ingester) checkRender(mode string) error {
	switch mode {
	case "", RenderNever, RenderAuto:
		return nil
	case RenderAlways:
		if in.Renderer == nil {
			return fault.E(fault.FeatureDisabled, "rendering is not enabled here: start digestd serve with --renderer chromium; digestd digest and extract render with --render and their default --renderer chromium")
		}
		return nil
	}
	return fault.E(fault.ValidationError, "source.render: must be never, auto or always")
}

// rendered renders pageURL (the page a fetch ended at) and extracts its
// DOM as an HTML page. rec keeps what the fetch learned (the requested
// URL, its status); the record says it was rendered and by which browser.
func (in *Ingester) rendered(ctx context.Context, pageURL string, rec Record, explain bool) (*Document, error) {
	p, err := in.Renderer.Render(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	const rendered = "text/html; charset=utf-8"
	rec.FinalURL, rec.ContentType, rec.Rendered, rec.Browser = p.URL, rendered, true, in.Renderer.Version()
	rec.FetchedAt = time.Now().UTC()
	if in.Now != nil {
		rec.FetchedAt = in.Now().UTC()
	}
	return in.html(p.HTML, rendered, p.URL, rec, explain)
}
