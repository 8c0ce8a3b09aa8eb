package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/archive/s3store"
	"github.com/digestd/digestd/archive/s3store/s3test"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/payloadtest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// newDiskServer returns a server over an on-disk archive in dir.
func newDiskServer(t *testing.T, dir string) (*fsstore.Store, *api.Server) {
	t.Helper()
	store, err := fsstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store}
	return store, api.New(pipe, api.Config{OpenAPI: digestd.OpenAPI, MaxBodyBytes: 1 << 20, Version: digestd.Version,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

type healthData struct {
	ErrorCode       string `json:"error_code"`
	Retryable       bool   `json:"retryable"`
	Status          string `json:"status"`
	HealthyServices int    `json:"healthy_services"`
	TotalServices   int    `json:"total_services"`
	Components      map[string]struct {
		Status  string         `json:"status"`
		Details map[string]any `json:"details"`
	} `json:"components"`
}

func health(t *testing.T, c *contract, h http.Handler) (int, envelope, healthData) {
	t.Helper()
	resp, body := c.do(t, h, "GET", "/v1/health", "", nil)
	env := decodeEnvelope(t, body)
	var hd healthData
	if err := json.Unmarshal(env.Data, &hd); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, env, hd
}

// A lost archive directory is 503 UNAVAILABLE for a new digest (not 404
// "check the hash"), and health says unhealthy: success false, UNAVAILABLE,
// with the component statuses.
func TestLostArchiveDirectory(t *testing.T) {
	dir := t.TempDir() + "/archive"
	_, srv := newDiskServer(t, dir)
	h := srv.Handler()
	c := loadContract(t)
	status, env, hd := health(t, c, h)
	if status != 200 || !env.Success || hd.Status != "healthy" || hd.TotalServices != len(hd.Components) || hd.HealthyServices != hd.TotalServices {
		t.Fatalf("fresh archive: health %d %+v", status, hd)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	resp, body := c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte("Tides rise twice a day."))
	if ed := errorOf(t, body); resp.StatusCode != 503 || ed.ErrorCode != "UNAVAILABLE" {
		t.Errorf("digest into a lost archive: %d %s", resp.StatusCode, body)
	}
	status, env, hd = health(t, c, h)
	if status != 503 || env.Success || env.Error == nil || hd.ErrorCode != "UNAVAILABLE" || hd.Status != "unhealthy" ||
		hd.Components["archive"].Status != "unhealthy" || hd.HealthyServices != hd.TotalServices-1 || hd.TotalServices != len(hd.Components) {
		t.Errorf("health of a lost archive: %d %+v", status, hd)
	}
}

// A corrupt blob is ARCHIVE_CORRUPT (not retryable); posting the same text
// again repairs it, and health reports the corruption it saw.
func TestCorruptBlobIsRepairedByAPut(t *testing.T) {
	store, srv := newDiskServer(t, t.TempDir())
	h := srv.Handler()
	c := loadContract(t)
	text := "Tides rise twice a day. The moon pulls the sea towards it."
	_, body := c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte(text))
	var dd wire.DigestData
	json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
	d, err := archive.ParseHash(dd.Source.ArchiveHash.String())
	if err != nil {
		t.Fatal(err)
	}
	// Flip the text's bytes in place, keeping the size.
	path := store.BlobPath(d)
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, []byte(strings.ToUpper(text)), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, body := c.do(t, h, "GET", "/v1/archive/"+d.String()+"/slice?start=0&end=5", "", nil)
	ed := errorOf(t, body)
	if resp.StatusCode != 500 || ed.ErrorCode != "ARCHIVE_CORRUPT" || ed.Retryable {
		t.Fatalf("a corrupt text: %d %s", resp.StatusCode, body)
	}
	_, _, hd := health(t, c, h)
	if hd.Status != "degraded" || hd.Components["archive"].Details["corrupt_blobs_unrepaired"] != float64(1) {
		t.Errorf("health after a corrupt read: %+v", hd)
	}
	// The same text again (a digest cache hit) repairs the blob.
	c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte(text))
	resp, body = c.do(t, h, "GET", "/v1/archive/"+d.String()+"/slice?start=0&end=5", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"text":"Tides"`) {
		t.Errorf("after a put of the same text: %d %s", resp.StatusCode, body)
	}
	_, _, hd = health(t, c, h)
	if hd.Status != "healthy" || hd.Components["archive"].Details["corrupt_blobs_seen"] != float64(1) || hd.Components["archive"].Details["corrupt_blobs_unrepaired"] != float64(0) {
		t.Errorf("health after the repair: %+v", hd)
	}
}

// /v1/verify is strict: every payload field is required, and every number
// that can be derived is checked.
func TestVerifyIsStrict(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, body := c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte("Tides rise twice a day. The moon pulls the sea towards it. Spring tides follow the full moon."))
	var dd wire.DigestData
	json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
	payload := func(mutate func(m map[string]any)) []byte {
		b, _ := json.Marshal(dd.Digest)
		var m map[string]any
		json.Unmarshal(b, &m)
		mutate(m)
		out, _ := json.Marshal(map[string]any{"digest": m})
		return out
	}
	// Missing fields are named, all of them.
	resp, body := c.do(t, h, "POST", "/v1/verify", "application/json", payload(func(m map[string]any) {
		for _, f := range []string{"summary", "original_chars", "digest_chars", "compression_ratio"} {
			delete(m, f)
		}
	}))
	ed := errorOf(t, body)
	if resp.StatusCode != 400 || ed.ErrorCode != "MISSING_REQUIRED" || fmt.Sprint(ed.Details["missing_fields"]) != "[summary original_chars digest_chars compression_ratio]" {
		t.Errorf("missing fields: %d %s", resp.StatusCode, body)
	}
	for name, mutate := range map[string]func(m map[string]any){
		"original_chars": func(m map[string]any) {
			m["original_chars"] = m["original_chars"].(float64) * 2
			m["compression_ratio"] = m["digest_chars"].(float64) / m["original_chars"].(float64)
		},
		"digest_chars":      func(m map[string]any) { m["digest_chars"] = m["digest_chars"].(float64) - 1 },
		"compression_ratio": func(m map[string]any) { m["compression_ratio"] = 0.5 },
	} {
		resp, body := c.do(t, h, "POST", "/v1/verify", "application/json", payload(mutate))
		var rep struct {
			Verified bool     `json:"verified"`
			Problems []string `json:"problems"`
		}
		json.Unmarshal(decodeEnvelope(t, body).Data, &rep)
		if resp.StatusCode != 200 || rep.Verified || !strings.Contains(strings.Join(rep.Problems, ";"), name+": must be") {
			t.Errorf("a wrong %s: %d %s", name, resp.StatusCode, body)
		}
	}
	// The untouched payload verifies.
	resp, body = c.do(t, h, "POST", "/v1/verify", "application/json", payload(func(map[string]any) {}))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"verified":true`) {
		t.Errorf("the payload as served: %d %s", resp.StatusCode, body)
	}
}

// damagedBackend is an archive backend whose blob files a test can
// rewrite behind the store's back.
type damagedBackend struct {
	name string
	// start readies the backend for t and returns a function that opens a
	// new, empty store and says which file holds blob d.
	start func(t *testing.T) func(t *testing.T) (archive.Store, func(d archive.Hash) string)
}

// damageBackends are the disk store, and the S3 store over the files of a
// real S3 server (the full suite only).
var damageBackends = []damagedBackend{
	{"fsstore", func(*testing.T) func(t *testing.T) (archive.Store, func(archive.Hash) string) {
		return func(t *testing.T) (archive.Store, func(archive.Hash) string) {
			store, err := fsstore.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return store, func(d archive.Hash) string {
				p := store.BlobPath(d)
				os.Chmod(p, 0o644)
				return p
			}
		}
	}},
	{"s3store", func(t *testing.T) func(t *testing.T) (archive.Store, func(archive.Hash) string) {
		gw := s3test.Start(t)
		bucket := s3test.BucketName(t, 1)
		gw.MakeBucket(t, bucket)
		n := 0
		return func(t *testing.T) (archive.Store, func(archive.Hash) string) {
			n++
			prefix := fmt.Sprintf("damage%d/", n)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			store, err := s3store.Open(ctx, s3store.Config{Endpoint: gw.Endpoint(), AccessKey: gw.Access, SecretKey: gw.Secret,
				Bucket: bucket, Prefix: prefix, PathStyle: true, MaxRetries: 1})
			if err != nil {
				t.Fatal(err)
			}
			return store, func(d archive.Hash) string { return gw.ObjectPath(bucket, prefix+archive.BlobKey(d)) }
		}
	}},
}

// Every read of a damaged blob is ARCHIVE_CORRUPT before anything is
// answered, on both backends: the whole blob, HEAD, a conditional GET, a
// range, a slice and a digest of the archived text. The blob is larger than
// the bytes the content type is named from, and damage is done behind the
// store's back the ways a disk does it. Health counts the blob, and posting
// the same text again repairs it on both backends.
func TestDamagedBlobIsNeverServed(t *testing.T) {
	text := strings.Repeat("Tides rise twice a day. The moon pulls the sea towards it. ", 120)
	damages := []struct {
		name string
		fn   func(b []byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"extended", func(b []byte) []byte { return append(b, '.') }},
		{"flipped", func(b []byte) []byte { b[len(b)-1] ^= 0x20; return b }},
	}
	for _, be := range damageBackends {
		t.Run(be.name, func(t *testing.T) {
			open := be.start(t)
			for _, dm := range damages {
				t.Run(dm.name, func(t *testing.T) {
					store, blobFile := open(t)
					pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store}
					h := api.New(pipe, api.Config{OpenAPI: digestd.OpenAPI, MaxBodyBytes: 1 << 20, Version: digestd.Version,
						Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).Handler()
					c := loadContract(t)
					_, body := c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte(text))
					var dd wire.DigestData
					json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
					d := dd.Source.ArchiveHash
					path := blobFile(d)
					b, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, dm.fn(b), 0o644); err != nil {
						t.Fatal(err)
					}
					checkDamagedBlobRefused(t, c, h, d)
					c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte(text))
					if resp, body := c.do(t, h, "GET", "/v1/archive/"+d.String(), "", nil); resp.StatusCode != 200 || string(body) != strings.TrimSpace(text) {
						t.Errorf("after the same text was posted again: %d, %d bytes", resp.StatusCode, len(body))
					}
				})
			}
		})
	}
}

// checkDamagedBlobRefused reads the damaged blob d every way and checks
// each answer is ARCHIVE_CORRUPT, and that health counts the blob.
func checkDamagedBlobRefused(t *testing.T, c *contract, h http.Handler, d archive.Hash) {
	t.Helper()
	blob := "/v1/archive/" + d.String()
	for _, rq := range []struct {
		name, method, target, ct string
		body                     []byte
		header                   []string
	}{
		{"whole", "GET", blob, "", nil, nil},
		{"head", "HEAD", blob, "", nil, nil},
		{"conditional", "GET", blob, "", nil, []string{"If-None-Match", `"` + d.String() + `"`}},
		{"range", "GET", blob, "", nil, []string{"Range", "bytes=0-9"}},
		{"slice", "GET", blob + "/slice?start=0&end=5", "", nil, nil},
		{"digest", "POST", "/v1/digest", "application/json", []byte(`{"query":"moon","source":{"archive":"` + d.String() + `"}}`), nil},
	} {
		resp, body := c.do(t, h, rq.method, rq.target, rq.ct, rq.body, rq.header...)
		if resp.StatusCode != 500 || resp.Header.Get("ETag") != "" || resp.Header.Get("Cache-Control") == "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d %v %.200s", rq.name, resp.StatusCode, resp.Header, body)
			continue
		}
		if rq.method == "HEAD" {
			continue
		}
		if ed := errorOf(t, body); ed.ErrorCode != "ARCHIVE_CORRUPT" {
			t.Errorf("%s: %d %.200s", rq.name, resp.StatusCode, body)
		}
	}
	_, _, hd := health(t, c, h)
	if hd.Components["archive"].Details["corrupt_blobs_unrepaired"] != float64(1) {
		t.Errorf("health after reads of a damaged blob: %+v", hd)
	}
}

// The empty text is a blob of its own, with its own hash, and is served
// whole, by HEAD and conditionally like any other.
func TestEmptyBlobUnderItsOwnHash(t *testing.T) {
	store, srv := newDiskServer(t, t.TempDir())
	h := srv.Handler()
	c := loadContract(t)
	d, err := archive.PutBytes(t.Context(), store, nil)
	if err != nil {
		t.Fatal(err)
	}
	blob := "/v1/archive/" + d.String()
	if resp, body := c.do(t, h, "GET", blob, "", nil); resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("ETag") != `"`+d.String()+`"` {
		t.Errorf("GET the empty blob: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	if resp, _ := c.do(t, h, "HEAD", blob, "", nil); resp.StatusCode != 200 {
		t.Errorf("HEAD the empty blob: %d", resp.StatusCode)
	}
	if resp, _ := c.do(t, h, "GET", blob, "", nil, "If-None-Match", `"`+d.String()+`"`); resp.StatusCode != 304 {
		t.Errorf("conditional GET of the empty blob: %d", resp.StatusCode)
	}
}

// TestVerifyHelps: a bare payload (not under "digest") is told to be
// wrapped, and an invalid payload reports each snippet with its problem.
func TestVerifyHelps(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, body := c.do(t, h, "POST", "/v1/digest?query=tides&snippet_max_chars=60", "text/plain", []byte("Tides rise twice a day. The moon pulls the sea towards it. Spring tides follow the full moon."))
	var dd wire.DigestData
	json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
	if len(dd.Digest.EvidenceSnippets) < 2 {
		t.Fatalf("want two snippets or more: %s", body)
	}

	bare, _ := json.Marshal(dd.Digest)
	resp, body := c.do(t, h, "POST", "/v1/verify", "application/json", bare)
	ed := errorOf(t, body)
	var env struct {
		Error string `json:"error"`
	}
	json.Unmarshal(body, &env)
	if resp.StatusCode != 400 || ed.ErrorCode != "MISSING_REQUIRED" || !strings.Contains(env.Error, `{"digest": <the payload>}`) {
		t.Errorf("a bare payload: %d %s", resp.StatusCode, body)
	}

	var m map[string]any
	json.Unmarshal(bare, &m)
	snips := m["evidence_snippets"].([]any)
	snips[1].(map[string]any)["relevance_score"] = 1.5 // out of [0,1] and above the first
	wrapped, _ := json.Marshal(map[string]any{"digest": m})
	resp, body = c.do(t, h, "POST", "/v1/verify", "application/json", wrapped)
	var rep struct {
		Valid    bool `json:"valid"`
		Snippets []struct {
			Index    int    `json:"index"`
			Verified bool   `json:"verified"`
			Problem  string `json:"problem"`
		} `json:"snippets"`
	}
	json.Unmarshal(decodeEnvelope(t, body).Data, &rep)
	if resp.StatusCode != 200 || rep.Valid || len(rep.Snippets) != len(snips) {
		t.Fatalf("an invalid payload: %d, want one entry per snippet: %s", resp.StatusCode, body)
	}
	for i, s := range rep.Snippets {
		if s.Index != i || s.Verified || s.Problem == "" {
			t.Errorf("snippet %d: %+v, want its problem", i, s)
		}
	}
	if !strings.Contains(rep.Snippets[1].Problem, "evidence_snippets[1].relevance_score") || strings.Contains(rep.Snippets[0].Problem, "relevance_score") {
		t.Errorf("the snippets' problems are not their own: %+v", rep.Snippets)
	}
}

// TestVerifyTamperedIsInvalid: a snippet whose text no longer equals the
// archived text at its locator (one word swapped for another of the same
// length, so every bound still holds) makes the whole report invalid, and
// problems names that snippet.
func TestVerifyTamperedIsInvalid(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, body := c.do(t, h, "POST", "/v1/digest?query=tides", "text/plain", []byte("Tides rise twice a day. The moon pulls the sea towards it. Spring tides follow the full moon."))
	var dd wire.DigestData
	json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
	if len(dd.Digest.EvidenceSnippets) == 0 {
		t.Fatalf("no snippet: %s", body)
	}
	tampered := *dd.Digest
	tampered.EvidenceSnippets = slices.Clone(dd.Digest.EvidenceSnippets)
	at, ok := payloadtest.SwapWord(&tampered)
	if !ok {
		t.Fatalf("no word to swap: %s", body)
	}
	for _, tc := range []struct {
		name    string
		payload *wire.Payload
		valid   bool
	}{
		{"as returned", dd.Digest, true},
		{"one word swapped", &tampered, false},
	} {
		wrapped, _ := json.Marshal(map[string]any{"digest": tc.payload})
		resp, body := c.do(t, h, "POST", "/v1/verify", "application/json", wrapped)
		var rep struct {
			Valid    bool     `json:"valid"`
			Verified bool     `json:"verified"`
			Problems []string `json:"problems"`
		}
		json.Unmarshal(decodeEnvelope(t, body).Data, &rep)
		if resp.StatusCode != 200 || rep.Valid != tc.valid || rep.Verified != tc.valid || rep.Valid != (len(rep.Problems) == 0) {
			t.Errorf("%s: %d valid %t verified %t problems %q", tc.name, resp.StatusCode, rep.Valid, rep.Verified, rep.Problems)
		}
		if want := fmt.Sprintf("evidence_snippets[%d]: ", at); !tc.valid && (len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], want)) {
			t.Errorf("%s: problems %q, want one naming %s", tc.name, rep.Problems, want)
		}
	}
}

// TestVerifySections: a Markdown source's snippets carry their sections
// over HTTP, in the documented shape; the answer verifies as returned, and
// a section whose heading the text does not hold makes it invalid, named
// as its snippet's problem.
func TestVerifySections(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	md := "# Tides\n\n## Causes\n\nThe moon pulls the sea towards it, and the sun adds a smaller pull.\n"
	_, body := c.do(t, h, "POST", "/v1/digest?query=moon+pulls", "text/markdown", []byte(md))
	var dd wire.DigestData
	json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
	if len(dd.Digest.EvidenceSnippets) == 0 || !slices.Equal(dd.Digest.EvidenceSnippets[0].Section, []string{"Tides", "Causes"}) {
		t.Fatalf("want a snippet under Tides > Causes: %s", body)
	}
	forged := *dd.Digest
	forged.EvidenceSnippets = slices.Clone(dd.Digest.EvidenceSnippets)
	forged.EvidenceSnippets[0].Section = []string{"Tides", "Effects"}
	for _, tc := range []struct {
		name    string
		payload *wire.Payload
		valid   bool
	}{
		{"as returned", dd.Digest, true},
		{"a forged section", &forged, false},
	} {
		wrapped, _ := json.Marshal(map[string]any{"digest": tc.payload})
		resp, body := c.do(t, h, "POST", "/v1/verify", "application/json", wrapped)
		var rep struct {
			Valid    bool     `json:"valid"`
			Problems []string `json:"problems"`
		}
		json.Unmarshal(decodeEnvelope(t, body).Data, &rep)
		if resp.StatusCode != 200 || rep.Valid != tc.valid {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
		if !tc.valid && (len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], "evidence_snippets[0]: section[1]")) {
			t.Errorf("%s: problems %q", tc.name, rep.Problems)
		}
	}
}
