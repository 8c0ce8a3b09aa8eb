package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime/multipart"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/wire"
)

const devset = "../ingest/doctext/testdata/devset"

// mediaTypes declares each document kind in a raw body.
var mediaTypes = map[string]string{
	format.DOCX:     "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	format.PPTX:     "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	format.XLSX:     "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	format.ODT:      "application/vnd.oasis.opendocument.text",
	format.ODP:      "application/vnd.oasis.opendocument.presentation",
	format.ODS:      "application/vnd.oasis.opendocument.spreadsheet",
	format.EPUB:     "application/epub+zip",
	format.Markdown: "text/markdown",
	format.CSV:      "text/csv",
}

// Every document of the dev set is digested through a raw body of its
// media type, a multipart upload by file name and JSON file_base64, and
// gets its kind in the record and locators that check out; a slide's and
// a sheet's snippets name their page.
func TestDocumentSources(t *testing.T) {
	c := loadContract(t)
	tests := []struct {
		file, query string
		page        int // the top snippet's page, 0 for an unpaginated kind
		names       []string
	}{
		{"report.docx", "how much did nitrate rise in the central zone", 0, nil},
		{"report.odt", "how much did nitrate rise in the central zone", 0, nil},
		{"report.md", "how much did nitrate rise in the central zone", 0, nil},
		{"slides.pptx", "why did cables lose margin", 3, []string{"Quarterly Sales Review", "Revenue grew in every region", "Margins by product line", "Next quarter"}},
		{"slides.odp", "why did cables lose margin", 3, []string{"Quarterly Sales Review", "Revenue grew in every region", "Margins by product line", "Next quarter"}},
		{"book.epub", "when was the light automated", 0, nil},
		{"sheets.xlsx", "when was Barrow Cross offline", 3, []string{"Stations", "Readings", "Notes"}},
		{"sheets.ods", "when was Barrow Cross offline", 3, []string{"Stations", "Readings", "Notes"}},
		{"stations.csv", "which station opened in 1983", 0, nil},
	}
	// One archive: a text that came in several formats (report.docx, .odt
	// and .md; slides.pptx and .odp; sheets.xlsx and .ods) answers each
	// upload with the record of its own bytes.
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 4 << 20})
	for _, tt := range tests {
		raw, err := os.ReadFile(filepath.Join(devset, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		kind := format.KindOfName(tt.file)
		q := strings.ReplaceAll(tt.query, " ", "+")
		var mp bytes.Buffer
		mw := multipart.NewWriter(&mp)
		mw.WriteField("query", tt.query)
		fw, _ := mw.CreateFormFile("file", tt.file)
		fw.Write(raw)
		mw.Close()
		js, _ := json.Marshal(map[string]any{"query": tt.query, "source": map[string]string{"file_base64": base64.StdEncoding.EncodeToString(raw), "file_name": tt.file}})
		jsBytes, _ := json.Marshal(map[string]any{"query": tt.query, "source": map[string]string{"file_base64": base64.StdEncoding.EncodeToString(raw)}})
		for _, sub := range []struct {
			name, target, contentType string
			body                      []byte
		}{
			{"raw", "/v1/digest?query=" + q, mediaTypes[kind], raw},
			{"multipart", "/v1/digest", mw.FormDataContentType(), mp.Bytes()},
			{"json", "/v1/digest", "application/json", js},
			{"json by bytes", "/v1/digest", "application/json", jsBytes},
		} {
			if sub.name == "json by bytes" && (kind == format.Markdown || kind == format.CSV) {
				continue // text kinds need a name or a type
			}
			resp, b := c.do(t, h, "POST", sub.target, sub.contentType, sub.body)
			if resp.StatusCode != 200 {
				t.Errorf("%s %s: %d %.300s", tt.file, sub.name, resp.StatusCode, b)
				continue
			}
			var data wire.DigestData
			json.Unmarshal(decodeEnvelope(t, b).Data, &data)
			if data.Source.Kind != kind || data.Source.Record.Kind != kind {
				t.Errorf("%s %s: kind %q, want %q", tt.file, sub.name, data.Source.Kind, kind)
			}
			if !slices.Equal(data.Source.Record.PageNames, tt.names) {
				t.Errorf("%s %s: page names %q, want %q", tt.file, sub.name, data.Source.Record.PageNames, tt.names)
			}
			_, text := c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
			if len(data.Digest.EvidenceSnippets) == 0 {
				t.Errorf("%s %s: no snippets", tt.file, sub.name)
				continue
			}
			for _, s := range data.Digest.EvidenceSnippets {
				loc, err := digest.ParseLocator(s.Locator)
				if err != nil {
					t.Fatalf("%s: locator %q: %v", tt.file, s.Locator, err)
				}
				if err := loc.Verify(string(text), s.Text); err != nil {
					t.Errorf("%s %s: %v", tt.file, sub.name, err)
				}
				if (loc.Page > 0) != format.Paginated(kind) {
					t.Errorf("%s: locator %s, paginated %v", tt.file, s.Locator, format.Paginated(kind))
				}
			}
			if top, _ := digest.ParseLocator(data.Digest.EvidenceSnippets[0].Locator); top.Page != tt.page {
				t.Errorf("%s %s: top snippet %q on page %d, want %d", tt.file, sub.name, data.Digest.EvidenceSnippets[0].Text, top.Page, tt.page)
			}
		}
	}
}

// Hostile containers get typed 4xx answers: encrypted, unreadable or too
// large, never a 5xx.
func TestHostileDocuments(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 4 << 20})
	c := loadContract(t)
	want := map[string]string{
		"zip_bomb.docx":        "413 TOO_LARGE",
		"deep_xml.docx":        "413 TOO_LARGE",
		"billion_laughs.docx":  "422 DOCUMENT_UNREADABLE",
		"external_entity.docx": "422 DOCUMENT_UNREADABLE",
		"truncated.docx":       "422 DOCUMENT_UNREADABLE",
		"encrypted.docx":       "422 DOCUMENT_ENCRYPTED",
		"encrypted.odt":        "422 DOCUMENT_ENCRYPTED",
		"encrypted.epub":       "422 DOCUMENT_ENCRYPTED",
		"repeated_rows.ods":    "413 TOO_LARGE", // its repeats bounded, and still over this server's text cap
		"many_entries.docx":    "413 TOO_LARGE",
		"bare_markup.docx":     "413 TOO_LARGE",
		"broken_workbook.xlsx": "422 DOCUMENT_UNREADABLE",
	}
	for name, raw := range doctexttest.Hostile() {
		var mp bytes.Buffer
		mw := multipart.NewWriter(&mp)
		mw.WriteField("query", "what is here")
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(raw)
		mw.Close()
		resp, b := c.do(t, h, "POST", "/v1/digest", mw.FormDataContentType(), mp.Bytes())
		got := strconv.Itoa(resp.StatusCode)
		if resp.StatusCode != 200 {
			got += " " + errorOf(t, b).ErrorCode
		}
		if got != want[name] {
			t.Errorf("%s: %s, want %s: %.300s", name, got, want[name], b)
		}
	}
}

// openapi.yaml lists every source kind in the record and source enums and
// takes every media type POST /v1/digest takes.
func TestDocumentKindsInOpenAPI(t *testing.T) {
	kinds := slices.Sorted(slices.Values(format.Kinds))
	for _, path := range [][]string{{"SourceRecord", "kind"}, {"SourceInfo", "kind"}} {
		if got := openapiEnum(t, path[0], path[1:]...); !slices.Equal(got, kinds) {
			t.Errorf("openapi.yaml %s.kind enum %v, format.Kinds %v", path[0], got, kinds)
		}
	}
	doc := openapiDoc(t)
	var documented []string
	for mt := range doc.Paths.Find("/v1/digest").Post.RequestBody.Value.Content {
		documented = append(documented, mt)
	}
	slices.Sort(documented)
	want := slices.Concat([]string{wire.MediaJSON}, format.MediaTypes(), format.GenericMediaTypes(), []string{"multipart/form-data"})
	slices.Sort(want)
	if !slices.Equal(documented, want) {
		t.Errorf("openapi.yaml /v1/digest takes %v, the server %v", documented, want)
	}
}

// Quotes located in an archived spreadsheet get page locators naming the
// sheet, and a source given as file_base64 is read as its kind.
func TestLocateInDocuments(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 4 << 20})
	c := loadContract(t)
	raw, err := os.ReadFile(filepath.Join(devset, "sheets.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{
		"sources": []map[string]string{{"id": "sheets", "file_base64": base64.StdEncoding.EncodeToString(raw), "file_name": "sheets.xlsx"}},
		"quotes":  []string{"Barrow Cross was offline for eleven days in April", "Coldwater | March | 2.05 | 14.3"},
	})
	resp, b := c.do(t, h, "POST", "/v1/locate", "application/json", body)
	if resp.StatusCode != 200 {
		t.Fatalf("locate: %d %s", resp.StatusCode, b)
	}
	var d locateData
	json.Unmarshal(decodeEnvelope(t, b).Data, &d)
	for i, want := range []int{3, 2} {
		if i >= len(d.Results) || d.Results[i].Locator == nil {
			t.Fatalf("quote %d not located: %s", i, b)
		}
		loc, err := digest.ParseLocator(*d.Results[i].Locator)
		if err != nil || loc.Page != want || d.Results[i].Match != "exact" {
			t.Errorf("quote %d: %s (%s), want an exact match on sheet %d", i, *d.Results[i].Locator, d.Results[i].Match, want)
		}
	}
}
