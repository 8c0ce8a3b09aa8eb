package doctext_test

import (
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
)

// Every hostile container is refused with its typed error, quickly, under
// the default limits.
func TestHostileContainers(t *testing.T) {
	want := map[string]error{
		"zip_bomb.docx":        doctext.ErrTooLarge,
		"deep_xml.docx":        doctext.ErrTooLarge,
		"billion_laughs.docx":  doctext.ErrUnreadable,
		"external_entity.docx": doctext.ErrUnreadable,
		"truncated.docx":       doctext.ErrUnreadable,
		"encrypted.docx":       doctext.ErrEncrypted,
		"encrypted.odt":        doctext.ErrEncrypted,
		"encrypted.epub":       doctext.ErrEncrypted,
		"repeated_rows.ods":    nil, // read, with repeats bounded
		"many_entries.docx":    doctext.ErrTooLarge,
		"bare_markup.docx":     doctext.ErrTooLarge,
		"broken_workbook.xlsx": doctext.ErrUnreadable,
	}
	hostile := doctexttest.Hostile()
	if len(hostile) != len(want) {
		t.Fatalf("%d hostile files, %d expectations", len(hostile), len(want))
	}
	for name, raw := range hostile {
		t.Run(name, func(t *testing.T) {
			kind := format.Detect("", name, raw)
			if kind == "" {
				t.Fatalf("Detect found no kind")
			}
			start := time.Now()
			res, err := doctext.Extract(kind, raw, doctext.Limits{})
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %s", el)
			}
			switch w := want[name]; {
			case w == nil && err != nil:
				t.Fatalf("Extract: %v", err)
			case w == nil:
				n := 0
				for _, p := range res.Pages {
					n += len(p)
				}
				if n > 16<<20 {
					t.Errorf("%d bytes of text from a tiny file", n)
				}
			case !errors.Is(err, w):
				t.Errorf("Extract error %v, want %v", err, w)
			}
		})
	}
}

// A conversion past its deadline stops with ErrTimeout; one past the
// token cap with ErrTooLarge.
func TestLimits(t *testing.T) {
	paras := strings.Repeat(doctexttest.Paragraph("word"), 20000)
	raw := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(paras)))
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{Timeout: time.Nanosecond}); !errors.Is(err, doctext.ErrTimeout) {
		t.Errorf("tiny timeout: %v, want ErrTimeout", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{MaxXMLTokens: 1000}); !errors.Is(err, doctext.ErrTooLarge) {
		t.Errorf("token cap: %v, want ErrTooLarge", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{MaxChars: 1000}); !errors.Is(err, doctext.ErrTooLarge) {
		t.Errorf("char cap: %v, want ErrTooLarge", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{}); err != nil {
		t.Errorf("default limits: %v", err)
	}
	if _, err := doctext.Extract(format.PDF, raw, doctext.Limits{}); !errors.Is(err, doctext.ErrUnsupported) {
		t.Errorf("kind pdf: %v, want ErrUnsupported", err)
	}
}

// Tracked deletions, moved-from text, field codes and a drawing's fallback
// copy are not text; insertions, hyperlinks and content controls are.
func TestDOCXRevisionsAndFields(t *testing.T) {
	body := `<w:p><w:r><w:t>Kept </w:t></w:r><w:del><w:r><w:delText>deleted </w:delText></w:r></w:del>` +
		`<w:ins><w:r><w:t>inserted </w:t></w:r></w:ins><w:moveFrom><w:r><w:t>moved-away </w:t></w:r></w:moveFrom>` +
		`<w:r><w:instrText>HYPERLINK "x"</w:instrText></w:r><w:hyperlink><w:r><w:t>linked </w:t></w:r></w:hyperlink>` +
		`<w:sdt><w:sdtContent><w:r><w:t>controlled</w:t></w:r></w:sdtContent></w:sdt></w:p>` +
		`<w:p><mc:AlternateContent xmlns:mc="m"><mc:Choice><w:r><w:t>box</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>box</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>`
	raw := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(body)))
	text, _ := canonical(t, format.DOCX, raw)
	if want := "Kept inserted linked controlled\nbox"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
}

// Markdown keeps its blocks (raw HTML ones too) and drops its markup; CSV finds its delimiter
// and keeps quoted fields whole.
func TestMarkdownAndCSVBlocks(t *testing.T) {
	tests := []struct{ kind, in, want string }{
		{format.Markdown, "---\ntitle: A Note\n---\n# Head *one*\n\nA [link](http://x) and `code`.\n\n- item one\n  - nested item\n\n```go\nfunc main() {}\n```\n\n<div>raw html</div>\n\n> quoted text",
			"A Note\nHead one\nA link and code.\nitem one\nnested item\nfunc main() {}\nraw html\nquoted text"},
		{format.Markdown, "Text with a note.[^n]\n\n[^n]: The note.", "Text with a note.[1]\n[1] The note."},
		{format.CSV, "name;city\n\"Roe; Ann\";Bonn\n", "name | city\nRoe; Ann | Bonn"},
		{format.CSV, "a\tb\n1\t\"2\n3\"\n", "a | b\n1 | 2 3"},
		{format.CSV, "\ufeffx,y\n,\n1,\n", "x | y\n1"},
	}
	for _, tt := range tests {
		text, _ := canonical(t, tt.kind, []byte(tt.in))
		if text != tt.want {
			t.Errorf("%s %q:\n got %q\nwant %q", tt.kind, tt.in, text, tt.want)
		}
	}
}

// Every cap a conversion reaches is named, with its value, by a
// LimitError that is ErrTooLarge. A DOCX of some 200 KB that unpacks to
// just under the unpacked cap, all of it empty runs, stops at the cap on
// markup without text, having unpacked a few MiB of it (the CPU time it
// took is logged, not asserted).
func TestLimitErrorsNameTheirCap(t *testing.T) {
	paras := strings.Repeat(doctexttest.Paragraph("word"), 2000)
	raw := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(paras)))
	tests := []struct {
		name string
		raw  []byte
		lim  doctext.Limits
		cap  doctext.Cap
		want int64
	}{
		{"tokens", raw, doctext.Limits{MaxXMLTokens: 1000}, doctext.CapXMLTokens, 1000},
		{"text", raw, doctext.Limits{MaxChars: 100}, doctext.CapText, 100},
		{"depth", raw, doctext.Limits{MaxXMLDepth: 3}, doctext.CapXMLDepth, 3},
		{"unpacked", raw, doctext.Limits{MaxUnpackedBytes: 1000}, doctext.CapUnpackedBytes, 1000},
		{"entries", raw, doctext.Limits{MaxEntries: 1}, doctext.CapEntries, 1},
		{"bare markup", doctexttest.BareMarkup(), doctext.Limits{}, doctext.CapBareMarkup, doctext.DefaultMaxBareMarkup},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			_, err := doctext.Extract(format.DOCX, tt.raw, tt.lim)
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			var le *doctext.LimitError
			if !errors.As(err, &le) || !errors.Is(err, doctext.ErrTooLarge) {
				t.Fatalf("Extract: %v, want a LimitError", err)
			}
			if le.Cap != tt.cap || le.Limit != tt.want {
				t.Errorf("cap %s of %d, want %s of %d", le.Cap, le.Limit, tt.cap, tt.want)
			}
			if msg := le.Error(); !strings.Contains(msg, strconv.FormatInt(tt.want, 10)) || strings.Contains(msg, "doctext") {
				t.Errorf("message %q does not name the limit, or names the package", msg)
			}
			cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
			t.Logf("%s: %v; CPU %s", tt.name, err, cpu.Round(time.Millisecond))
		})
	}
}
