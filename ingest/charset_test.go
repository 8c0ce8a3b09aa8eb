package ingest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/fetch"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// encodeIn writes s in e, as a legacy file holds it.
func encodeIn(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLegacyCharsets: text, Markdown, CSV, JSON and XML files in a legacy
// encoding are read in the charset a mark, a declaration (XML's own too)
// or the detector names;
// the record keeps it, and raw_sha256 is the hash of the bytes sent.
func TestLegacyCharsets(t *testing.T) {
	const (
		csvText = "名前,都市,人口\n東京,日本,13960000\n大阪,日本,2691000\n"
		mdText  = "# Café crème\n\nLe garçon a mangé une crêpe à la fraise près de la forêt. Ça coûte très cher.\n"
		txtText = "Tides rise twice a day. 潮の満ち引きは一日に二回。"
	)
	tests := []struct {
		name, file, contentType, kind string
		raw                           []byte
		want                          []string
		charset                       string
	}{
		{"shift-jis csv", "cities.csv", "", "csv", encodeIn(t, japanese.ShiftJIS, csvText), []string{"東京", "大阪", "13960000"}, "shift_jis"},
		{"shift-jis csv declared", "", "text/csv; charset=Shift_JIS", "csv", encodeIn(t, japanese.ShiftJIS, "都市\n東京\n"), []string{"東京"}, "shift_jis"},
		{"latin-1 markdown", "notes.md", "", "markdown", encodeIn(t, charmap.ISO8859_1, mdText), []string{"Café crème", "garçon", "forêt"}, "windows-1252"},
		{"utf-16le text with a mark", "tides.txt", "", "text", encodeIn(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), txtText), []string{txtText}, "utf-16le"},
		{"utf-8 csv", "a.csv", "", "csv", []byte("a,b\nÉté,1\n"), []string{"Été"}, "utf-8"},
		{"latin-1 rss by its declaration", "", "", "rss", encodeIn(t, charmap.ISO8859_1, `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Café</title><item><title>Crêpe à la forêt</title></item></channel></rss>`), []string{"Café\nCrêpe à la forêt"}, "windows-1252"},
		{"utf-16 xml with a mark", "notes.xml", "", "xml", encodeIn(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), `<?xml version="1.0" encoding="UTF-16"?><notes><n>潮の満ち引き</n></notes>`), []string{"潮の満ち引き"}, "utf-16le"},
		{"shift-jis json declared", "", "application/json; charset=Shift_JIS", "json", encodeIn(t, japanese.ShiftJIS, `{"city": "東京"}`), []string{"東京"}, "shift_jis"},
	}
	in := &Ingester{}
	for _, tc := range tests {
		doc, err := in.Ingest(context.Background(), Source{File: tc.raw, Name: tc.file, ContentType: tc.contentType})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(doc.Text.String(), w) {
				t.Errorf("%s: %q not in %q", tc.name, w, doc.Text.String())
			}
		}
		rec := doc.Record
		if rec.Kind != tc.kind || rec.Charset != tc.charset || rec.RawSHA256 != archive.Sum(tc.raw) || rec.RawBytes != len(tc.raw) {
			t.Errorf("%s: record kind %s charset %q raw %s (%d bytes), want %s in %s of the bytes sent", tc.name, rec.Kind, rec.Charset, rec.RawSHA256, rec.RawBytes, tc.kind, tc.charset)
		}
	}
}

// TestUndecidableCharset: bytes no mark, declaration or confident
// detection reads are DOCUMENT_UNREADABLE with the offset of the first
// byte that is not UTF-8, for every kind of text, never an error about a
// field the caller did not send.
func TestUndecidableCharset(t *testing.T) {
	bad := []byte("ok,fine\n\x81\x8d\x8f\x90\x9d\xfe\xff\x80\x81\x8d\n")
	in := &Ingester{}
	for _, src := range []Source{
		{File: bad, Name: "data.csv"},
		{File: bad, Name: "notes.md"},
		{File: bad, Kind: "text"},
		{File: bad, ContentType: "text/plain; charset=windows-1252", Kind: "text"},
	} {
		_, err := in.Ingest(context.Background(), src)
		f := fault.As(err)
		if f == nil || f.Code != fault.DocumentUnreadable || f.Details["byte_offset"] != 8 || strings.Contains(f.Msg, "source.") {
			t.Errorf("%s %s: %v, want %s at byte 8", src.Name, src.Kind, err, fault.DocumentUnreadable)
		}
	}
}

// TestFetchedTextCharset: a fetched text is read in the charset its
// Content-Type declares.
func TestFetchedTextCharset(t *testing.T) {
	body := encodeIn(t, charmap.Windows1252, "Größe und Maß: die Straße führt über die Brücke.")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write(body)
	}))
	defer srv.Close()
	in := &Ingester{Fetcher: fetch.New(fetch.Config{AllowLoopback: []string{srv.Listener.Addr().String()}})}
	doc, err := in.Ingest(context.Background(), Source{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text.String(), "Straße führt über") || doc.Record.Charset != "windows-1252" {
		t.Errorf("%q in %q", doc.Text.String(), doc.Record.Charset)
	}
}
