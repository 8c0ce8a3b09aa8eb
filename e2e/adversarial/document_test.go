package adversarial

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
)

// documentOutcomes are the answers a hostile office document, EPUB,
// Markdown or CSV file may get: text, or a typed refusal. Any 5xx, an
// untyped error or a crashed server fails.
var documentOutcomes = want{"200", "422 DOCUMENT_UNREADABLE", "422 DOCUMENT_ENCRYPTED", "413 TOO_LARGE", "422 UNSUPPORTED_CONTENT_TYPE", "422 NO_EXTRACTABLE_TEXT"}

// documentWant is each hostile container's one right answer.
var documentWant = map[string]string{
	"zip_bomb.docx":        "413 TOO_LARGE",
	"bare_markup.docx":     "413 TOO_LARGE",
	"deep_xml.docx":        "413 TOO_LARGE",
	"billion_laughs.docx":  "422 DOCUMENT_UNREADABLE",
	"external_entity.docx": "422 DOCUMENT_UNREADABLE",
	"truncated.docx":       "422 DOCUMENT_UNREADABLE",
	"encrypted.docx":       "422 DOCUMENT_ENCRYPTED",
	"encrypted.odt":        "422 DOCUMENT_ENCRYPTED",
	"encrypted.epub":       "422 DOCUMENT_ENCRYPTED",
	"repeated_rows.ods":    "200",
	"many_entries.docx":    "413 TOO_LARGE",
	"broken_workbook.xlsx": "422 DOCUMENT_UNREADABLE",
}

// documentSubmissions are the ways of sending a document: a raw body of
// its kind's media type, base64 JSON with its file name, a multipart
// upload.
var documentSubmissions = []struct {
	name string
	make func(name string, raw []byte) (path, contentType string, body []byte)
}{
	{"raw", func(name string, raw []byte) (string, string, []byte) {
		mt := ""
		for _, m := range format.MediaTypes() {
			if format.KindOfMediaType(m) == format.KindOfName(name) {
				mt = m
				break
			}
		}
		return "/v1/digest?query=what+is+here&name=" + name, mt, raw
	}},
	{"json", func(name string, raw []byte) (string, string, []byte) {
		b, _ := json.Marshal(map[string]any{"query": "what is here", "source": map[string]string{"file_base64": base64.StdEncoding.EncodeToString(raw), "file_name": name}})
		return "/v1/digest", "application/json", b
	}},
	{"multipart", func(name string, raw []byte) (string, string, []byte) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("query", "what is here")
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(raw)
		mw.Close()
		return "/v1/digest", mw.FormDataContentType(), b.Bytes()
	}},
}

// TestHostileDocuments sends every hostile container (and the dev set's
// valid documents) by every submission, four at once: each gets its typed
// answer within the worker deadline, the server never restarts, and its
// resident set stays under rssBound (conversion runs in worker processes).
func TestHostileDocuments(t *testing.T) {
	docs := doctexttest.Hostile()
	valid, err := filepath.Glob(filepath.Join(repoRoot(), "ingest", "doctext", "testdata", "devset", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range valid {
		if strings.HasSuffix(f, ".jsonl") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs["valid_"+filepath.Base(f)] = b
	}
	s := startServer(t)
	ctx, stop := context.WithCancel(context.Background())
	go s.sampleRSS(ctx)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	type job struct{ name, sub string }
	ch := make(chan job)
	var mu sync.Mutex
	outcomes := map[string]map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				var path, ct string
				var body []byte
				for _, sub := range documentSubmissions {
					if sub.name == j.sub {
						path, ct, body = sub.make(j.name, docs[j.name])
					}
				}
				start := time.Now()
				r, err := s.try("POST", path, ct, body)
				el := time.Since(start)
				o := "transport error: " + fmt.Sprint(err)
				if err == nil {
					o = r.outcome()
				}
				if el > pdfDeadline+10*time.Second {
					t.Errorf("%s (%s): answered after %v, want within the %v deadline plus 10s", j.name, j.sub, el, pdfDeadline)
				}
				mu.Lock()
				if outcomes[j.name] == nil {
					outcomes[j.name] = map[string]int{}
				}
				outcomes[j.name][o]++
				mu.Unlock()
			}
		}()
	}
	for _, sub := range documentSubmissions {
		for _, n := range names {
			ch <- job{n, sub.name}
		}
	}
	close(ch)
	wg.Wait()
	stop()
	for _, n := range names {
		got := outcomes[n]
		w, ok := documentWant[n]
		if strings.HasPrefix(n, "valid_") {
			w, ok = "200", true
		}
		for o, count := range got {
			if !documentOutcomes.has(o) {
				t.Errorf("%s: got %q, want one of %q", n, o, documentOutcomes)
			}
			if ok && o != w {
				t.Errorf("%s: got %q %d times, want %q", n, o, count, w)
			}
		}
		t.Logf("%-28s %v", n, got)
	}
	s.checkHealthy(t)
}
