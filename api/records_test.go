package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// TestSourceRecordPerInput sends a DOCX, its text as a plain body, and the
// DOCX again to one server: each answer's data.source.record is the one
// of the bytes sent, and GET /v1/sources/{hash} lists both records.
func TestSourceRecordPerInput(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	docx := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(
		doctexttest.Paragraph("Nitrate in the central zone rose by a third between 2019 and 2023.") +
			doctexttest.Paragraph("The rise followed the new fertiliser schedule."))))
	post := func(contentType string, body []byte) wire.DigestData {
		t.Helper()
		resp, b := c.do(t, h, "POST", "/v1/digest?query=nitrate", contentType, body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", contentType, resp.StatusCode, b)
		}
		var d wire.DigestData
		if err := json.Unmarshal(decodeEnvelope(t, b).Data, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	first := post(mediaTypes["docx"], docx)
	_, text := c.do(t, h, "GET", "/v1/archive/"+first.Source.ArchiveHash.String(), "", nil)
	records := map[string]string{}
	for _, in := range []struct {
		kind, contentType string
		raw               []byte
	}{
		{"docx", mediaTypes["docx"], docx},
		{"text", "text/plain", text},
		{"docx", mediaTypes["docx"], docx},
	} {
		d := post(in.contentType, in.raw)
		rec := d.Source.Record
		if d.Source.ArchiveHash != first.Source.ArchiveHash {
			t.Fatalf("%s: another text", in.kind)
		}
		if d.Source.Kind != in.kind || rec.RawSHA256 != archive.Sum(in.raw) || rec.RawBytes != len(in.raw) {
			t.Errorf("%s sent: answered %s, record of %s (%d bytes)", in.kind, d.Source.Kind, rec.RawSHA256, rec.RawBytes)
		}
		if prev, ok := records[in.kind]; ok && prev != d.Source.RecordHash.String() {
			t.Errorf("%s again: record %s, was %s", in.kind, d.Source.RecordHash, prev)
		}
		records[in.kind] = d.Source.RecordHash.String()
	}
	resp, b := c.do(t, h, "GET", "/v1/sources/"+first.Source.ArchiveHash.String(), "", nil)
	var got pipeline.SourceRecords
	if err := json.Unmarshal(decodeEnvelope(t, b).Data, &got); resp.StatusCode != 200 || err != nil {
		t.Fatalf("GET /v1/sources: %d %s", resp.StatusCode, b)
	}
	listed := map[string]string{}
	var raws []string
	for _, r := range got.Records {
		listed[r.Record.Kind] = r.RecordHash.String()
		raws = append(raws, r.Record.RawSHA256.String())
	}
	if got.RecordCount != 2 || fmt.Sprint(listed) != fmt.Sprint(records) || !slices.IsSorted(raws) {
		t.Errorf("GET /v1/sources: %d records %v (raw %v), want %v in the order of their raw hashes", got.RecordCount, listed, raws, records)
	}
	if listed[got.Record.Kind] != got.RecordHash.String() {
		t.Errorf("the source's record %s is not among its records", got.RecordHash)
	}
}
