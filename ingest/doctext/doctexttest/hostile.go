// Package doctexttest builds documents for the tests of every layer that
// takes them: hostile office containers (a zip bomb, deep XML, a "billion
// laughs" entity bomb, a truncated zip, encrypted OOXML, ODF and EPUB, a
// sheet of repeated rows and an archive of too many entries), and books
// (EPUB) of given chapters.
package doctexttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
)

// Entry is one file of a zip archive.
type Entry struct {
	Name string
	Body io.Reader
}

// stored is an entry written without compression.
type stored struct{ Entry }

// Zip returns a zip archive of entries (deflated, except an ODF or EPUB
// mimetype entry, stored as those formats require).
func Zip(entries ...Entry) []byte { return zipOf(entries, nil) }

// zipOf writes entries, then stored entries without compression.
func zipOf(entries []Entry, raw []stored) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	for _, e := range entries {
		method := zip.Deflate
		if e.Name == "mimetype" {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name, Method: method})
		if err != nil {
			panic(err)
		}
		if _, err := io.Copy(w, e.Body); err != nil {
			panic(err)
		}
	}
	for _, e := range raw {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name, Method: zip.Store})
		if err != nil {
			panic(err)
		}
		if _, err := io.Copy(w, e.Body); err != nil {
			panic(err)
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// S is an entry body from a string.
func S(s string) io.Reader { return strings.NewReader(s) }

const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`

// DOCX returns a minimal DOCX whose word/document.xml is body.
func DOCX(body io.Reader) []byte {
	return Zip(Entry{"[Content_Types].xml", S(contentTypes)}, Entry{"word/document.xml", body})
}

// DocumentXML wraps paragraphs' XML in a WordprocessingML document.
func DocumentXML(inner string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
		inner + `</w:body></w:document>`
}

// Paragraph is a WordprocessingML paragraph of text.
func Paragraph(text string) string {
	return `<w:p><w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// Hostile returns every hostile container by name, with the kind it
// claims to be (its file name's extension says the same).
func Hostile() map[string][]byte {
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
		`<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">` +
		`<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`
	external := `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>`
	valid := DOCX(S(DocumentXML(Paragraph("A valid document, cut short."))))
	ole := append([]byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}, make([]byte, 504)...)
	encryptedOOXML := append(ole, []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")...)
	many := make([]stored, 0, 20000)
	for i := range 20000 {
		many = append(many, stored{Entry{"word/media/x" + strconv.Itoa(i), S("")}})
	}
	odfManifest := `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">` +
		`<manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/></manifest:file-entry></manifest:manifest>`
	epubEnc := `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">` +
		`<enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/ch1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`
	repeated := `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>` +
		`<table:table table:name="S"><table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="1000000000"><text:p>x</text:p></table:table-cell></table:table-row></table:table>` +
		`</office:spreadsheet></office:body></office:document-content>`
	return map[string][]byte{
		"zip_bomb.docx":        bombZip("word/document.xml", "", " ", "", 512),
		"bare_markup.docx":     BareMarkup(),
		"deep_xml.docx":        DOCX(S(DocumentXML(strings.Repeat("<w:p>", 100000) + strings.Repeat("</w:p>", 100000)))),
		"billion_laughs.docx":  DOCX(S(laughs)),
		"external_entity.docx": DOCX(S(external)),
		"truncated.docx":       valid[:len(valid)*2/3],
		"encrypted.docx":       encryptedOOXML,
		"encrypted.odt": Zip(Entry{"mimetype", S("application/vnd.oasis.opendocument.text")},
			Entry{"META-INF/manifest.xml", S(odfManifest)}, Entry{"content.xml", S("\x00\x01garbage")}),
		"encrypted.epub": Zip(Entry{"mimetype", S("application/epub+zip")}, Entry{"META-INF/encryption.xml", S(epubEnc)},
			Entry{"META-INF/container.xml", S(`<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`)}),
		"repeated_rows.ods": Zip(Entry{"mimetype", S("application/vnd.oasis.opendocument.spreadsheet")}, Entry{"content.xml", S(repeated)}),
		"many_entries.docx": zipOf([]Entry{{"[Content_Types].xml", S(contentTypes)}}, many),
		"broken_workbook.xlsx": Zip(Entry{"[Content_Types].xml", S(contentTypes)}, Entry{"xl/workbook.xml", S(`<workbook/>`)},
			Entry{"xl/worksheets/sheet1.xml", S("<worksheet/>")}),
	}
}

// BareMarkup returns a DOCX of about 130 KB whose word/document.xml
// unpacks to just under the default unpacked cap (127 MiB), all of it
// empty runs: some 44 million XML tokens that make no text.
func BareMarkup() []byte {
	head := `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>`
	return bombZip("word/document.xml", head, "<w:r/>", "</w:p></w:body></w:document>", 127)
}

// bombZip returns an OOXML package whose part name inflates to head, n
// chunks of about a MiB of unit repeated, and tail, while the archive is
// about n KiB: one compressed chunk repeated as byte-aligned, non-final
// deflate blocks, with honest sizes and checksum.
func bombZip(name, head, unit, tail string, n int) []byte {
	chunk := bytes.Repeat([]byte(unit), (1<<20)/len(unit))
	deflated := func(b []byte) []byte {
		var out bytes.Buffer
		fw, _ := flate.NewWriter(&out, flate.BestCompression)
		fw.Write(b)
		fw.Flush()
		return out.Bytes()
	}
	var data bytes.Buffer
	sum := crc32.NewIEEE()
	size := 0
	add := func(plain, packed []byte) {
		data.Write(packed)
		sum.Write(plain)
		size += len(plain)
	}
	add([]byte(head), deflated([]byte(head)))
	block := deflated(chunk)
	for range n {
		add(chunk, block)
	}
	add([]byte(tail), deflated([]byte(tail)))
	data.Write([]byte{0x03, 0x00}) // a final, empty fixed-Huffman block
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("[Content_Types].xml")
	w.Write([]byte(contentTypes))
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: sum.Sum32(),
		CompressedSize64: uint64(data.Len()), UncompressedSize64: uint64(size)})
	if err != nil {
		panic(err)
	}
	w.Write(data.Bytes())
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}
