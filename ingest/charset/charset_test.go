package charset

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// encode writes s in e, as a legacy file would hold it.
func encode(t testing.TB, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	japaneseCSV = "名前,都市,人口\n東京,日本,13960000\n大阪,日本,2691000\n"
	frenchMD    = "# Café crème\n\nLe garçon a mangé une crêpe à la fraise près de la forêt. Ça coûte très cher.\n"
)

// TestDecode reads each text in the charset a mark, a declaration or the
// detector names, and records that charset.
func TestDecode(t *testing.T) {
	utf16le := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	utf16beNoBOM := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	tests := []struct {
		name    string
		raw     []byte
		hints   Hints
		want    string
		charset string
		by      string
	}{
		{"utf-8", []byte("Déjà vu"), Hints{}, "Déjà vu", "utf-8", "utf-8"},
		{"utf-8 labelled latin-1", []byte("Déjà vu"), Hints{ContentType: "text/plain; charset=iso-8859-1"}, "Déjà vu", "utf-8", "utf-8"},
		{"utf-8 bom", []byte("\xef\xbb\xbfDéjà vu"), Hints{}, "Déjà vu", "utf-8", "bom"},
		{"utf-16le bom", encode(t, utf16le, "Tides rise twice a day. 潮汐"), Hints{}, "Tides rise twice a day. 潮汐", "utf-16le", "bom"},
		{"utf-16be declared", encode(t, utf16beNoBOM, "Tides rise."), Hints{ContentType: "text/plain; charset=UTF-16BE"}, "Tides rise.", "utf-16be", "declared"},
		{"shift-jis declared", encode(t, japanese.ShiftJIS, "東京"), Hints{ContentType: "text/csv; charset=Shift_JIS"}, "東京", "shift_jis", "declared"},
		{"shift-jis detected", encode(t, japanese.ShiftJIS, japaneseCSV), Hints{}, japaneseCSV, "shift_jis", "detected"},
		{"latin-1 detected", encode(t, charmap.ISO8859_1, frenchMD), Hints{Markdown: true}, frenchMD, "windows-1252", "detected"},
		{"latin-1 front matter", encode(t, charmap.ISO8859_1, "---\ntitle: Été\nencoding: latin1\n---\nÉté"), Hints{Markdown: true}, "---\ntitle: Été\nencoding: latin1\n---\nÉté", "windows-1252", "declared"},
		{"meta in markdown", encode(t, charmap.ISO8859_2, `<meta charset="iso-8859-2">`+"\nŁódź"), Hints{Markdown: true}, `<meta charset="iso-8859-2">` + "\nŁódź", "iso-8859-2", "declared"},
		{"gb18030", encode(t, simplifiedchinese.GB18030, "母婴传播是儿童感染艾滋病毒的主要原因。胎盘在其中起着关键作用。"), Hints{}, "母婴传播是儿童感染艾滋病毒的主要原因。胎盘在其中起着关键作用。", "gb18030", "detected"},
		{"big5", encode(t, traditionalchinese.Big5, "母嬰傳播是兒童感染愛滋病毒的主要原因。胎盤在其中起著關鍵作用。"), Hints{}, "母嬰傳播是兒童感染愛滋病毒的主要原因。胎盤在其中起著關鍵作用。", "big5", "detected"},
		{"euc-kr", encode(t, korean.EUCKR, "모자 감염은 어린이 에이즈 바이러스 감염의 주요 원인입니다."), Hints{}, "모자 감염은 어린이 에이즈 바이러스 감염의 주요 원인입니다.", "euc-kr", "detected"},
		{"windows-1251", encode(t, charmap.Windows1251, "Мать и дитя: передача вируса является главной причиной инфекции у детей."), Hints{}, "Мать и дитя: передача вируса является главной причиной инфекции у детей.", "windows-1251", "detected"},
		{"wrong declaration, detected", encode(t, japanese.ShiftJIS, japaneseCSV), Hints{ContentType: "text/csv; charset=euc-kr"}, japaneseCSV, "shift_jis", "detected"},
	}
	for _, tc := range tests {
		got, err := Decode(tc.raw, tc.hints)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(got.UTF8) != tc.want || got.Charset != tc.charset || got.By != tc.by {
			t.Errorf("%s: %q in %s (%s), want %q in %s (%s)", tc.name, got.UTF8, got.Charset, got.By, tc.want, tc.charset, tc.by)
		}
	}
}

// TestUndecidable answers bytes nothing decides with the offset of the
// first byte that is not UTF-8.
func TestUndecidable(t *testing.T) {
	tests := []struct {
		name   string
		raw    []byte
		hints  Hints
		offset int
	}{
		{"short shift-jis", encode(t, japanese.ShiftJIS, "名前,都市\n東京,日本\n"), Hints{}, 0},
		{"bytes of no charset", []byte("ok \x81\x8d\x8f\x90\x9d\xfe\xff\x80\x81\x8d"), Hints{}, 3},
		{"controls", []byte("abc\x00\x01\x02\xc3\x28"), Hints{ContentType: "text/plain; charset=windows-1252"}, 6},
		{"broken utf-8 after a mark", []byte("\xef\xbb\xbfab\xff\x00"), Hints{}, 5},
	}
	for _, tc := range tests {
		got, err := Decode(tc.raw, tc.hints)
		off, ok := IsUndecidable(err)
		if !ok || off != tc.offset {
			t.Errorf("%s: %q in %s, %v; want undecidable at byte %d", tc.name, got.UTF8, got.Charset, err, tc.offset)
		}
	}
}

// TestLookup resolves labels by the WHATWG standard, then IANA's.
func TestLookup(t *testing.T) {
	for label, want := range map[string]string{
		"Shift_JIS": "shift_jis", "sjis": "shift_jis", "latin1": "windows-1252", "ISO-8859-15": "iso-8859-15",
		`"GB18030"`: "gb18030", "big5": "big5", "euc-kr": "euc-kr", "utf-16": "utf-16le", "cp1250": "windows-1250",
		"ibm437": "ibm437", "no-such-charset": "", "iso-2022-kr": "",
	} {
		if _, got := Lookup(label); got != want {
			t.Errorf("Lookup(%q) = %q, want %q", label, got, want)
		}
	}
}

// TestFrontMatterCharset reads only a front matter's fields.
func TestFrontMatterCharset(t *testing.T) {
	for raw, want := range map[string]string{
		"---\ntitle: x\ncharset: 'Shift_JIS'\n---\n": "Shift_JIS",
		"---\r\nEncoding: latin1\r\n---\r\n":         "latin1",
		"---\ntitle: x\n---\ncharset: big5\n":        "",
		"# charset: big5\n":                          "",
	} {
		if got := frontMatterCharset([]byte(raw)); got != want {
			t.Errorf("frontMatterCharset(%q) = %q, want %q", raw, got, want)
		}
	}
}

// FuzzDecode holds Decode to its contract on any bytes: no panic; text
// that is valid UTF-8 without a mark, in a named charset; or an
// undecidable error whose offset is the first byte that is not UTF-8.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("plain"), "", false)
	f.Add(encode(f, japanese.ShiftJIS, japaneseCSV), "text/csv", false)
	f.Add(encode(f, charmap.ISO8859_1, frenchMD), "", true)
	f.Add([]byte("\xff\xfeA\x00\x00\xd8"), "", false)
	f.Add([]byte("---\ncharset: utf-16\n---\n\xff"), "text/plain; charset=utf-32", true)
	f.Fuzz(func(t *testing.T, raw []byte, contentType string, markdown bool) {
		got, err := Decode(raw, Hints{ContentType: contentType, Markdown: markdown})
		if err != nil {
			off, ok := IsUndecidable(err)
			if !ok || off != invalidOffset(raw) || off > len(raw) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if got.Charset == "" || got.By == "" {
			t.Fatalf("%q read as %q in %q by %q", raw, got.UTF8, got.Charset, got.By)
		}
		if !utf8.Valid(got.UTF8) {
			t.Fatalf("%q read as invalid UTF-8 %q", raw, got.UTF8)
		}
		if bytes.HasPrefix(got.UTF8, []byte("\ufeff")) {
			t.Fatalf("%q read with its mark", raw)
		}
	})
}

// TestMetaCharset reads the declared charset from <meta> tags in any case.
func TestMetaCharset(t *testing.T) {
	tests := []struct{ head, want string }{
		{`<html><head><META CHARSET="ISO-8859-1"></head>`, "iso-8859-1"},
		{`<Meta http-equiv="Content-Type" content="text/html; Charset = 'Shift_JIS'">`, "shift_jis"},
		{`<meta name="viewport" content="width=device-width"><meta charset=utf-8>`, "utf-8"},
		{`<p>charset=latin1</p><meta name=x>`, ""},
		{`<metA charset`, ""},
		{`<me`, ""},
		{`<script>var s = "<meta charset=koi8-r>";</script>`, "koi8-r"},
	}
	for _, tc := range tests {
		if got := MetaCharset([]byte(tc.head)); got != tc.want {
			t.Errorf("MetaCharset(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}
