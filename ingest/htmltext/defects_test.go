package htmltext

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/internal/htmlwalk"
	"golang.org/x/net/html"
)

// TestDefectPages extracts pages that once came out wrong; each case guards
// the rule that put its page right.
func TestDefectPages(t *testing.T) {
	threadReplies := []string{"Start with a jack plane", "I would add a block plane soon after"}
	const threadOpening = "flatten boards without a planer"
	checkPages(t, []pageCase{
		// The climb from the article's body to a common ancestor of the
		// strong candidates passes a wrapper that also holds link lists;
		// the filters drop that wrapper, and the article with it, unless
		// the wrappers of the best-scoring body stay (see holdBest).
		{
			name:    "an article in a linked wrapper is not lost on the climb",
			fixture: "article-in-linked-wrapper.html",
			has:     []string{"The harbour board voted on Tuesday", "Councillors for the island thanked the board"},
			hasNot:  []string{"Topic page number"},
		},
		// The same, when each paragraph of the body sits in a block of its
		// own: holdBest counts the body's prose paragraphs at any depth.
		{
			name:    "an article of nested paragraphs in a linked wrapper is not lost on the climb",
			fixture: "article-nested-in-linked-wrapper.html",
			has:     []string{"The harbour board voted on Tuesday", "Councillors for the island thanked the board"},
			hasNot:  []string{"Topic page number"},
		},
		// A modal dialog (role dialog with aria-modal="true": a consent
		// form over the page) is no text of the page, in the reading
		// without class hints that a short page gets too.
		{
			name:    "a modal consent dialog stays out of a short page",
			fixture: "product-modal-consent.html",
			has:     []string{"Folding camp stool, ash wood", "Three legs of oiled ash", "Holds up to 110 kg"},
			hasNot:  []string{"We value your privacy", "Analytics technologies collect", "Advertising technologies follow"},
		},
		// A box whose class names a popover (a form shown on demand over
		// the page, such as a price feedback form) is furniture, as a
		// popup or a modal is.
		{
			name:    "a popover inside the content stays out",
			fixture: "product-popover.html",
			has:     []string{"A folding lantern for the tent", "USB-C charging", "In the box: the lantern"},
			hasNot:  []string{"Found a lower price", "Where did you see a lower price"},
		},
		// A card that shows its title and date twice (one copy per screen
		// size) reads them once; a line every card of the run states (the
		// price) stays once per card.
		{
			name:    "a card's title shown twice is read once",
			fixture: "listing-card-twice.html",
			counts:  map[string]int{"Pottery for beginners": 1, "Sat, Apr 11, 10:00 AM": 1, "Beginner chess evening": 1, "Free": 5},
			has:     []string{"Clay Studio North", "Knights Club"},
		},
		// Lines repeated inside one element (a song's chorus) are not an
		// item's second copy: they stay.
		{
			name:    "a chorus inside one verse stays",
			fixture: "song-chorus.html",
			counts:  map[string]int{"Sing the harbour lights": 2},
		},
		// A listing page keeps its whole run of cards (titles and prices), not
		// one card and not the links around it.
		{
			name:    "a listing keeps its whole run of cards",
			fixture: "listing.html",
			has:     []string{"Cast iron skillet, 10 inch", "$39.99", "Carbon steel wok with lid", "Cast iron griddle, reversible", "$49.00"},
			hasNot:  []string{"Privacy", "Jobs", "Skip to content"},
		},
		// Content chosen directly under <body> is not repeated by the lead step:
		// each paragraph appears once.
		{
			name:    "content under body is not repeated by the lead step",
			fixture: "body-child-article.html",
			counts:  map[string]int{"After a decade away": 1, "Tickets go on sale next week": 1},
		},
		// A wrapper whose class names a sidebar but that holds the headline and
		// most of the page's text (a sticky-sidebar layout) is not removed with
		// the article inside it, even when other text (a long consent notice)
		// would stand in for it.
		{
			name:    "a sidebar-named wrapper of the article stays",
			fixture: "sidebar-wrapper.html",
			has:     []string{"River festival returns this weekend", "boat races", "Food stalls will take cards"},
		},
		// When the content is a child of <body>, which brings the whole page
		// along, containers marked as comments or as the site footer stay out.
		{
			name:    "content under body leaves comments and footer out",
			fixture: "body-child-furniture.html",
			has:     []string{"open on Sundays from the first of March", "story time on Sunday mornings"},
			hasNot:  []string{"I have been waiting", "café downstairs", "Town Hall Square"},
		},
		// When the chosen container holds a small part of the <main> landmark
		// (a description beside its specifications), the landmark is the content;
		// a run of link cards inside it (customers also viewed) stays out.
		{
			name:    "the main landmark widens a small content choice",
			fixture: "main-landmark.html",
			has:     []string{"keeps up to thirty metres of hose tidy", "Burst pressure 24 bar", "Frost range to -20 C"},
			hasNot:  []string{"Brass spray gun with seven patterns", "Rain barrel", "Privacy"},
		},
		// A product description the page keeps in a hidden tab comes from its
		// JSON-LD Product object, without markup, once.
		{
			name:    "a hidden product description comes from JSON-LD once",
			fixture: "product-jsonld.html",
			counts:  map[string]int{"A hand-enamelled steel teapot with a removable stainless infuser, made in a small workshop": 1},
			has:     []string{"Colours in stock this week"},
			hasNot:  []string{"<b>"},
		},
		// A hidden tab panel of text (the other platform's instructions) is part
		// of the content; a hidden panel of links stays out.
		{
			name:    "hidden tab panels of text are read",
			fixture: "tab-panels.html",
			has:     []string{"sudo apt-get install example-client", "On macOS, the client comes as a signed disk image", "brew install example-client"},
			hasNot:  []string{"Older versions"},
		},
		// A category page whose short introduction stands beside a grid many
		// times longer keeps the grid after the introduction: the cards are the
		// content, the introduction is kept before them.
		{
			name:    "a category introduction keeps the grid after it",
			fixture: "category-intro-grid.html",
			has:     []string{"Each pair is tested on wet rock", "Trail runner 1, slate", "$43.00", "Track spike 80", "$277.00"},
			hasNot:  []string{"Privacy", "Sale"},
			order:   []string{"Each pair", "Trail runner 1,"},
		},
		// A news story beside a run of teaser boxes a few times its length stays
		// the content: teasers replace a text only when they dwarf it.
		{
			name:    "an article beside teasers stays",
			fixture: "article-teaser-boxes.html",
			has:     []string{"Cyclists get a lane of their own"},
			hasNot:  []string{"Council approves"},
		},
		// A page that a script reveals once loaded hides its whole article by
		// markup: the hidden wrapper that holds the headline and most of the
		// text stays, a small hidden box beside it does not.
		{
			name:    "a page hidden until loaded is read",
			fixture: "hidden-until-loaded.html",
			has:     []string{"The last lighthouse keepers of the northern coast", "The last keepers left in 1987", "Guided walks to two of the towers"},
			hasNot:  []string{"newsletter", "History"},
		},
		// A paragraph the page carries twice (a copy for small screens beside the
		// article's own) is read once; repeated table rows are data and stay, and
		// so does a step repeated in two tab panels (each an alternative).
		{
			name:    "a repeated copy is read once, repeated data twice",
			fixture: "repeated-copy.html",
			has:     []string{"lifeboat station"},
			counts: map[string]int{
				"Repairs to the old harbour wall begin":   1,
				"Closed to walkers, northern pier":        2,
				"follow the signs for the temporary path": 2,
			},
		},
		// A listing's items are found in the page's body, not in the mega menu
		// of its header nor in a box named as furniture, even when those hold
		// more text than the items.
		{
			name:    "a listing is found beside menus",
			fixture: "menu-beside-grid.html",
			has:     []string{"Magnesium citrate capsules, pack 1", "€9.50", "Magnesium citrate capsules, pack 10", "€18.50"},
			hasNot:  []string{"subcategory", "Related guide"},
		},
		// A product page (it says so in JSON-LD) reads as its description: the
		// customer reviews below it are not the content, however long they run,
		// and a box whose class merely contains "preview" is not a review.
		{
			name:    "a product page leaves its reviews out",
			fixture: "product-reviews.html",
			has:     []string{"Ripstop nylon body", "a padded hip belt"},
			hasNot:  []string{"several long day hikes", "zips still run smoothly", "Customer reviews"},
		},
		// A page without a declaration that has a control to add its one
		// product to the cart (a form, a button) is a product page too: its
		// customer reviews stay out. A grid of products, each with such a
		// button, is no product page: the ratings of its cards stay.
		{
			name:    "a page with a cart control leaves its reviews out",
			fixture: "product-cart-reviews.html",
			has:     []string{"Ripstop nylon body", "a padded hip belt"},
			hasNot:  []string{"several long day hikes", "zips still run smoothly", "Customer reviews"},
		},
		{
			name:    "a grid of products with cart buttons keeps its ratings",
			fixture: "cart-grid-reviews.html",
			has:     []string{"Rated 4 of 5 by 10 walkers", "Rated 5 of 5 by 45 walkers"},
		},
		// Its ratings (stars, counts) are the reviews' summary and stay out
		// with them; a box whose class merely contains the letters
		// ("operating-instructions") is content.
		{
			name:    "a product page leaves its ratings out",
			fixture: "product-ratings.html",
			has:     []string{"A stove-top kettle of brushed steel", "Fill the kettle below the line"},
			hasNot:  []string{"Rated 4.6 out of 5", "Customer ratings"},
		},
		// A business that declares itself (LocalBusiness, Service) and a
		// Product that offers nothing, only to carry its star rating, sells
		// no product: the customer quotes on its page are testimonials and
		// stay, even in a block named as reviews.
		{
			name:    "a business's rating card keeps its testimonials",
			fixture: "service-rating-card.html",
			has:     []string{"We inspect your home", "found the gap under our back door", "until the ants were gone", "free inspection"},
			hasNot:  []string{"Privacy", "Jobs"},
		},
		// A product page whose buy box, with the product's title, stands
		// beside the description the selection chooses: the title the page
		// declares (JSON-LD Product name) and shows in a heading leads the
		// content.
		{
			name:    "a declared product name shown in a heading leads the content",
			fixture: "product-title-beside.html",
			order:   []string{"Copper kettle, 1.5 litres", "About this kettle", "A kettle of hammered copper"},
			hasNot:  []string{"Add to cart", "Privacy"},
		},
		// Without the declaration (a product page only by its cart button),
		// the heading stays out.
		{
			name:    "an undeclared product name stays out",
			fixture: "product-title-beside.html",
			edit:    replaceOnce(`"@type":"Product","name":"Copper kettle, 1.5 litres",`, `"@type":"WebPage",`),
			has:     []string{"A kettle of hammered copper"},
			hasNot:  []string{"Copper kettle"},
		},
		// A heading that does not read the declared name is no title.
		{
			name:    "a heading other than the declared name stays out",
			fixture: "product-title-beside.html",
			edit:    replaceOnce(`<span>kettle, 1.5 litres</span>`, `<span>kettle, on sale</span>`),
			has:     []string{"A kettle of hammered copper"},
			hasNot:  []string{"Copper kettle"},
		},
		// A product that is offered for sale on such a page is one: its
		// reviews stay out.
		{
			name:    "a business's product for sale leaves its reviews out",
			fixture: "service-rating-card.html",
			edit:    replaceOnce(`"name":"Harbour Pest Control","aggregateRating"`, `"name":"Ant bait station","offers":{"@type":"Offer","price":"12.00"},"aggregateRating"`),
			has:     []string{"We inspect your home", "free inspection"},
			hasNot:  []string{"found the gap under our back door", "until the ants were gone"},
		},
		// A review of a product, marked up as a Product, is the content when it
		// holds the page's headline and most of its text.
		{
			name:    "a review of a product stays",
			fixture: "review-article-product.html",
			has:     []string{"Harbour Lights review", "Each night you trim the wick", "quietly moving"},
		},
		// A service page whose text sits in sections laid out one after another
		// under <body> keeps every section with strong text, not only the best
		// one, and still leaves out the navigation and the footer.
		{
			name:    "service sections under body are kept",
			fixture: "service-sections.html",
			has:     []string{"Greenway Studio plans gardens", "a fixed price", "How long does a design take?", "our own crew lays paths"},
			hasNot:  []string{"Privacy", "Jobs", "Contact"},
			order:   []string{"a fixed price", "How long does"},
		},
		// A <header> inside <main> or a <section> heads that section: its
		// heading and the line beside it (a tagline without a full stop)
		// stay, while the page's banner of links goes.
		{
			name:    "headers of a service page's sections are kept",
			fixture: "service-section-heads.html",
			has: []string{"Record your screen and your camera together", "Lightning fast screen recording\nRecord on any device",
				"Edit without an editor", "add a button that takes viewers"},
			hasNot: []string{"Pricing", "Log in", "Privacy"},
		},
		// So does a block named as a header ("section-header") there: the
		// name is a weak furniture hint, and a section's title and tagline
		// without links are no page furniture.
		{
			name:    "header-named blocks of a service page's sections are kept",
			fixture: "service-section-heads.html",
			edit: replaceOnce(`<header><h2>Lightning fast screen recording</h2><p>Record on any device you own, from the browser, the desktop app or the extension for your browser</p></header>`,
				`<div class="section-header"><h2>Lightning fast screen recording</h2><p>Record on any device you own, from the browser, the desktop app or the extension for your browser</p></div>`),
			has:    []string{"Lightning fast screen recording\nRecord on any device", "Start a recording from the toolbar"},
			hasNot: []string{"Pricing", "Log in", "Privacy"},
		},
		// A heading that is a link and introduces text of its own (the title of
		// a card: a service, a product, a chapter) stays with that text; linked
		// headings that introduce nothing (a run of news titles) stay out.
		{
			name:    "linked titles with text of their own are kept",
			fixture: "linked-titles.html",
			has:     []string{"Boundary surveys\nWe mark the legal line", "Building surveys\nA full inspection", "Measured surveys\nAccurate floor plans"},
			hasNot:  []string{"Office closed on Friday", "New drone for roof surveys", "Privacy"},
		},
		// A table of contents of the page itself (a list of links to its own
		// sections) goes, with its title; the sections and the notes, whose
		// text is mostly outside their in-page links, stay.
		{
			name:    "a table of contents goes",
			fixture: "docs-toc.html",
			has: []string{"Guides to choosing cache sizes", "Sizing the page cache by hand", "Articles on eviction",
				"Least recently used, explained"},
			hasNot: []string{"Contents", "1 Guides", "1.1 Articles", "2 Warming", "3 Known"},
		},
		// A custom element named like furniture (<docs-page-footer>) and a block
		// marked "nocontent" go like their class-named twins; the article stays.
		{
			name:    "custom elements and nocontent blocks named as furniture go",
			fixture: "docs-custom-footer.html",
			has:     []string{"Signing keys should be rotated", "Checking the rotation", "the audit log records"},
			hasNot:  []string{"documentation licence", "Page revised", "Was this page helpful"},
		},
		// A page whose scripts put its parts in place hides each of them by
		// markup until they run, while little beside them is visible: the hidden
		// parts are read, the furniture among them is not.
		{
			name:    "parts hidden until scripts run are read",
			fixture: "hidden-streamed-parts.html",
			has:     []string{"thrown by hand from speckled stoneware", "washed linen on a brass frame", "ships within three working days"},
			hasNot:  []string{"newsletter"},
		},
		// A category page whose introduction lies outside the main landmark and
		// whose grid of cards lies inside it keeps the cards after the
		// introduction, even when the introduction is too long for the grid to
		// dwarf it: the page says where its content is.
		{
			name:    "a grid in the main landmark is kept after the introduction",
			fixture: "landmark-grid.html",
			has:     []string{"include designs with mesh backs", "Mesh task chair 0", "$317.00", "Stool chair 19", "Strongback"},
			hasNot:  []string{"Copyright"},
			order:   []string{"include designs", "Mesh task chair 0"},
		},
		// A page that declares itself a discussion thread (schema.org
		// DiscussionForumPosting) marks its posts with "comment" class names:
		// the replies are the content there, while the same markup on a page
		// that declares itself an article instead reads as comments under the
		// article and stays out.
		{
			name:    "posts of a declared thread are read",
			fixture: "thread-posts.html",
			has:     append(threadReplies, threadOpening),
		},
		{
			name:    "the same posts on an article page are comments and go",
			fixture: "thread-posts.html",
			edit:    declareArticle,
			has:     []string{threadOpening},
			hasNot:  threadReplies,
		},
		// A chosen container made mostly of a run of link cards (a section page of
		// news stories) keeps the cards, titles and teasers, beside its
		// introduction; a nested list of links inside a card stays out.
		{
			name:    "link cards inside the chosen container are kept",
			fixture: "news-section-cards.html",
			has: []string{"Everything that happens in Harbour Town", "River crossing reopens after spring floods",
				"Engineers say the crossing is safe again", "Town hall roof repairs finish early", "The work came in under budget"},
			hasNot: []string{"Bridges", "Privacy", "Sport"},
		},
		// Cards of one grid whose class lists differ from card to card (a post
		// number, stock state, first or last in a row) are still one list: each
		// card is kept.
		{
			name:    "cards of varied classes are one list",
			fixture: "varied-card-classes.html",
			has:     []string{"Enamel mug, 4 oz", "$14.95", "Travel cup, 10 oz", "Espresso cup set", "Cup sleeve, cork", "$9.95"},
			hasNot:  []string{"Contact"},
		},
		// A service page laid out as a run of sections (how it works, what
		// clients say, prices, questions), one of them holding most of the text
		// in a block of its own, keeps every section, not only that one; a
		// section of links (journal posts) stays out.
		{
			name:    "a run of service sections is read whole",
			fixture: "service-section-run.html",
			has: []string{"Garden design that grows with you", "Visit: a designer walks the garden",
				"They turned a muddy yard", "A design visit costs ninety pounds", "Can you work with the plants we already have?"},
			hasNot: []string{"Ten shrubs for a shady corner", "Privacy", "Services"},
		},
		// On a page that does not declare itself an article, a long section
		// holding less than pageSectionsShare of a run of sections gives way
		// to the run (the prices and questions around the service's steps);
		// on a declared article only sectionsShare of the run does.
		{
			name:    "a long section gives way to the run around it",
			fixture: "service-long-section.html",
			has:     []string{"Garden care through the seasons", "Visit: a gardener walks", "Monthly care of a small garden", "Can we pause the care plan"},
			hasNot:  []string{"Privacy", "Services"},
		},
		{
			name:    "a declared article's long section is not widened to the run",
			fixture: "service-long-section.html",
			edit:    replaceOnce(`<meta charset="utf-8">`, `<meta charset="utf-8"><meta property="og:type" content="article">`),
			has:     []string{"Visit: a gardener walks", "Report: after each visit"},
			hasNot:  []string{"Monthly care of a small garden", "Can we pause the care plan"},
		},
		// Cards that a page's scripts put in place, each hidden by markup until
		// they run, are read as the list they make when little else is visible.
		{
			name:    "cards hidden until scripts run are read",
			fixture: "hidden-streamed-cards.html",
			has:     []string{"Beaded pendant light, sand", "$49.00", "Iron chandelier, black", "Cord set, braided", "$159.00"},
			order:   []string{"Beaded pendant", "Cord set"},
		},
		// A tag manager's <noscript><iframe ... /></noscript> (an iframe written
		// as if it closed itself) would swallow the rest of the page as the
		// iframe's text when <noscript> is parsed as markup; the page goes on
		// after the <noscript>, as in a browser.
		{
			name:    "a self-closed iframe in noscript does not swallow the page",
			fixture: "noscript-iframe.html",
			has: []string{"Hosting for builders", "Connect your repository and every push is built",
				"Managed databases come with point-in-time recovery", "Services talk to each other over a private network"},
			hasNot: []string{"<main>", "tags.example.com"},
		},
		// A grid of product cards that holds most of its wrapper stays with the
		// wrapper inside the chosen container, beside the category's copy: the
		// wrapper is as linked as the cards it holds and is no menu.
		{
			name:    "a grid wrapper beside the copy stays",
			fixture: "grid-beside-copy.html",
			has: []string{"Linen wrap dress, sage", "$79", "Shirred sundress, yellow", "$58", "Easy dresses for every day",
				"layer a denim jacket or a knit over the same dress"},
			hasNot: []string{"Privacy", "New in"},
			order:  []string{"Linen wrap dress", "Easy dresses"},
		},
		// In a list read as content, a card's name is kept when the card's next
		// part is left out (a price hidden from screen readers): a short heading
		// before removed furniture introduces it only outside a listing.
		{
			name:    "card names before removed parts stay in a listing",
			fixture: "card-names-hidden-prices.html",
			has:     []string{"Fig leaf glass candle with wooden lid", "Rose clay candle, hand poured", "Sandalwood reed diffuser refill"},
			hasNot:  []string{"Privacy"},
		},
		// A page's headline and its introduction stay when the page wraps them in
		// a block named like furniture ("page-header"), and that block does not
		// draw the choice of the content to itself; a block named so without
		// them (a row of links) still goes.
		{
			name:    "a headline in a furniture-named header stays",
			fixture: "headline-in-named-header.html",
			has: []string{"Hull cleaning for small boats", "so your boat never has to leave its berth.",
				"A diver inspects the hull first", "the same afternoon."},
			hasNot: []string{"Prices", "Areas", "Privacy", "Services"},
		},
		// A list of cited works under an article (every item holds a <cite> that
		// is not a link's text) is its bibliography and goes.
		{
			name:    "a list of cited works goes",
			fixture: "article-cited-works.html",
			has:     []string{"Tidal mills stored the flood tide", "twice a day, through the whole year."},
			hasNot:  []string{"Water power on the tidal coast", "Harbour Press", "Grain, flood and ebb"},
		},
		// On a page describing one product, a run of short cards each naming
		// another product by a link and stating its price (similar items, items
		// viewed together) is not the product's text; a run without prices, or
		// the product's own copy, is no such run.
		{
			name:    "cards of other products go on a product page",
			fixture: "product-other-cards.html",
			has:     []string{"Harbour wool blanket", "raises the nap", "wash cold by hand."},
			hasNot:  []string{"Fjord wool throw", "Tweed cushion cover", "€149.00"},
		},
		// A label followed, inline, by its copy for screen readers is read
		// once; repeated marks (rating stars) and the text around them stay.
		{
			name:    "a label's inline copy for screen readers is read once",
			fixture: "inline-twin-labels.html",
			has: []string{"Dispatched from Leith within two days\n", "Oiled by hand\n", "Buyers rate it ★★★★★ and most say",
				"Cut from a single plank of English oak"},
			hasNot: []string{"two daysDispatched", "by hand Oiled"},
		},
		// The same holds for cards that name their product in a heading under
		// an empty link laid over the card (its aria-label the name) and hide
		// a long note on the advertisement in a dialog, on a page declaring
		// its one Product without a description.
		{
			name:    "overlay-linked cards of other products go on a product page",
			fixture: "product-overlay-cards.html",
			has:     []string{"Seaweed soap bar", "dried sea lettuce", "it will not soften."},
			hasNot:  []string{"Sea kelp soap bar", "Charcoal face soap", "$9.10", "Shoppers also looked at"},
		},
		// A short box after the article with a picture, a link to the author's
		// page and a few sentences is an author box and goes; boxes of that shape
		// in a run of items of one shape (readers' tips, cards) stay.
		{
			name:    "an author box after the article goes",
			fixture: "article-author-box.html",
			has: []string{"An old apple tree that has gone years", "so the wound can close.",
				"never prunes in frost.", "bleed sap in spring."},
			hasNot: []string{"Ruth Hale", "community orchard"},
		},
		// A short box after the article whose own class names an author,
		// holding a link to the author's page and a paragraph about them, is
		// an author box and goes, also without a picture (an avatar a
		// script fills in); a quote inside the text whose attribution is
		// named so stays.
		{
			name:    "an author-named box after the article goes",
			fixture: "article-author-bio.html",
			has: []string{"A wildflower meadow starts with poor soil", "Yellow rattle weakens the grasses",
				"with a single cut each year."},
			hasNot: []string{"disused allotment", "Jon Reed"},
		},
		// The same box written without paragraphs (its biography is the
		// text of a <div>, its only <p> a link to more of the author's
		// posts) goes too.
		{
			name:    "an author-named box without paragraphs goes",
			fixture: "article-author-bio.html",
			edit: func(raw []byte) []byte {
				return bytes.Replace(raw, []byte(`<p>Jon Reed sowed his first meadow on a disused allotment and now advises parish councils on verges and churchyards.</p>`),
					[]byte(`<div>Jon Reed sowed his first meadow on a disused allotment and now advises parish councils on verges and churchyards.<p><a href="/author/jon-reed/">More from Jon</a></p></div>`), 1)
			},
			has:    []string{"A wildflower meadow starts with poor soil", "with a single cut each year."},
			hasNot: []string{"disused allotment", "More from Jon"},
		},
		// A short line whose text is mostly a <time> (the date the article
		// was updated) goes; a sentence naming a day in a <time> stays.
		{
			name:    "a dateline goes",
			fixture: "article-dateline.html",
			has:     []string{"The meeting on Sunday heard from fishermen", "no rise in the local tax is needed this year."},
			hasNot:  []string{"Last updated", "9:15 am"},
		},
		// A short paragraph named as a byline goes with the dateline.
		{
			name:    "a byline paragraph goes",
			fixture: "article-dateline.html",
			edit: func(raw []byte) []byte {
				return bytes.Replace(raw, []byte(`<p class="stamp">`), []byte(`<p class="byline">Ann Lee, harbour reporter</p>`+"\n"+`<p class="stamp">`), 1)
			},
			has:    []string{"The meeting on Sunday heard from fishermen"},
			hasNot: []string{"Ann Lee", "Last updated"},
		},
		// Inside code, class names are a syntax highlighter's tokens: a
		// comment of the code ("hljs-comment") stays, while the readers'
		// comments under the article go.
		{
			name:    "comments in code stay",
			fixture: "code-comment-tokens.html",
			has:     []string{"# keep the last week of logs", "# ask the script to open a fresh file", "kill -HUP"},
			hasNot:  []string{"Nice trick"},
		},
		// The hidden answers of an accordion (panels that a control's
		// aria-controls names, holding text) are part of the content; a hidden
		// menu of links that a button opens, and a hidden box no control opens,
		// stay out.
		{
			name:    "hidden accordion answers are read",
			fixture: "accordion-panels.html",
			has: []string{"most owners book a cleaning every two months", "so that the coating is cleaned and not worn away.",
				"the report reaches you by mail the same afternoon."},
			hasNot: []string{"Our team", "Sign up for our monthly letter"},
		},
		// The button that opens an answer (aria-controls naming the panel
		// that follows it) is the question, kept with the answer; a button
		// opening a panel of links (a menu) goes as buttons do.
		{
			name:    "accordion questions in buttons are kept",
			fixture: "accordion-panels.html",
			edit: func(page []byte) []byte {
				// The menu's button out of its <nav>, among the content.
				page = bytes.Replace(page, []byte(`<nav id="menu-nav">`), []byte(`<div id="menu-nav">`), 1)
				return bytes.Replace(page, []byte(`</nav>`), []byte(`</div>`), 1)
			},
			has: []string{"How often should a hull be cleaned?\nIn warm water growth returns", "Is the cleaning safe for antifouling paint?",
				"Do I need to be there?\nNo: send us the berth number"},
			hasNot: []string{"Menu", "Our team"},
		},
		// An answer written as the bare text of a block, not as a paragraph,
		// is running text all the same.
		{
			name:    "hidden accordion answers without paragraphs are read",
			fixture: "accordion-panels.html",
			edit: replaceOnce(`<p>Soft brushes and pads are chosen for each kind of paint, so that the coating is cleaned and not worn away.</p>`,
				`<div class="answer">Soft brushes and pads are chosen for each kind of paint, so that the coating is cleaned and not worn away.</div>`),
			has:    []string{"so that the coating is cleaned and not worn away."},
			hasNot: []string{"Our team", "Sign up for our monthly letter"},
		},
		// An answer written straight into the hidden panel, without a
		// block of its own, is running text all the same; the button
		// that opens it stays as its question.
		{
			name:    "hidden accordion answers as the panel's bare text are read",
			fixture: "accordion-panels.html",
			edit: replaceOnce(`<div id="faq-2" role="region" hidden><p>Soft brushes and pads are chosen for each kind of paint, so that the coating is cleaned and not worn away.</p></div>`,
				`<div id="faq-2" role="region" hidden>Soft brushes and pads are chosen for each kind of paint, so that the coating is cleaned and not worn away.</div>`),
			has:    []string{"Is the cleaning safe for antifouling paint?\nSoft brushes and pads", "so that the coating is cleaned and not worn away."},
			hasNot: []string{"Our team", "Sign up for our monthly letter"},
		},
		// A no-break space after the full stop (an editor's habit) still
		// ends a sentence: the hidden answer is running text.
		{
			name:    "hidden accordion answers ending in a no-break space are read",
			fixture: "accordion-panels.html",
			edit:    replaceOnce(`not worn away.</p>`, `not worn away.&nbsp;</p>`),
			has:     []string{"so that the coating is cleaned and not worn away."},
			hasNot:  []string{"Our team", "Sign up for our monthly letter"},
		},
		// A collapsed panel of running text named so by its class (the rest of
		// a description behind "Read more", a collapsible section) is shown on
		// a click, like an accordion's answer: it is read. A hidden dialog is
		// not.
		{
			name:    "a collapsed description is read",
			fixture: "product-read-more.html",
			has:     []string{"keeps the tide tables", "the island ran out of flour", "trusted her pencil more"},
			hasNot:  []string{"Sign in to your account"},
		},
		// Forum software wraps a thread's posts, written as text and line breaks,
		// in a form (for moderation): a form around most of the page's text is
		// kept, while a small login form beside it goes.
		{
			name:    "a thread inside a form is read",
			fixture: "thread-in-form.html",
			has:     []string{"which wood to buy for the top.", "where the wear is.", "than a soft top ever will."},
			hasNot:  []string{"create one now"},
		},
		// A page builder's block ("widget") holding running text written in a
		// <div> rather than a <p> (a testimonial) is content; a builder block of
		// links stays out.
		{
			name:    "a builder block of text in a div is content",
			fixture: "builder-testimonials.html",
			has:     []string{"where friends and family come to listen", "the teachers full of enthusiasm."},
			hasNot:  []string{"Prices"},
		},
		// On a page that declares an article, a short box after its text with
		// a picture, the name of the page's author and a sentence about them is
		// an author box and goes, also when the box has no paragraphs and no
		// link to an author's page; on a page that declares no article (a
		// profile, a service page) the same box stays.
		{
			name:    "a box about the article's author goes",
			fixture: "article-author-named.html",
			has:     []string{"A young hedge loses more water", "left to thin out on its own."},
			hasNot:  []string{"community orchard", "garden editor"},
		},
		{
			name:    "a box about a person stays on a page declaring no article",
			fixture: "article-author-named.html",
			edit:    replaceOnce(`content="article"`, `content="website"`),
			has:     []string{"community orchard"},
		},
		// A page builder's block ("widget") holding a list whose items are
		// sentences (a guide's steps) is content like one holding paragraphs; a
		// builder block listing links stays out.
		{
			name:    "a builder block of a sentence list is content",
			fixture: "builder-list.html",
			has:     []string{"it becomes a habit of the kitchen.", "soaked the night before they are cooked.", "the time of a weekday evening."},
			hasNot:  []string{"Recipes"},
		},
		// On a thread, the user panel beside each post (a list of short terms
		// and values: the name, "Posts: 13", "Joined: ...") is left out, and
		// the posts stay; on other pages such a list (a boat's measurements)
		// is content.
		{
			name:    "user panels beside thread posts go",
			fixture: "thread-user-panels.html",
			has:     []string{"keep the whole bedroom awake at night.", "both stay dark from then on.", "the board still boots as before."},
			hasNot:  []string{"Posts: 9179", "Joined:"},
		},
		{
			name:    "short term-value pairs stay on an article",
			fixture: "article-short-pairs.html",
			has:     []string{"48 kg", "Two rowers and a cox", "a free lesson on the lake."},
		},
		// A page builder's block inside the content that holds the article's
		// introduction beside a few links (a box of links to its sections) is
		// content, though builders name every block a widget; a builder block of
		// links alone, or of cards with linked titles (related posts), stays out.
		{
			name:    "a builder block of an introduction with links is content",
			fixture: "builder-intro-links.html",
			has:     []string{"what a guest expects before the first bite.", "what each asks of the staff.", "the prices it allows."},
			hasNot:  []string{"Contact the kitchen", "Tipping in restaurants", "no currency sign"},
		},
		{
			name:    "a sign-up box in an article goes",
			fixture: "article-signup-box.html",
			has:     []string{"ranked the bridges by the risk they posed.", "Most towns chose to repair", "on market days."},
			hasNot:  []string{"Get the weekly letter", "One email each Friday", "leave the list"},
		},
		// A grid of described link cards (a service page's offerings, each a
		// linked heading and a sentence) that the page's running text continues
		// after is content; the same grid after the last paragraph (further
		// reading) stays out.
		{
			name:    "a grid of described cards inside the content stays",
			fixture: "service-card-grid.html",
			has:     []string{"Strategy and planning", "Cut waiting time on the shop floor", "People and skills", "a partner of the firm signs each report"},
			hasNot:  []string{"Five lessons from a plant move", "Which public schemes fund heat recovery", "Careers"},
		},
		// The same holds for cards whose title is a paragraph, not a heading,
		// each card one link around its title and the sentence that describes
		// it.
		{
			name:    "a grid of cards with linked paragraph titles inside the content stays",
			fixture: "service-linked-title-cards.html",
			has: []string{"Heating systems", "serviced before each winter begins.", "Water and drainage",
				"show each floor's use of energy week by week.", "leaves a short report"},
			hasNot: []string{"Choosing a heat pump", "who may sign the yearly certificate", "Careers"},
		},
		// A <section> that holds a heading and running text is a section of the
		// content even when its class names it like furniture ("banner-bundle");
		// a furniture-named section of links alone still goes.
		{
			name:    "a headed section named like furniture stays",
			fixture: "section-named-banner.html",
			has: []string{"Garden pond care through the year", "Autumn netting",
				"so that the water stays clean through the winter", "Broken pumps and lights are replaced"},
			hasNot: []string{"Ten percent off", "Privacy", "Contact"},
		},
		// A box whose only child is a paragraph of running text (an article's
		// lead paragraph in a box named for its media) is content although its
		// name lowers it and the paragraph holds a link; a box of the same name
		// holding links stays out.
		{
			name:    "a lead paragraph in a media box stays",
			fixture: "article-lead-in-media-box.html",
			has:     []string{"are running again from this morning", "passengers are asked to wait"},
			hasNot:  []string{"Around the bay"},
		},
		// A caption the page shows twice, whole and cut short, each with its
		// toggle, is read once: the whole copy stays and the cut one goes.
		{
			name:    "a truncated copy is read once",
			fixture: "article-caption-twice.html",
			has:     []string{"for the first time since 1998", "the painters have gone"},
			counts:  map[string]int{"Painters on ropes": 1},
		},
		// On a page that declares an article, a standfirst written as bare
		// text in a block of its own beside the body (no <p>) comes before
		// the body; bare text nested in another box above it (a photo's
		// note, a promotion) does not.
		{
			name:    "an article's bare-text standfirst leads the body",
			fixture: "article-bare-standfirst.html",
			has:     []string{"sleeper trains will again link the valley towns", "stopping at four stations", "two of them pay for the first three years"},
			hasNot:  []string{"printed timetable booklet", "Sleeping cars wait in the workshop"},
			order:   []string{"sleeper trains will again link", "The first train leaves the capital"},
		},
		// A heading followed by an empty slot (an advertisement's place)
		// heads the paragraphs after the slot and stays; a heading whose
		// empty box no text follows (related links a script fills) goes.
		{
			name:    "a heading before an advertisement's empty slot stays",
			fixture: "article-ad-slot.html",
			has:     []string{"What the change costs", "needs a second crew on the morning shift"},
			hasNot:  []string{"More on this topic"},
			order:   []string{"What the change costs", "needs a second crew"},
		},
		// A photo's caption (what it shows, who took it) is left out like
		// a credit line, however many sentences it has; a caption told in
		// several paragraphs (an item of a gallery) is a text of its own.
		{
			name:    "a photo's caption of two sentences stays out",
			fixture: "article.html",
			has:     []string{"Im Winter ruht der Wald"},
			hasNot:  []string{"Ein verschneiter Waldweg am Morgen", "Bildagentur"},
		},
		{
			name:    "a caption of two paragraphs stays",
			fixture: "article.html",
			edit:    replaceOnce(`<figcaption>Ein verschneiter Waldweg am Morgen. Unter`, `<figcaption><p>Ein verschneiter Waldweg am Morgen.</p><p>Unter`),
			has:     []string{"Im Winter ruht der Wald", "Ein verschneiter Waldweg am Morgen.", "Unter der Schneedecke bleibt der Boden warm"},
			hasNot:  []string{"Bildagentur"},
		},
		// On a page that declares an article, the byline and a photo
		// credit between the standfirst and the body (lines shorter than a
		// paragraph) do not cut the standfirst off from the body; on other
		// pages a line of other text still ends the run of lead prose.
		{
			name:    "a byline between an article's standfirst and its body is passed over",
			fixture: "article-standfirst-byline.html",
			has:     []string{"stopped on Friday at a quarter past four", "Stallholders noticed first"},
			hasNot:  []string{"Ann Reed", "2 March 2024"},
			order:   []string{"stopped on Friday", "Stallholders noticed first"},
		},
		// The same for a picture with a caption (text shorter than a
		// caption kept as content) between them.
		{
			name:    "a picture between an article's standfirst and its body is passed over",
			fixture: "article-standfirst-byline.html",
			edit:    replaceOnce(`<figure><img src="/clock.jpg" alt=""><figcaption>Photo: Ann Reed</figcaption></figure>`, `<div class="pic"><img src="/clock.jpg" alt=""><p class="pic-note">The clock face above the market square, seen from a window of the bakery. Photo: Ann Reed</p></div>`),
			has:     []string{"stopped on Friday at a quarter past four", "Stallholders noticed first"},
			order:   []string{"stopped on Friday", "Stallholders noticed first"},
		},
		{
			name:    "on a page that declares no article a byline ends the lead",
			fixture: "article-standfirst-byline.html",
			edit:    replaceOnce(`<meta property="og:type" content="article">`, ""),
			has:     []string{"Stallholders noticed first"},
			hasNot:  []string{"stopped on Friday at a quarter past four"},
		},
		// On a page that declares an article, its <header> stays when it
		// holds a standfirst without a full stop (a summary line): the
		// standfirst comes before the body. Elsewhere a header without
		// running text is left out as before.
		{
			name:    "an article's header standfirst without a full stop stays",
			fixture: "article-header-standfirst.html",
			has:     []string{"will leave an hour earlier from April", "agreed the new timetable on Tuesday"},
			order:   []string{"will leave an hour earlier from April", "agreed the new timetable on Tuesday"},
		},
		// The same for a standfirst set as a subheading under the title.
		{
			name:    "an article's header standfirst set as a subheading stays",
			fixture: "article-header-standfirst.html",
			edit:    replaceOnce(`<p class="entry-summary">Crossings to the outer islands will leave an hour earlier from April, and the late boat on Sundays is cut</p>`, `<h2 class="entry-summary">Crossings to the outer islands will leave an hour earlier from April, and the late boat on Sundays is cut</h2>`),
			has:     []string{"will leave an hour earlier from April", "agreed the new timetable on Tuesday"},
			order:   []string{"will leave an hour earlier from April", "agreed the new timetable on Tuesday"},
		},
		{
			name:    "on a page that declares no article a header without running text goes",
			fixture: "article-header-standfirst.html",
			edit:    replaceOnce(`<meta property="og:type" content="article">`, ""),
			has:     []string{"agreed the new timetable on Tuesday"},
			hasNot:  []string{"will leave an hour earlier from April"},
		},
		// Ruby annotations (the readings set above words, with or without
		// their end tags) are glosses, not text: the words read once.
		{
			name:    "ruby readings stay out of the text",
			fixture: "article-ruby.html",
			has:     []string{"港に新しい船が来ました", "今日の朝、港に大きな船が着きました。", "この船は島と町の間を毎日走ります。"},
			hasNot:  []string{"みなと", "ふね", "しま", "(", "（"},
		},
	})
}

// declareArticle turns a page that declares a thread in JSON-LD into one
// that declares an article: its first JSON-LD script becomes an og:type.
func declareArticle(page []byte) []byte {
	i := bytes.Index(page, []byte(`<script type="application/ld+json">`))
	j := bytes.Index(page, []byte("</script>"))
	if i < 0 || j < i {
		return page
	}
	return append(append(append([]byte{}, page[:i]...), `<meta property="og:type" content="article">`...), page[j+len("</script>"):]...)
}

// A short post above a list of teasers stays the content: its paragraph
// comes first, whatever the list adds.
func TestShortPostBeforeTeasers(t *testing.T) {
	res, err := Extract(readFixture(t, "short-post-teasers.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "The morning ferry to the island leaves half an hour later from Monday"
	if !strings.HasPrefix(strings.TrimPrefix(res.Text, "Ferry timetable changes on Monday\n"), want) {
		t.Errorf("text does not start with the post:\n%s", res.Text)
	}
}

func TestWithList(t *testing.T) {
	items := []string{"Skillet $39.99", "Wok $54.50", "Dutch oven $89.00"}
	prose := "A short introduction to the range of pans we sell, all made in small batches."
	tests := []struct {
		name    string
		article []string
		want    int
	}{
		{"no article", nil, 3},
		{"a title only", []string{"Cookware"}, 3},
		{"prose kept before the list", []string{"Cookware", prose}, 5},
		{"prose already in the list", []string{prose}, 4},
	}
	for _, tt := range tests {
		in := items
		if tt.name == "prose already in the list" {
			in = append([]string{prose}, items...)
		}
		if got := withList(tt.article, in); len(got) != tt.want {
			t.Errorf("%s: withList = %q, want %d blocks", tt.name, got, tt.want)
		}
	}
}

func TestWithDescription(t *testing.T) {
	desc := "A hand-enamelled steel teapot with a removable infuser that keeps tea warm for an hour."
	if got := withDescription([]string{desc}, desc); len(got) != 1 {
		t.Errorf("a description already extracted is added again: %q", got)
	}
	if got := withDescription([]string{"Price: 34.00"}, desc); len(got) != 2 || got[1] != desc {
		t.Errorf("a missing description is not added: %q", got)
	}
	if got := withDescription([]string{"Price: 34.00"}, "Teapot."); len(got) != 1 {
		t.Errorf("a description too short to be prose is added: %q", got)
	}
}

func TestDropRepeats(t *testing.T) {
	long := "A paragraph long enough to be running text, repeated word for word later on."
	in := []block{
		{text: long, chars: len(long)},
		{text: "Reply", chars: 5},
		{text: long, chars: len(long)},
		{text: "Reply", chars: 5},
		{text: long, chars: len(long), data: true},
		{text: long, chars: len(long), panel: true},
	}
	got := dropRepeats(in)
	if len(got) != 5 || got[1].text != "Reply" || got[2].text != "Reply" || !got[3].data || !got[4].panel {
		t.Errorf("dropRepeats = %+v", got)
	}
}

func TestIsProductPage(t *testing.T) {
	for _, tt := range []struct {
		page string
		want bool
	}{
		{`<script type="application/ld+json">{"@graph":[{"@type":"Product","name":"X"}]}</script>`, true},
		{`<meta property="og:type" content="product">`, true},
		{`<div itemscope itemtype="https://schema.org/Product"><p>X</p></div>`, true},
		{`<script type="application/ld+json">{"@type":"NewsArticle","headline":"X"}</script>`, false},
		{`<meta property="og:type" content="article"><p>product</p>`, false},
		{`<script type="application/ld+json">{"@type":"Product"}</script><script type="application/ld+json">{"@type":"NewsArticle"}</script>`, false},
		{`<script type="application/ld+json">{"@graph":[{"@type":"LocalBusiness","name":"X"},{"@type":"Product","name":"X"}]}</script>`, false},
		{`<script type="application/ld+json">[{"@type":"Service","name":"X"},{"@type":"Product","name":"X","offers":{"@type":"Offer"}}]</script>`, true},
	} {
		doc, err := parse([]byte("<html><head>" + tt.page + "</head><body><p>text</p></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if got := isProductPage(doc, pageJSONLD(doc)); got != tt.want {
			t.Errorf("isProductPage(%s) = %v, want %v", tt.page, got, tt.want)
		}
	}
}

func TestIsTableOfContents(t *testing.T) {
	tests := []struct {
		list string
		want bool
	}{
		{`<ul><li><a href="#a">Alpha</a></li><li><a href="#b">Beta</a></li><li><a href="#c">Gamma</a></li></ul>`, true},
		{`<ul><li><a href="#a">Alpha</a></li><li><a href="#b">Beta</a></li></ul>`, false},
		{`<ul><li><a href="#a">Alpha</a></li><li><a href="/b">Beta</a></li><li><a href="#c">Gamma</a></li></ul>`, false},
		{`<ul><li><a href="#">Alpha</a></li><li><a href="#!/b">Beta</a></li><li><a href="#/c">Gamma</a></li></ul>`, false},
		{`<ol><li><a href="#a">^</a> A note of some length</li><li><a href="#b">^</a> Another note</li><li><a href="#c">^</a> A third</li></ol>`, false},
	}
	for _, tt := range tests {
		list := firstList(t, tt.list)
		if got := isTableOfContents(list); got != tt.want {
			t.Errorf("isTableOfContents(%s) = %v, want %v", tt.list, got, tt.want)
		}
	}
}

func TestNegatedContentName(t *testing.T) {
	for name, want := range map[string]bool{"nocontent": true, "no-text": true, "no-columns": false, "content": false, "notice": false, "nomain": true} {
		if got := negated(name); got != want {
			t.Errorf("negated(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCustomElementNameHints(t *testing.T) {
	for tag, want := range map[string]int{"docs-page-footer": 2, "site-sidebar": 2, "docs-content-footer": 1, "docs-content": 0, "div": 0} {
		if got := boilerplateHint(&html.Node{Type: html.ElementNode, Data: tag}); got != want {
			t.Errorf("boilerplateHint(<%s>) = %d, want %d", tag, got, want)
		}
	}
}

// isThreadPage reads the declaration from JSON-LD at any depth and from
// microdata, and from nothing else.
func TestIsThreadPage(t *testing.T) {
	for _, tc := range []struct {
		page string
		want bool
	}{
		{`<script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script>`, true},
		{`<script type="application/ld+json">{"@graph":[{"@type":"WebPage","mainEntity":{"@type":["DiscussionForumPosting"]}}]}</script>`, true},
		{`<div itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>post</p></div>`, true},
		{`<script type="application/ld+json">{"@type":"Article","comment":[{"@type":"Comment"}]}</script>`, false},
		{`<p>A DiscussionForumPosting is a schema.org type.</p>`, false},
		{`<script type="application/ld+json">{"@type":"DiscussionForumPosting"</script>`, false},
	} {
		doc, err := parse([]byte("<!DOCTYPE html><html><head>" + tc.page + "</head><body></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if got := isThreadPage(doc, pageJSONLD(doc)); got != tc.want {
			t.Errorf("isThreadPage(%s) = %v, want %v", tc.page, got, tc.want)
		}
	}
}

// Items whose class names furniture (comments, sidebar widgets) are no
// items of a listing, however alike their first class names are.
func TestFurnitureItemsAreNoList(t *testing.T) {
	item := func(class string, i int) string {
		return fmt.Sprintf(`<li class="%s %d"><p>Reader number %d wrote a few words about the question of the week here.</p></li>`, class, i, i)
	}
	for _, class := range []string{"comment byuser even depth-1 comment-author", "widget widget_text"} {
		var b strings.Builder
		b.WriteString(`<html><body><h1>Open thread</h1><p>Ask us anything.</p><ol class="thread">`)
		for i := range 8 {
			b.WriteString(item(class, i))
		}
		b.WriteString(`</ol></body></html>`)
		doc, err := html.Parse(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		x := newExtraction(100)
		body := findBody(doc)
		x.measure(body, false, 0)
		if l := x.listContainer(body); l.node != nil {
			t.Errorf("%q: items of class %q read as a list of %d", class, class, l.items)
		}
		// The same items without the furniture name are a list.
		doc, _ = html.Parse(strings.NewReader(strings.ReplaceAll(b.String(), class, "entry")))
		x = newExtraction(100)
		body = findBody(doc)
		x.measure(body, false, 0)
		if l := x.listContainer(body); l.node == nil || l.items != 8 {
			t.Errorf("%q: plain items not read as a list of 8: %+v", class, l)
		}
	}
}

// A label a page scrambles among generated identifiers (ids of hidden
// letters) is no text: a block made mostly of such ids is left out, a
// sentence quoting one id stays.
func TestGeneratedIDsLeftOut(t *testing.T) {
	res, err := Extract(readFixture(t, "scrambled-ids.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "enter it in the app") || !strings.Contains(res.Text, "3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f8b90") {
		t.Errorf("text lacks the sentence quoting an id:\n%s", res.Text)
	}
	if n := strings.Count(res.Text, "-4"); n > 2 {
		t.Errorf("text keeps %d generated ids:\n%s", n, res.Text)
	}
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"Take note of the UUID - eg. ba5b7f3a-54d2-4325-80e5-e7a159900d3f", false},
		{"S0d48abc0-6602-4407-a05b-e5f87e8f229cp4b75a245-1d18-4cd6-a8bb-c003e1120f4co38252f27-527d-4e3a-9c1b-1f2e3d4c5b6a", true},
		{"a-b-c-d-e-f-g-h-i-j-k-l-m-n", false},
	} {
		if got := isGeneratedIDs(tt.s); got != tt.want {
			t.Errorf("isGeneratedIDs(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestIsCitationList(t *testing.T) {
	tests := []struct {
		list string
		want bool
	}{
		{`<ol><li>A. <cite>One</cite>. 1990.</li><li>B. <cite>Two</cite>. 1991.</li><li>C. <cite>Three</cite>. 1992.</li></ol>`, true},
		// Too few items to tell.
		{`<ol><li>A. <cite>One</cite>. 1990.</li><li>B. <cite>Two</cite>. 1991.</li></ol>`, false},
		// Linked titles: a list of things to visit, the page's content on a listing.
		{`<ul><li><a href="/1"><cite>One</cite></a></li><li><a href="/2"><cite>Two</cite></a></li><li><a href="/3"><cite>Three</cite></a></li></ul>`, false},
		// An item without a cited work: a list of points that quotes some.
		{`<ul><li>A. <cite>One</cite>.</li><li>B. <cite>Two</cite>.</li><li>C, a point of its own.</li></ul>`, false},
	}
	for _, tt := range tests {
		list := firstList(t, tt.list)
		if got := isCitationList(list); got != tt.want {
			t.Errorf("isCitationList(%s) = %v, want %v", tt.list, got, tt.want)
		}
	}
}

// isCardRun finds the run of other products' cards of the page of the case
// "cards of other products go on a product page" (TestDefectPages): a run
// without prices, or the product's own copy, is no such run.
func TestIsCardRun(t *testing.T) {
	raw := readFixture(t, "product-other-cards.html")
	byClass := func(raw []byte, class string) *html.Node {
		doc, err := html.Parse(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		var found *html.Node
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			for c := n.FirstChild; c != nil && found == nil; c = c.NextSibling {
				if c.Type == html.ElementNode && attr(c, "class") == class {
					found = c
					return
				}
				walk(c)
			}
		}
		walk(doc)
		if found == nil {
			t.Fatalf("fixture lacks class %q", class)
		}
		return found
	}
	if !isCardRun(byClass(raw, "row")) {
		t.Error("the cards of other products are not read as a run of cards")
	}
	if isCardRun(byClass(raw, "copy")) || isCardRun(byClass(raw, "pdp")) {
		t.Error("the product's own copy is read as a run of cards")
	}
	if isCardRun(byClass(bytes.ReplaceAll(raw, []byte("€"), nil), "row")) {
		t.Error("cards stating no price are read as a run of product cards")
	}
}

// isCardRun reads a card named by an empty link laid over it (its
// aria-label) as linked to its product, and leaves out of the card's text
// what markup hides.
func TestIsCardRunOverlayLinks(t *testing.T) {
	raw := readFixture(t, "product-overlay-cards.html")
	slides := func(raw []byte) *html.Node {
		doc, err := html.Parse(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		for c := doc; c != nil; c = htmlwalk.Next(c, doc) {
			if c.Type == html.ElementNode && attr(c, "class") == "slides" {
				return c
			}
		}
		t.Fatal("fixture lacks the slides list")
		return nil
	}
	if !isCardRun(slides(raw)) {
		t.Error("cards under overlay links are not read as a run of cards")
	}
	if isCardRun(slides(bytes.ReplaceAll(raw, []byte("aria-label="), []byte("data-label=")))) {
		t.Error("cards whose overlay link has no name are read as a run of linked cards")
	}
	if isCardRun(slides(bytes.ReplaceAll(raw, []byte(" hidden>"), []byte(">")))) {
		t.Error("cards showing a long note are read as short cards")
	}
}

// firstList parses page and returns its first <ul> or <ol>.
func firstList(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var list *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if list == nil && n.Type == html.ElementNode && (n.Data == "ul" || n.Data == "ol") {
			list = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	return list
}

// A page of full layout whose markup shows a few words (a skip link, a
// notice to turn on JavaScript) while its scripts would fetch the content
// yields no text; a small page saying as little keeps it.
func TestAppShellYieldsNothing(t *testing.T) {
	res, err := Extract(readFixture(t, "app-shell.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "" {
		t.Errorf("an application shell gave text %q", res.Text)
	}
	if res.Meta.Title != "Winter boots | Shop" {
		t.Errorf("title = %q: the metadata is still read", res.Meta.Title)
	}
	small, err := Extract([]byte("<html><body><p>Skip to content</p></body></html>"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if small.Text != "Skip to content" {
		t.Errorf("a small page gave %q", small.Text)
	}
}

// The flat scan counts end tags to skip non-content elements; a ruby
// annotation whose end tag is left out must not make it skip the rest of
// the page.
func TestFlatScanPassesUnclosedAnnotations(t *testing.T) {
	blocks := flatBlocks([]byte("<p><ruby>港<rt>みなと</ruby>の船</p><p>The ferry leaves at nine.</p>"))
	text := strings.Join(blocks, "\n")
	if !strings.Contains(text, "The ferry leaves at nine.") {
		t.Fatalf("the text after an unclosed annotation is lost: %q", text)
	}
}

// A ProductGroup (one product offered in sizes or colours) declares a
// product as a Product does: the cards of other products beside it go, and
// its description counts as the product's.
func TestProductGroupDeclaresProduct(t *testing.T) {
	raw := bytes.Replace(readFixture(t, "product-other-cards.html"), []byte(`"@type":"Product"`), []byte(`"@type":"ProductGroup"`), 1)
	if !bytes.Contains(raw, []byte(`"ProductGroup"`)) {
		t.Fatal("fixture declares no Product to turn into a ProductGroup")
	}
	res, err := Extract(raw, "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "raises the nap") {
		t.Errorf("the product's copy is lost:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "Fjord wool throw") {
		t.Errorf("the cards of other products stay beside a ProductGroup:\n%s", res.Text)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if d := productDescription(readDeclarations(doc).pageLD); !strings.HasPrefix(d, "A heavy blanket") {
		t.Errorf("productDescription = %q, want the ProductGroup's description", d)
	}
}
