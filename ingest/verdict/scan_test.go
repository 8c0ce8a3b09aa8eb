package verdict

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// notFree finds what the regular expression it replaced found, on ASCII
// input.
func FuzzNotFree(f *testing.F) {
	re := regexp.MustCompile(`(?i)"isAccessibleForFree"\s*:\s*"?false`)
	for _, s := range []string{`{"isAccessibleForFree": false}`, `{"isAccessibleForFree":"False"}`, `"ISACCESSIBLEFORFREE"` + "\t:\n\"false",
		`{"isAccessibleForFree": true}`, `"isAccessibleForFree" false`, `""isAccessibleForFree":false`, `"isAccessibleForFre`, `"i"I"isaccessibleforfree":false`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, b := range raw {
			if b >= utf8.RuneSelf {
				return
			}
		}
		if got, want := notFree(raw), re.Match(raw); got != want {
			t.Errorf("notFree(%q) = %v, want %v", raw, got, want)
		}
	})
}

// kindsIn finds in one pass what a search for each word of the lowercased
// name finds.
func FuzzKindsIn(f *testing.F) {
	for _, s := range []string{"g-recaptcha", "CookieBanner", "cf-chl-widget", "site-paywall x", "qc-cmp2-container", "pay", "ok", "Cooki\u212ae-banner", "\u0130"} {
		f.Add(s)
	}
	for _, l := range [][]string{captchaWords, consentWords, paywallWords} {
		for _, w := range l {
			f.Add("x " + strings.ToUpper(w) + " y")
		}
	}
	all := captchaKind | consentKind | paywallKind
	f.Fuzz(func(t *testing.T, name string) {
		for want := 0; want <= all; want++ {
			if got, exp := kindsIn(name, want), kindsInLower(strings.ToLower(name), want); got != exp {
				t.Errorf("kindsIn(%q, %b) = %b, want %b", name, want, got, exp)
			}
		}
	})
}

// The scan counts as code the scripts that can build a page, and takes an
// application root holding no text, or only a loading placeholder, for an
// empty one; the tree and the tokens agree on every case.
func TestShellSignals(t *testing.T) {
	runtime := "<script>" + strings.Repeat("x", inlineCodeBytes) + "</script>"
	snippet := "<script>" + strings.Repeat("x", inlineCodeBytes-1) + "</script>"
	tests := []struct {
		page      string
		code      int
		emptyRoot bool
	}{
		{`<script src="/main.js"></script>`, 1, false},
		{`<script type="module" src="/index.js"></script><script type="text/javascript" src="/a.js"></script>`, 2, false},
		{`<script type="application/ld+json" src="/x.json"></script><script type="text/template" src="/t.html"></script>`, 0, false},
		{`<script type="application/ld+json">` + strings.Repeat("x", 2*inlineCodeBytes) + `</script>`, 0, false},
		{runtime, 1, false},
		{snippet, 0, false},
		{`<script src=""></script>`, 0, false},
		{`<div id="root"></div>`, 0, true},
		{`<div id="App"><div class="spinner"></div></div>`, 0, true},
		{`<app-root></app-root>`, 0, true},
		{`<div role="application"><p>Loading…</p></div>`, 0, true},
		{`<div id="app"><p>Wird geladen …</p></div>`, 0, true},
		{`<div id="app"><p>Loading the rest of the story</p></div>`, 0, false},
		{`<div id="app"><p>Opening hours</p></div>`, 0, false},
		{`<div id="app"><p>Unser Laden</p></div>`, 0, false},
		{`<div id="root"><p hidden>Opening hours</p></div>`, 0, true},
		{`<div id="main"></div>`, 0, false},
		{`<div id="app"><div id="root"></div><p>Opening hours and prices</p></div>`, 0, true},
	}
	for _, tt := range tests {
		raw := []byte("<!doctype html><html><head><title>t</title></head><body>" + tt.page + "</body></html>")
		doc, err := html.ParseWithOptions(bytes.NewReader(raw), html.ParseOptionEnableScripting(false))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]*signals{"tree": walk(doc, raw), "tokens": tokenize(raw)} {
			if s.code != tt.code || s.emptyRoot != tt.emptyRoot {
				t.Errorf("%s from the %s: code %d, empty root %v; want %d, %v", tt.page, name, s.code, s.emptyRoot, tt.code, tt.emptyRoot)
			}
		}
	}
}
