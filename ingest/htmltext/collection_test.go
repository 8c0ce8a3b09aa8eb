package htmltext

import (
	"slices"
	"testing"
)

func TestCollectionPages(t *testing.T) {
	checkPages(t, []pageCase{
		// A list of posts whose teasers are <article>s made of their <header>
		// alone (a title, a summary, a byline) keeps the teasers: such a
		// header is the whole entry, not the heading of one.
		{
			name:    "teasers made of a header alone are kept",
			fixture: "teaser-headers.html",
			has: []string{"New colours for the studio headphones arrive in shops", "Hands on with live translation in the new earbuds",
				"Firmware update for the over-ear model is out", "The wired adapter is gone from the store"},
			hasNot: []string{"All rights reserved"},
		},
		// A listing the strict reading finds stays the content when the
		// reading without class hints finds only some longer text the hints
		// had removed (a cookie preference panel) and no listing.
		{
			name:    "a listing wins over text only the unhinted reading finds",
			fixture: "listing-beside-consent.html",
			has:     []string{"Weeknight lemon chicken with crispy potatoes", "Mushroom risotto with parmesan and thyme", "Vegetable curry with chickpeas and coconut"},
			hasNot:  []string{"These cookies"},
		},
		// A run of teasers inside a block named as furniture (a widget of
		// more posts) does not stand for the page against the article that
		// only the reading without class hints finds (its wrapper has a
		// misleading name).
		{
			name:    "an article wins over teasers in a furniture-named widget",
			fixture: "article-beside-posts-widget.html",
			has:     []string{"ending two years of argument at council meetings."},
		},
		// aria-hidden on a word or a link only keeps it from being read
		// aloud (a screen reader reads a fuller twin): the text is shown and
		// stays; on a block (a carousel's cloned slide) it still hides.
		{
			name:    "aria-hidden words are shown",
			fixture: "aria-hidden-labels.html",
			has:     []string{"Forty pounds per visit, ladders included.", "Twenty-five pounds per visit", "Thirty pounds per visit"},
			hasNot:  []string{"A copy of the slide"},
		},
		// Entries whose first class name is their own post number
		// ("post-30100", "post-30107") are items of one list: the digits
		// make no shape, so the titles are read as the listing below the
		// category's introduction.
		{
			name:    "entries with numbered class names are one list",
			fixture: "listing-post-id-classes.html",
			has: []string{"we bake a tray of vegetables on Sunday", "Sticky lemon chicken thighs with rice",
				"Cottage cheese bagels for breakfast", "Zucchini chips with parmesan"},
			hasNot: []string{"All rights reserved"},
		},
		// The labels of a card's template, repeated word for word in every
		// card of a grid read as the page's content (a term of a
		// description list, text for screen readers only, a second link to
		// the card's own page), are left out; the values they name stay,
		// linked or not.
		{
			name:    "labels every card repeats are left out",
			fixture: "collection-card-labels.html",
			has:     []string{"Studio Over-Ear Headphones", "Belmont", "$499.95", "Ships in 2 days", "Balanced Headphone Cable"},
			hasNot:  []string{"Vendor:", "Price", "Shipping\n", "View details", "All rights reserved"},
		},
		// A run of many entries (<article> elements or microformat
		// entries), each a linked heading with a line or two, inside the
		// chosen content is a listing's cards however few words they hold,
		// not a block of links to leave out.
		// The same run of entries after the body of a page that declares an
		// article is its related posts, and stays out.
		{
			name:    "an article's run of related entries stays out",
			fixture: "article-related-entries.html",
			has:     []string{"The council approved the new tram line", "cutting the journey from forty minutes", "A long wait"},
			hasNot:  []string{"Bridge repairs close the eastern ring road", "City budget adds money for roads", "All rights reserved"},
		},
		{
			name:    "a run of linked entries in the content stays",
			fixture: "entry-cards-after-intro.html",
			has:     []string{"Every model comes with a card", "acme/vision-small", "north/depth-pro", "Updated 4 days ago"},
			hasNot:  []string{"All rights reserved"},
		},
		// A grid of product cards inside the chosen content whose text is
		// mostly unlinked fields (a price, a rating, attributes), each card
		// with its linked name, is a listing: the names stay with their
		// fields, beside the buying guide below the grid. A control every
		// card repeats (an element with the role of a button) is a label of
		// the card's template, left out of a listing inside the content as
		// out of a list read as the page's content.
		{
			name:    "product cards of unlinked fields keep their linked names",
			fixture: "collection-field-cards.html",
			has:     []string{"Alder Meadow 4 Tent\n$319.00", "Kestrel Summit 1 Tent", "Alder Prairie 8 Tent XL", "Choosing a camping tent", "Clean the zippers with a soft brush"},
			hasNot:  []string{"All rights reserved", "Save to list", "AlderMeadow"},
		},
		// A catalogue whose body is a few groups, each a heading over a
		// grid of link cards, below a short introduction: the groups count
		// by their cards, so the cards are the content with the
		// introduction, not a block of links to leave out.
		{
			name:    "a few groups of link cards are a catalogue's content",
			fixture: "catalogue-card-groups.html",
			has: []string{"Our collection of tomato sauce recipes", "Pasta sauces", "Slow-cooked pork ragù with pappardelle",
				"Sicilian sfincione topping", "Classic béarnaise with tarragon vinegar"},
			hasNot: []string{"All rights reserved"},
		},
		// The columns of a menu, each a list of many links, are no group of
		// cards: the short article beside them stays the content.
		{
			name:    "columns of a menu are no groups of cards",
			fixture: "article-beside-menu-columns.html",
			has:     []string{"Nobody likes conflict"},
			hasNot:  []string{"Issue 07/2019", "Newsletter sign-up"},
		},
		// A chapter's table of contents read as the page's content keeps
		// the chapter's introduction after it, which the search left out
		// with the links around it.
		{
			name:    "an index keeps its introduction",
			fixture: "index-toc-then-intro.html",
			has:     []string{"9.2.3. Continuous archiving", "9.13. Upgrading through a backup", "a database should be backed up regularly."},
			hasNot:  []string{"All rights reserved"},
		},
		// Two fields of a card set side by side without white space (a
		// brand and a name, a price and the price it replaces) are two
		// words in a listing, whether it is the page's content or inside it.
		{
			name:    "a card's adjacent fields are separate words",
			fixture: "listing-joined-fields.html",
			has:     []string{"Aster Studio Headphones", "$199 was $249", "Corvid Desk Amplifier"},
			hasNot:  []string{"AsterStudio", "All rights reserved"},
		},
	})
}

// The article's blocks that a list read as content holds too come once,
// in the list: a post whose teasers follow it inside the list's container
// is not read twice.
func TestWithListOnce(t *testing.T) {
	intro := "Some of my friends and I are sharing the wooden projects we built with power tools this spring."
	own := "Get the latest tips and tutorials on building furniture delivered to your inbox every week."
	article := []string{own, intro, "Ten easy wood projects"}
	items := []string{intro, "Ten easy wood projects", "Industrial pipe bookshelf", "Reclaimed wood arrows", "Rustic fireplace mantel"}
	got := withList(article, items)
	want := append([]string{own}, items...)
	if !slices.Equal(got, want) {
		t.Errorf("withList =\n%q\nwant\n%q", got, want)
	}
	// An article all of whose prose the list holds gives the list alone.
	if got := withList(article[1:], items); !slices.Equal(got, items) {
		t.Errorf("withList without prose of its own =\n%q\nwant the items", got)
	}
}
