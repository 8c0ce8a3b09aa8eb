package pdftext

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// fontProgram returns the font descriptor of the first-page font whose
// BaseFont ends in suffix.
func fontDescriptor(t *testing.T, file, suffix string) pdf.Value {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	fonts := rd.Page(1).Resources().Key("Font")
	for _, k := range fonts.Keys() {
		if fv := fonts.Key(k); strings.HasSuffix(fv.Key("BaseFont").Name(), suffix) {
			return fv.Key("FontDescriptor")
		}
	}
	t.Fatalf("%s: no font %s", file, suffix)
	return pdf.Value{}
}

// TestBuiltinEncoding reads the encoding built into a Type 1 program
// (pdfTeX) and a CFF program (the same fonts after ghostscript).
func TestBuiltinEncoding(t *testing.T) {
	tests := []struct {
		file, font string
		code       int
		want       string
	}{
		{"tex-math.pdf", "+CMSY10", 50, "element"},
		{"tex-math.pdf", "+CMSY10", 56, "universal"},
		{"tex-math.pdf", "+CMR10", 12, "fi"},
		{"tex-paper-cff.pdf", "+CMSY10", 50, "element"},
		{"tex-paper-cff.pdf", "+CMR10", 12, "fi"},
		{"tex-paper-cff.pdf", "+CMMI10", 11, "alpha"},
	}
	for _, tt := range tests {
		enc := builtinEncoding(fontDescriptor(t, tt.file, tt.font), &streamBudget{left: maxStreamBytes})
		if enc == nil {
			t.Errorf("%s %s: no builtin encoding", tt.file, tt.font)
			continue
		}
		if enc[tt.code] != tt.want {
			t.Errorf("%s %s: code %d is %q, want %q", tt.file, tt.font, tt.code, enc[tt.code], tt.want)
		}
	}
	if len(cffStandardStrings) != 391 || cffStandardStrings[109] != "fi" || cffStandardStrings[266] != "ff" {
		t.Errorf("CFF standard strings are wrong: %d", len(cffStandardStrings))
	}
}

func FuzzCFFEncoding(f *testing.F) {
	f.Add([]byte{1, 0, 4, 1, 0, 1, 1, 1, 65, 0, 1, 1, 1, 4, 139, 139, 17, 0, 0})
	f.Add([]byte{1, 0, 4, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		if enc := cffEncoding(data); enc != nil && len(enc) != 256 {
			t.Fatal("bad encoding length")
		}
	})
}

func FuzzType1Encoding(f *testing.F) {
	f.Add([]byte("/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 12 /fi put\nreadonly def\ncurrentfile eexec"))
	f.Add([]byte("/Encoding StandardEncoding def"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if enc := type1Encoding(data); enc != nil && enc[0] == "\x00" {
			t.Fatal("impossible name")
		}
	})
}
