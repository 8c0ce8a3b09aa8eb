package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/wire"
)

// checkText is a small paper of several sentences about one topic; digested
// with short snippets, each snippet is about one sentence.
const checkText = sampleText + `Transmission to children happens in the womb, during delivery, or through breastfeeding.
Antiretroviral therapy during pregnancy lowers the transmission rate to below two percent.
Breastfeeding children of treated mothers had a lower rate of infection than expected.
The risk of MTCT rises with the mother's viral load at delivery.
`

type locateData struct {
	Results []struct {
		QuoteIndex int      `json:"quote_index"`
		Match      string   `json:"match"`
		SourceID   *string  `json:"source_id"`
		Locator    *string  `json:"locator"`
		Text       *string  `json:"text"`
		Similarity *float64 `json:"similarity"`
	} `json:"results"`
	Counts map[string]int `json:"counts"`
}

func TestLocate(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	quotes := []string{
		"Placental DC-SIGNR expression plays a crucial role in MTCT",                        // exact
		"placental dc‐signr EXPRESSION plays a crucial\nrole in MTCT",                       // normalized
		"The study enrolled 197 mother-child pairs in Harare, Zimbabwe, from 2002 and 2005", // fuzzy
		"Quantum chromodynamics describes the strong interaction of quarks",                 // not found
	}
	body, _ := json.Marshal(map[string]any{
		"sources": []map[string]string{{"id": "other", "text": "Nothing relevant is written here at all."}, {"id": "paper", "text": sampleText}},
		"quotes":  quotes,
	})
	resp, b := c.do(t, h, "POST", "/v1/locate", "application/json", body)
	if resp.StatusCode != 200 {
		t.Fatalf("locate: %d %s", resp.StatusCode, b)
	}
	env := decodeEnvelope(t, b)
	var d locateData
	json.Unmarshal(env.Data, &d)
	want := []string{"exact", "normalized", "fuzzy", "not_found"}
	if len(d.Results) != len(quotes) {
		t.Fatalf("%d results for %d quotes", len(d.Results), len(quotes))
	}
	for i, r := range d.Results {
		if r.QuoteIndex != i || r.Match != want[i] {
			t.Errorf("quote %d: %+v, want %s", i, r, want[i])
			continue
		}
		if r.Match == "not_found" {
			if r.Locator != nil || r.Text != nil || r.SourceID != nil {
				t.Errorf("not_found with a span: %+v", r)
			}
			continue
		}
		var s, e int
		fmt.Sscanf(*r.Locator, "char:%d-%d", &s, &e)
		if *r.SourceID != "paper" || *r.Text != pyslice(sampleText, s, e) {
			t.Errorf("quote %d: %s %q is not the text's span", i, *r.Locator, *r.Text)
		}
	}
	if d.Counts["exact"] != 1 || d.Counts["normalized"] != 1 || d.Counts["fuzzy"] != 1 || d.Counts["not_found"] != 1 {
		t.Errorf("counts %v", d.Counts)
	}
	if !strings.Contains(string(b), `"QUOTES_NOT_FOUND"`) {
		t.Errorf("no QUOTES_NOT_FOUND warning: %s", b)
	}

	for _, bad := range []string{
		`{"sources":[{"text":"x"}],"quotes":[]}`,
		`{"sources":[],"quotes":["x"]}`,
		`{"sources":[{"text":"x"}],"quotes":["x"],"min_similarity":2}`,
		`{"sources":[{"id":"a","text":"x"},{"id":"a","text":"y"}],"quotes":["x"]}`,
		`{"sources":[{"archive":"sha256:` + strings.Repeat("0", 64) + `"}],"quotes":["x"]}`,
		fmt.Sprintf(`{"sources":[{"text":"x"}],"quotes":[%s]}`, strings.TrimSuffix(strings.Repeat(`"q",`, 101), ",")),
	} {
		resp, b := c.do(t, h, "POST", "/v1/locate", "application/json", []byte(bad))
		if resp.StatusCode != 400 && resp.StatusCode != 404 {
			t.Errorf("%s: %d %s", bad, resp.StatusCode, b)
		}
		errorOf(t, b)
	}
}

// TestCheckReportFromDigest builds a report from a real digest — snippets
// cited at their place, at another snippet's place, a quote the source
// lacks, unknown sources, footnotes and an unquoted sentence — and checks
// that every citation is classified as built.
func TestCheckReportFromDigest(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, b := c.do(t, h, "POST", "/v1/digest?query=MTCT+transmission+children&snippet_max_chars=120", "text/plain", []byte(checkText))
	var d wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &d)
	sn := d.Digest.EvidenceSnippets
	one := func(i int) string { return strings.ReplaceAll(sn[i].Text, "\n", " ") }
	if len(sn) < 3 {
		t.Fatalf("want ≥ 3 snippets, got %d", len(sn))
	}
	hash := d.Source.ArchiveHash.String()
	missing := "sha256:" + strings.Repeat("ab", 32)
	type want struct{ status, locator string }
	var report strings.Builder
	var wants []want
	add := func(line string, w ...want) {
		report.WriteString(line + "\n")
		wants = append(wants, w...)
	}
	add(fmt.Sprintf("The paper says “%s” [p#%s].", sn[0].Text, sn[0].Locator), want{"supported", sn[0].Locator})
	add(fmt.Sprintf("It also says “%s” [p#%s].", sn[1].Text, sn[0].Locator), want{"moved", sn[1].Locator})
	add(fmt.Sprintf("By hash: “%s” [%s#%s].", sn[2].Text, hash, sn[2].Locator), want{"supported", sn[2].Locator})
	add(fmt.Sprintf("Lower-cased, “%s” [p].", strings.ToLower(sn[1].Text)), want{"supported", sn[1].Locator})
	add("It claims “vaccines were distributed by drones in Antarctica” [p].", want{"not_found", ""})
	add(fmt.Sprintf("Another source says “%s” [nobody].", sn[0].Text), want{"unknown_source", ""})
	add(fmt.Sprintf("An unarchived hash says “%s” [%s].", sn[0].Text, missing), want{"unknown_source", ""})
	add("A footnote cites it.[^1] A second one moved.[^2]", want{"supported", sn[2].Locator}, want{"moved", sn[2].Locator})
	add("Placental DC-SIGNR expression is crucial for MTCT of HIV-1 [p].", want{"supported", ""})
	add("Budget airlines dominate transatlantic leisure travel markets [p].", want{"not_found", ""})
	add("")
	add(fmt.Sprintf("[^1]: %s#%s “%s”", hash, sn[2].Locator, one(2)))
	add(fmt.Sprintf("[^2]: [p#%s] \"%s\"", sn[0].Locator, one(2)))

	body, _ := json.Marshal(map[string]any{"report": report.String(), "sources": []map[string]string{{"id": "p", "archive": hash}}})
	resp, b := c.do(t, h, "POST", "/v1/check", "application/json", body)
	if resp.StatusCode != 200 {
		t.Fatalf("check: %d %s", resp.StatusCode, b)
	}
	var cd struct {
		Citations []struct {
			Marker, Status string
			Locator        *string
			Text           *string
			Support        *struct {
				Locator string
				Score   float64
			}
		}
		Counts map[string]int
	}
	json.Unmarshal(decodeEnvelope(t, b).Data, &cd)
	if len(cd.Citations) != len(wants) {
		t.Fatalf("%d citations, want %d: %s", len(cd.Citations), len(wants), b)
	}
	for i, w := range wants {
		got := cd.Citations[i]
		if got.Status != w.status {
			t.Errorf("citation %d %s: %s, want %s", i, got.Marker, got.Status, w.status)
			continue
		}
		if w.locator != "" && (got.Locator == nil || *got.Locator != w.locator) {
			t.Errorf("citation %d %s: locator %v, want %s", i, got.Marker, deref(got.Locator), w.locator)
		}
	}
	unq := cd.Citations[len(wants)-2]
	if unq.Support == nil || unq.Support.Score < 0.5 || !strings.Contains(*unq.Text, "DC-SIGNR") {
		t.Errorf("unquoted sentence: support %+v", unq.Support)
	}
	if cd.Counts["supported"] != 5 || cd.Counts["moved"] != 2 || cd.Counts["not_found"] != 2 || cd.Counts["unknown_source"] != 2 {
		t.Errorf("counts %v", cd.Counts)
	}
	for _, code := range []string{"CITATIONS_MOVED", "CITATIONS_NOT_FOUND", "CITATIONS_UNKNOWN_SOURCE"} {
		if strings.Count(string(b), `"code":"`+code+`"`) != 1 {
			t.Errorf("want one %s warning: %s", code, b)
		}
	}

	resp, b = c.do(t, h, "POST", "/v1/check", "application/json", []byte(`{"report":"No citations here."}`))
	if resp.StatusCode != 200 || !strings.Contains(string(b), "NO_CITATIONS") {
		t.Errorf("no citations: %d %s", resp.StatusCode, b)
	}
	resp, b = c.do(t, h, "POST", "/v1/check", "application/json", []byte(`{"report":""}`))
	if resp.StatusCode != 400 {
		t.Errorf("empty report: %d %s", resp.StatusCode, b)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestLocateInPDFGivesPageLocators: quotes of a PDF are located by page,
// offsets counting the whole text.
func TestLocateInPDFGivesPageLocators(t *testing.T) {
	h, pipe := newTestServer(t, api.Config{})
	pipe.Ingester.PDF = fakePDF{pages: []string{"Introduction page about something else entirely.", "", "Results: placental transmission of HIV-1 was observed in Harare."}}
	c := loadContract(t)
	body, _ := json.Marshal(map[string]any{
		"sources": []map[string]string{{"id": "pdf", "pdf_base64": "JVBERi0xLjQgZmFrZQ=="}},
		"quotes":  []string{"placental transmission of HIV‐1 was observed", "Introduction page"},
	})
	resp, b := c.do(t, h, "POST", "/v1/locate", "application/json", body)
	if resp.StatusCode != 200 {
		t.Fatalf("locate: %d %s", resp.StatusCode, b)
	}
	var d locateData
	json.Unmarshal(decodeEnvelope(t, b).Data, &d)
	var hash struct {
		Sources []struct {
			ArchiveHash string `json:"archive_hash"`
		} `json:"sources"`
	}
	json.Unmarshal(decodeEnvelope(t, b).Data, &hash)
	_, text := c.do(t, h, "GET", "/v1/archive/"+hash.Sources[0].ArchiveHash, "", nil)
	for i, want := range []int{3, 1} {
		r := d.Results[i]
		if r.Locator == nil {
			t.Fatalf("quote %d not found", i)
		}
		loc, err := digest.ParseLocator(*r.Locator)
		if err != nil || loc.Page != want {
			t.Errorf("quote %d: %s, want page %d", i, *r.Locator, want)
			continue
		}
		if err := loc.Verify(string(text), *r.Text); err != nil {
			t.Errorf("quote %d: %v", i, err)
		}
	}
}

// TestLocateAndCheckKeepGoingWhenASourceFails: a source that cannot be
// fetched or read goes to data.failed with its code and a PARTIAL_FAILURE
// warning, and the other sources are still used; only when every source
// fails is the answer an error.
func TestLocateAndCheckKeepGoingWhenASourceFails(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	sources := []map[string]string{
		{"id": "paper", "text": sampleText},
		{"id": "web", "url": "https://example.org/paper"},                    // no fetcher on this server
		{"id": "absent", "archive": "sha256:" + strings.Repeat("1", 64)},     // never archived
		{"id": "impossible", "archive": "sha256:" + strings.Repeat("0", 64)}, // refused before loading
	}
	type failedData struct {
		Failed []struct {
			ID   string `json:"id"`
			Code string `json:"error_code"`
		} `json:"failed"`
		Sources []struct {
			ID string `json:"id"`
		} `json:"sources"`
	}
	check := func(route string, body map[string]any) []byte {
		t.Helper()
		resp, b := c.do(t, h, "POST", route, "application/json", []byte(mustJSON(body)))
		if resp.StatusCode != 200 {
			t.Fatalf("%s with a failing source: %d %s", route, resp.StatusCode, b)
		}
		env := decodeEnvelope(t, b)
		var d failedData
		json.Unmarshal(env.Data, &d)
		got := map[string]string{}
		for _, f := range d.Failed {
			got[f.ID] = f.Code
		}
		if len(got) != 3 || got["web"] == "" || got["absent"] != "NOT_FOUND" || got["impossible"] != "NOT_FOUND" {
			t.Errorf("%s: failed %+v, want web, absent and impossible with their codes", route, d.Failed)
		}
		if len(d.Sources) != 1 || d.Sources[0].ID != "paper" {
			t.Errorf("%s: sources %+v, want paper alone", route, d.Sources)
		}
		if !strings.Contains(string(b), `"PARTIAL_FAILURE"`) {
			t.Errorf("%s: no PARTIAL_FAILURE warning: %s", route, b)
		}
		return b
	}
	b := check("/v1/locate", map[string]any{"sources": sources, "quotes": []string{"Placental DC-SIGNR expression plays a crucial role in MTCT"}})
	var d locateData
	json.Unmarshal(decodeEnvelope(t, b).Data, &d)
	if len(d.Results) != 1 || d.Results[0].Match != "exact" || *d.Results[0].SourceID != "paper" {
		t.Errorf("locate: the quote was not found in the source that loaded: %s", b)
	}
	b = check("/v1/check", map[string]any{"sources": sources,
		"report": `DC-SIGNR "plays a crucial role in MTCT" [paper]. It is "on the web" [web].`})
	if !strings.Contains(string(b), `"supported":1`) || !strings.Contains(string(b), `"unknown_source":1`) {
		t.Errorf("check: want the paper's citation supported and the failed source's unknown: %s", b)
	}

	for _, route := range []string{"/v1/locate", "/v1/check"} {
		body := map[string]any{"sources": sources[1:], "quotes": []string{"x"}}
		if route == "/v1/check" {
			body = map[string]any{"sources": sources[1:], "report": `"x" [web].`}
		}
		resp, b := c.do(t, h, "POST", route, "application/json", []byte(mustJSON(body)))
		if resp.StatusCode < 400 {
			t.Errorf("%s with every source failing: %d %s", route, resp.StatusCode, b)
			continue
		}
		if e := errorOf(t, b); e.Details["failed"] == nil {
			t.Errorf("%s with every source failing: details %v lack the failures", route, e.Details)
		}
	}
}
