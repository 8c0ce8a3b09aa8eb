package htmltext

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestGenerateCharsetFixtures writes the charset fixtures in testdata when
// run with -update; they are generated because their bytes are not UTF-8.
func TestGenerateCharsetFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate fixtures")
	}
	body := "<p>Grüße aus Köln: Straße, Bäcker, Öfen – « naïve » déjà vu, 50 € für den Kuchen.</p>"
	latin, err := charmap.Windows1252.NewEncoder().String(body)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"cp1252-sniffed.html": "<html><body>" + latin + "</body></html>",
		"cp1252-meta.html":    `<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body>` + latin + "</body></html>",
		"cp1252-header.html":  "<html><body>" + latin + "</body></html>",
		"utf8-bom.html":       "\xef\xbb\xbf<html><head><meta charset=\"windows-1252\"></head><body>" + body + "</body></html>",
		"utf8-meta-late.html": "<html><head><script>" + string(make([]byte, 0)) + repeat("/* padding */ ", 200) + "</script><meta charset=\"utf-8\"></head><body>" + body + "</body></html>",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join("testdata", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}
