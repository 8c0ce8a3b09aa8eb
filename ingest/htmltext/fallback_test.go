package htmltext

import (
	"strings"
	"testing"
)

// A page whose every element the cleaning removes (here a thread inside a
// form, without paragraphs) still yields its visible text.
func TestNothingLeftFallsBackToText(t *testing.T) {
	page := `<html><body><form action="/post"><table><tr><td class="comment">I cannot reach the store over mobile data since the update.<br>Anyone else?</td></tr>
<tr><td class="comment">Same here, on two phones.</td></tr></table></form></body></html>`
	res, err := Extract([]byte(page), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "Same here, on two phones.") {
		t.Errorf("text lost: %q", res.Text)
	}
}
