package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// warmTexts is how many distinct texts the cached and archive kinds use.
const warmTexts = 8

// workload builds the request of each kind. It is read-only after
// newWorkload, so send is safe for concurrent use.
type workload struct {
	base     string
	query    string
	seed     uint64
	cached   [][]byte // JSON bodies whose digests are cached
	archives []string // archive hashes of the warm texts
	pdfs     [][]byte
	hostile  []hostileRequest
}

// hostileRequest is one input the server must refuse with a 4xx.
type hostileRequest struct {
	method, path, contentType string
	body                      []byte
}

// newWorkload digests the warm texts once (so later requests for them are
// cache hits and their archive hashes are known) and prepares the hostile
// inputs.
func newWorkload(ctx context.Context, client *http.Client, base string, cfg Config) (*workload, error) {
	w := &workload{base: base, query: cfg.Query, seed: cfg.Seed, pdfs: cfg.PDFs}
	for i := range warmTexts {
		body, err := json.Marshal(map[string]any{"query": cfg.Query, "source": map[string]string{"text": document(cfg.Seed, uint64(i), 8_000)}})
		if err != nil {
			return nil, err
		}
		status, resp, err := do(ctx, client, "POST", base+"/v1/digest", "application/json", body)
		if err != nil {
			return nil, fmt.Errorf("warm-up digest %d: %w", i, err)
		}
		if status != http.StatusOK {
			return nil, fmt.Errorf("warm-up digest %d: status %d: %.300s", i, status, resp)
		}
		h := archiveHashOf(resp)
		if h == "" {
			return nil, fmt.Errorf("warm-up digest %d: no data.source.archive_hash in the answer", i)
		}
		w.cached = append(w.cached, body)
		w.archives = append(w.archives, h)
	}
	w.hostile = builtinHostile()
	for _, b := range cfg.HostileFiles {
		ct := "text/html"
		if strings.HasPrefix(string(b), "%PDF-") {
			ct = "application/pdf"
		}
		w.hostile = append(w.hostile, hostileRequest{"POST", "/v1/digest?query=q", ct, b})
	}
	return w, nil
}

// send issues request i of kind and returns the response status.
func (w *workload) send(ctx context.Context, client *http.Client, kind string, i int) (int, bool, error) {
	var (
		method      = "POST"
		path        = "/v1/digest"
		contentType string
		body        []byte
		q                  = "?query=" + strings.ReplaceAll(w.query, " ", "+")
		seq         uint64 = uint64(i) + 1<<20
	)
	switch kind {
	case KindCached:
		contentType, body = "application/json", w.cached[i%len(w.cached)]
	case KindArchive:
		method, path = "GET", "/v1/archive/"+w.archives[i%len(w.archives)]
	case KindHTML:
		path, contentType, body = path+q, "text/html; charset=utf-8", []byte(htmlPage(w.seed, seq))
	case KindPDF:
		path, contentType = path+q, "application/pdf"
		if len(w.pdfs) > 0 {
			body = w.pdfs[i%len(w.pdfs)]
		} else {
			body = pdfDocument(w.seed, seq)
		}
	case KindMCP:
		// A fresh 50,000-character text each time: a digest built, not cached.
		path, contentType, body = "/mcp", "application/json", mcpCall(i, w.query, document(w.seed, seq, 50_000))
	case KindHostile:
		h := w.hostile[i%len(w.hostile)]
		method, path, contentType, body = h.method, h.path, h.contentType, h.body
	default:
		return 0, false, fmt.Errorf("unknown kind %q", kind)
	}
	return doRetry(ctx, client, method, w.base+path, contentType, body)
}

// words is the vocabulary of generated documents.
var words = strings.Fields(`the of transmission infection children mother placental expression study
risk virus cells protein analysis results patients clinical trial immune response samples data
increase decrease significant method model observed reported population health treatment vaccine
findings cohort exposure outcome evidence measured associated higher lower rate effect`)

// sentencesOf returns n sentences of generated prose for (seed, doc).
func sentencesOf(seed, doc uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, doc))
	out := make([]string, n)
	for s := range out {
		k := 8 + r.IntN(14)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = words[r.IntN(len(words))]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		out[s] = strings.Join(ws, " ") + "."
	}
	return out
}

// document is about chars characters of paragraphs, headed by its number
// so that every document is distinct.
func document(seed, doc uint64, chars int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Report %d.\n", doc)
	for b.Len() < chars {
		b.WriteString(strings.Join(sentencesOf(seed, doc<<16|uint64(b.Len()), 5), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// htmlPage is a distinct article page of about 20 KB with navigation and
// footer furniture around it.
func htmlPage(seed, doc uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=utf-8><title>Report %d</title></head><body>", doc)
	b.WriteString(`<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li></ul></nav><main><article>`)
	fmt.Fprintf(&b, "<h1>Findings of report %d</h1>", doc)
	for p := uint64(0); b.Len() < 20_000; p++ {
		fmt.Fprintf(&b, "<p>%s</p>", strings.Join(sentencesOf(seed, doc<<16|p, 4), " "))
	}
	b.WriteString(`</article></main><footer><p>Copyright. All rights reserved.</p></footer></body></html>`)
	return b.String()
}

// pdfDocument is a distinct two-page PDF of generated prose.
func pdfDocument(seed, doc uint64) []byte {
	var pages []pdfgen.Page
	for p := range uint64(2) {
		lines := sentencesOf(seed, doc<<8|p, 30)
		for i, l := range lines {
			if len(l) > 90 {
				lines[i] = l[:90]
			}
		}
		if p == 0 {
			lines[0] = fmt.Sprintf("Report %d", doc)
		}
		pages = append(pages, pdfgen.Page{Texts: pdfgen.Paragraph(72, 720, 10, 14, lines...)})
	}
	return pdfgen.Build(fmt.Sprintf("Report %d", doc), pages)
}

// builtinHostile returns inputs that must each be refused quickly with a
// 4xx: none of them makes the server fetch, wait or parse for long.
func builtinHostile() []hostileRequest {
	valid := pdfDocument(7, 7)
	deepHTML := strings.Repeat("<div><span>", 20_000) // deep and without text
	j := func(s string) hostileRequest {
		return hostileRequest{"POST", "/v1/digest", "application/json", []byte(s)}
	}
	return []hostileRequest{
		j(`{"query":"a","query":"b","source":{"text":"duplicate keys"}}`),
		j(strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000)),
		j(`{"query":5,"source":"wrong types"}`),
		j(`{"query":"q","source":{"te`),
		j(`{"query":"q","source":{"url":"http://127.0.0.1:1/"}}`),
		j(`{"query":"q","source":{"url":"http://[::ffff:169.254.169.254]/latest/meta-data/"}}`),
		j(`{"query":"q","source":{"url":"http://0x7f000001:1/"}}`),
		j(`{"query":"q","source":{"url":"file:///etc/passwd"}}`),
		j(`{"query":"q","source":{"pdf_base64":"!!not base64"}}`),
		j(`{"query":"q","source":{"archive":"../../etc/passwd"}}`),
		{"GET", "/v1/archive/..%2F..%2Fetc%2Fpasswd", "", nil},
		{"GET", "/v1/archive/" + strings.Repeat("0", 63) + "%00", "", nil},
		{"GET", "/v1/archive/sha256:" + strings.Repeat("0", 64), "", nil},
		{"POST", "/v1/digest?query=q", "text/plain", []byte("invalid \xff\xfe UTF-8")},
		{"POST", "/v1/digest?query=q", "application/pdf", valid[:len(valid)/2]},
		{"POST", "/v1/digest?query=q", "application/pdf", []byte("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF")},
		{"POST", "/v1/digest?query=q", "image/png", []byte("\x89PNG\r\n")},
		{"POST", "/v1/digest?query=q", "text/html", []byte(deepHTML)},
		j(`{"query":"q","source":{"pdf_base64":"` + base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 not really")) + `"}}`),
	}
}
