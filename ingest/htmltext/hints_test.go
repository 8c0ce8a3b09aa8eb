package htmltext

import "testing"

// hasToken reads a class or id as runs of a-z, 0-9 and '-', and matches a
// token or the first word of a compound.
func TestHasToken(t *testing.T) {
	tokens := setOf("ad", "nav")
	for s, want := range map[string]bool{
		"ad": true, "ad-slot": true, "top_ad": true, "nav2": false, "header-nav": false,
		"héader ad": true, "Ad": false, "-ad": false, "ads": false, "": false, "x\xffad": true,
	} {
		if got := hasToken(s, tokens); got != want {
			t.Errorf("hasToken(%q) = %v, want %v", s, got, want)
		}
	}
}
