// Package render loads a page in headless Chromium and returns its DOM as
// HTML, for pages whose text only their scripts produce.
//
// The browser reaches the network only through a guarded proxy of package
// fetch: it is started with that proxy for everything (--proxy-server,
// with loopback not bypassed, and a host resolver that resolves no name,
// so nothing can leave around it), and each page runs in a browser context
// of its own whose proxy counts the page's bytes against its cap. Every
// request of the page — the document, each subresource and redirect,
// WebSockets, service workers — is checked by the same connect-time guard
// as a fetch. Downloads are denied. A page has a deadline, a JavaScript
// heap limit and a limit on its renderer process's resident memory; a page
// past any is closed, and the browser keeps serving the others. One browser is started and kept warm; a pool bounds the
// pages rendered at once.
package render

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/fetch"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultExecPath    = "/usr/bin/chromium"
	DefaultPages       = 2
	DefaultPageTimeout = 15 * time.Second
	DefaultMaxBytes    = 20 << 20
	DefaultHeapBytes   = 256 << 20
	DefaultMemoryBytes = 1 << 30
)

// settle bounds the wait, after the load event, for a page's scripts to
// stop changing its text: it is read every settleStep until two readings
// agree, for at most settleMax.
const (
	settleStep = 50 * time.Millisecond
	settleMax  = 1500 * time.Millisecond
)

// Causes of a RENDER_FAILED error (details.cause).
const (
	CauseTimeout    = "timeout"
	CauseCrashed    = "crashed"
	CauseNavigation = "navigation"
	CauseBrowser    = "browser"
)

// Config sets a Renderer's limits. Zero fields take the Default* values.
type Config struct {
	// ExecPath is the Chromium binary.
	ExecPath string
	// Pages is how many pages render at once; more wait for a free one.
	Pages int
	// PageTimeout bounds one page: loading, its scripts and reading its DOM.
	PageTimeout time.Duration
	// MaxBytes caps what one page may load through the proxy, every
	// request together; past it the page fails with TOO_LARGE.
	MaxBytes int64
	// HeapBytes is the JavaScript heap limit of a page; a page that
	// allocates past it is stopped (its renderer crashes) and fails.
	HeapBytes int64
	// MemoryBytes bounds the resident memory of a page's renderer
	// process, all of it (the heap, the DOM, images, canvas, ArrayBuffers);
	// a renderer past it is killed and its page fails.
	MemoryBytes int64
	// Fetcher is the guarded client whose proxy the browser uses; its
	// Config.AllowLoopback applies to the browser too.
	Fetcher *fetch.Client
	// Logger receives the browser's start and restarts.
	Logger *slog.Logger
}

// Page is a rendered page.
type Page struct {
	// HTML is the page's DOM after its scripts ran, serialized.
	HTML []byte
	// URL is the page's address after redirects.
	URL string
}

// Renderer renders pages in one headless Chromium. It is safe for
// concurrent use.
type Renderer struct {
	cfg  Config
	pool chan struct{}

	mu      sync.Mutex
	browser context.Context // nil until started, and after the browser died
	stop    func()
	version string
	dataDir string
	proxy   *fetch.Proxy
}

// New starts the browser with cfg's limits, so that the first page finds
// it warm. It fails when Chromium cannot be started.
func New(cfg Config) (*Renderer, error) {
	if cfg.ExecPath == "" {
		cfg.ExecPath = DefaultExecPath
	}
	if cfg.Pages <= 0 {
		cfg.Pages = DefaultPages
	}
	if cfg.PageTimeout <= 0 {
		cfg.PageTimeout = DefaultPageTimeout
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.HeapBytes <= 0 {
		cfg.HeapBytes = DefaultHeapBytes
	}
	if cfg.MemoryBytes <= 0 {
		cfg.MemoryBytes = DefaultMemoryBytes
	}
	if cfg.Fetcher == nil {
		return nil, errors.New("render: a Fetcher is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Renderer{cfg: cfg, pool: make(chan struct{}, cfg.Pages)}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.start(); err != nil {
		return nil, err
	}
	return r, nil
}

// Version is the browser's product and version, such as
// "Chrome/156.0.8078.108".
func (r *Renderer) Version() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

// Close stops the browser.
func (r *Renderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shutdown()
	return nil
}

// start launches the browser; r.mu is held.
func (r *Renderer) start() (context.Context, error) {
	proxy, err := r.cfg.Fetcher.Proxy(fetch.ProxyLimits{})
	if err != nil {
		return nil, fmt.Errorf("render: start the browser's proxy: %w", err)
	}
	dir, err := os.MkdirTemp("", "digestd-chromium-")
	if err != nil {
		proxy.Close()
		return nil, fmt.Errorf("render: profile directory: %w", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(r.cfg.ExecPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("mute-audio", true),
		// Everything through the guard: loopback is not bypassed, the
		// browser resolves no name itself, and WebRTC sends no UDP.
		chromedp.ProxyServer("http://" + proxy.Addr()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("js-flags", fmt.Sprintf("--max-old-space-size=%d", max(16, r.cfg.HeapBytes>>20))),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc, chromedp.WithErrorf(r.logf), chromedp.WithLogf(r.logf))
	stop := func() {
		cancelCtx()
		cancelAlloc()
		proxy.Close()
		os.RemoveAll(dir)
	}
	v, err := chromedp.CallBrowser(ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		stop()
		return nil, fault.Wrap(fault.RenderFailed, "the browser could not be started", err).With("cause", CauseBrowser)
	}
	if p := chromedp.FromContext(ctx).Browser.Process(); p != nil {
		go r.watchMemory(ctx, p.Pid, r.cfg.MemoryBytes)
	}
	r.browser, r.stop, r.dataDir, r.proxy = ctx, stop, dir, proxy
	r.version = strings.Replace(v.Product, "HeadlessChrome", "Chrome", 1)
	r.cfg.Logger.Info("browser started", "browser", r.version)
	return ctx, nil
}

// shutdown stops the browser; r.mu is held.
func (r *Renderer) shutdown() {
	if r.stop != nil {
		r.stop()
	}
	r.browser, r.stop = nil, nil
}

// running returns the browser's context, starting the browser again when it
// died.
func (r *Renderer) running() (context.Context, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.browser != nil && r.browser.Err() == nil {
		return r.browser, nil
	}
	r.shutdown()
	r.cfg.Logger.Warn("browser not running; starting it again")
	return r.start()
}

// Render loads rawURL in a fresh browser context and returns its DOM. It
// fails with FETCH_BLOCKED when the guard refused the page itself,
// TOO_LARGE past Config.MaxBytes, RENDER_FAILED (details.cause timeout,
// crashed, navigation or browser) otherwise, and UNAVAILABLE when ctx ends
// while the page waits for a free slot in the pool.
func (r *Renderer) Render(ctx context.Context, rawURL string) (*Page, error) {
	select {
	case r.pool <- struct{}{}:
	case <-ctx.Done():
		return nil, fault.Wrap(fault.Unavailable, "no browser page came free in time", ctx.Err())
	}
	defer func() { <-r.pool }()
	b, err := r.running()
	if err != nil {
		return nil, err
	}
	proxy, err := r.cfg.Fetcher.Proxy(fetch.ProxyLimits{MaxBytes: r.cfg.MaxBytes})
	if err != nil {
		return nil, fault.Wrap(fault.RenderFailed, "the page's proxy could not be started", err).With("cause", CauseBrowser)
	}
	defer proxy.Close()

	tab, closeTab := chromedp.NewContext(b, chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
		p.ProxyServer = "http://" + proxy.Addr()
		p.ProxyBypassList = "<-loopback>"
	}))
	defer closeTab()
	crashed := make(chan struct{})
	var once sync.Once
	// The deadline runs from the page's own context so that it closes the
	// tab; the caller's ctx ends it too.
	pageCtx, cancel := context.WithTimeout(tab, r.cfg.PageTimeout)
	defer cancel()
	stopCaller := context.AfterFunc(ctx, cancel)
	defer stopCaller()
	if err := chromedp.Listen(pageCtx, func(ev any) {
		if _, ok := ev.(*inspector.EventTargetCrashed); ok {
			once.Do(func() { close(crashed) })
			cancel()
		}
	}); err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	bc := chromedp.FromContext(pageCtx).BrowserContextID
	if _, err := chromedp.CallBrowser(pageCtx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: bc,
	}); err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	if err := chromedp.Do(pageCtx, chromedp.Navigate(rawURL)); err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	if err := settleText(pageCtx); err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	html, err := chromedp.Run(pageCtx, chromedp.Evaluate[string](`document.documentElement ? document.documentElement.outerHTML : ""`))
	if err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	loc, err := chromedp.Run(pageCtx, chromedp.Location())
	if err != nil {
		return nil, r.failure(pageCtx, ctx, proxy, crashed, err)
	}
	if proxy.OverLimit() || int64(len(html)) > r.cfg.MaxBytes {
		return nil, tooLarge(r.cfg.MaxBytes)
	}
	if !strings.HasPrefix(loc, "http://") && !strings.HasPrefix(loc, "https://") {
		// The browser shows its own error page (chrome-error://) for a
		// document it could not load, a redirect the guard refused among
		// them.
		return nil, r.failure(pageCtx, ctx, proxy, crashed, &chromedp.LoadError{ErrorText: "the browser showed an error page for " + loc})
	}
	return &Page{HTML: []byte(html), URL: loc}, nil
}

// settleText waits until two readings of the page's text length, settleStep
// apart, agree, for at most settleMax: scripts that fill the page after its
// load event have then done so.
func settleText(ctx context.Context) error {
	deadline := time.Now().Add(settleMax)
	last := -1
	for time.Now().Before(deadline) {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.body ? document.body.innerText.length : 0`))
		if err != nil {
			return err
		}
		if n == last && n > 0 {
			return nil
		}
		last = n
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settleStep):
		}
	}
	return nil
}

// failure classifies why a page did not render.
func (r *Renderer) failure(pageCtx, caller context.Context, proxy *fetch.Proxy, crashed chan struct{}, err error) error {
	select {
	case <-crashed:
		return fault.Wrap(fault.RenderFailed, "the page's renderer crashed (most often past its memory limit)", err).
			With("cause", CauseCrashed).With("limit_heap_bytes", r.cfg.HeapBytes)
	default:
	}
	switch {
	case proxy.OverLimit():
		return tooLarge(r.cfg.MaxBytes)
	case caller.Err() != nil:
		return fault.Wrap(fault.RenderFailed, "the request ended before the page rendered", err).With("cause", CauseTimeout)
	case errors.Is(pageCtx.Err(), context.DeadlineExceeded):
		return fault.Wrap(fault.RenderFailed, "the page did not finish rendering in time", err).
			With("cause", CauseTimeout).With("limit_seconds", r.cfg.PageTimeout.Seconds())
	}
	var le *chromedp.LoadError
	if errors.As(err, &le) {
		if proxy.Refused() > 0 {
			return fault.Wrap(fault.FetchBlocked, "the page leads to an address this service may not reach", err)
		}
		return fault.Wrap(fault.RenderFailed, "the browser could not load the page", err).With("cause", CauseNavigation)
	}
	if b := chromedp.FromContext(pageCtx); b == nil || r.browserDead() {
		return fault.Wrap(fault.RenderFailed, "the browser stopped", err).With("cause", CauseBrowser)
	}
	return fault.Wrap(fault.RenderFailed, "the page could not be rendered", err).With("cause", CauseNavigation)
}

// Status reports whether the browser is running, its version, and the
// pages being rendered now out of Config.Pages. A browser that died is
// started again by the next page.
func (r *Renderer) Status() (running bool, version string, inUse, capacity int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.browser != nil && r.browser.Err() == nil, r.version, len(r.pool), cap(r.pool)
}

func (r *Renderer) browserDead() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.browser == nil || r.browser.Err() != nil
}

// logf passes the CDP library's messages (a closed tab's late replies, most
// often) to the logger at debug level.
func (r *Renderer) logf(format string, args ...any) {
	r.cfg.Logger.Debug("browser: " + fmt.Sprintf(format, args...))
}

func tooLarge(limit int64) error {
	return fault.E(fault.TooLarge, "the page loads more than the renderer's byte limit").With("limit_bytes", limit)
}
