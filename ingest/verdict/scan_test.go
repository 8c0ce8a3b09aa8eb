package verdict

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
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
