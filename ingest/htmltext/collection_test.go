package htmltext

import (
	"strings"
	"testing"
)

// A list of posts whose teasers are <article>s made of their <header>
// alone (a title, a summary, a byline) keeps the teasers: such a header
// is the whole entry, not the heading of one.
func TestTeaserHeadersKept(t *testing.T) {
	res, err := Extract(readFixture(t, "teaser-headers.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"New colours for the studio headphones arrive in shops", "Hands on with live translation in the new earbuds",
		"Firmware update for the over-ear model is out", "The wired adapter is gone from the store"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks teaser %q:\n%s", w, res.Text)
		}
	}
	if strings.Contains(res.Text, "All rights reserved") {
		t.Errorf("text has the footer:\n%s", res.Text)
	}
}

// A listing the strict reading finds stays the content when the reading
// without class hints finds only some longer text the hints had removed
// (a cookie preference panel) and no listing.
func TestListingOverHintedText(t *testing.T) {
	res, err := Extract(readFixture(t, "listing-beside-consent.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Weeknight lemon chicken with crispy potatoes", "Mushroom risotto with parmesan and thyme", "Vegetable curry with chickpeas and coconut"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks card %q:\n%s", w, res.Text)
		}
	}
	if strings.Contains(res.Text, "These cookies") {
		t.Errorf("text has the cookie panel:\n%s", res.Text)
	}
}

// A run of teasers inside a block named as furniture (a widget of more
// posts) does not stand for the page against the article that only the
// reading without class hints finds (its wrapper has a misleading name).
func TestHintedArticleOverWidgetPosts(t *testing.T) {
	res, err := Extract(readFixture(t, "article-beside-posts-widget.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "ending two years of argument at council meetings.") {
		t.Errorf("text lacks the article:\n%s", res.Text)
	}
}
