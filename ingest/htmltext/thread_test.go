package htmltext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/digestd/digestd/internal/htmlwalk"
	"golang.org/x/net/html"
)

// parseFixture parses page as Extract does.
func parseFixture(t *testing.T, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestThreadPages(t *testing.T) {
	threadPosts := []string{"small balcony that faces south", "fit in a cupboard between sessions",
		"A tabletop reflector of about five inches", "the best telescope is the one you actually take outside"}
	threadFurniture := []string{"runs on forum software", "New posts"}
	replies := []string{"opaque bags away from the boiler", "turn them a quarter every month", "put a pallet or a piece of carpet", "storage service for a small fee"}
	checkPages(t, []pageCase{
		// Content split into parts of prose, each wrapped in blocks of its
		// own under one ancestor, is read whole: the best-scoring part (the
		// longest section) widens to the run of parts it belongs to.
		{
			name:    "a run of prose parts is read whole",
			fixture: "guide-parts.html",
			has: []string{"hope not to need", "A three-layer fabric bonds", "A good hood turns with your head",
				"Hang it to dry away from a radiator", "The first drops of a shower"},
			hasNot: []string{"written by hikers", "Routes"},
		},
		// A page builder wraps every block in a "widget" container: those
		// holding prose are the article and stay, one holding only links goes.
		{
			name:    "builder widgets of prose are read",
			fixture: "builder-widgets.html",
			has:     []string{"nothing more than flour and water", "Stir equal weights of whole rye flour", "discard half of the mixture", "A ripe starter doubles"},
			hasNot:  []string{"Discard crackers", "Focaccia", "baked at home"},
		},
		// On a thread page the posts are text and line breaks without
		// paragraphs, and the opening post sits apart from the block of
		// replies: both are read.
		{
			name:    "thread posts of text and line breaks are read",
			fixture: "thread-text-posts.html",
			has:     threadPosts,
			hasNot:  threadFurniture,
		},
		// A thread that declares nothing (the page of the case above without
		// its microdata, its posts dated) is read whole when its structure
		// shows a run of posts (TestUndeclaredThreadHasPostRun). An article's
		// comments, written in paragraphs, stay out (thread-posts.html).
		{
			name:    "an undeclared thread is read by its run of posts",
			fixture: "thread-undeclared.html",
			has:     threadPosts,
			hasNot:  threadFurniture,
		},
		// A link aggregator's thread names its posts comments and declares
		// nothing: with the comments holding most of the page's text, they
		// are the content (TestIsCommentThread). The same page declaring
		// itself an article keeps its comments out.
		{
			name:    "comments holding most of an undeclared page are read",
			fixture: "aggregator-thread.html",
			edit:    replaceOnce("OGTYPE", "website"),
			has:     replies,
			hasNot:  []string{"rules"},
		},
		// On a thread, a poster's signature under each post (a motto,
		// their workshop) is furniture; elsewhere a block so named stays.
		{
			name:    "signatures under posts stay out",
			fixture: "thread-signatures.html",
			edit:    replaceOnce("LDTYPE", "DiscussionForumPosting"),
			has:     []string{"survive rain and frost", "two-part epoxy", "glue a test joint first"},
			hasNot:  []string{"swear three times", "too many clamps"},
		},
		{
			name:    "a signature-named block stays off a thread",
			fixture: "thread-signatures.html",
			edit:    replaceOnce("LDTYPE", "Article"),
			has:     []string{"survive rain and frost", "swear three times", "too many clamps"},
		},
		// On a thread, each post's line naming its poster (a link to the
		// member's page) and its date (a link holding a <time>) is part
		// of the post; a line of other links (Quote) stays out.
		{
			name:    "posters and dates of posts are read",
			fixture: "thread-poster-lines.html",
			edit:    replaceOnce("LDTYPE", "DiscussionForumPosting"),
			has:     []string{"wrenchwren", "gravelgoat", "Mar 2, 2024", "Mar 3, 2024", "push fresh fluid up", "one big burp"},
			hasNot:  []string{"Quote"},
		},
		{
			name:    "linked dates stay out off a thread",
			fixture: "thread-poster-lines.html",
			edit:    replaceOnce("LDTYPE", "Article"),
			has:     []string{"push fresh fluid up"},
			hasNot:  []string{"Mar 2, 2024", "Mar 3, 2024"},
		},
		// Forum software wraps each post's text in many blocks (the post,
		// its cells, its body, a quoting wrapper): the opening post, much
		// longer than the replies, scores best, and the run of posts it
		// belongs to sits more than runLevels above it (postLevels).
		{
			name:    "posts nested deep in their blocks are read",
			fixture: "thread-deep-posts.html",
			has: []string{"staghorn fern has brown tips", "Tap water heavy in salts", "cold air on wet leaves",
				"green to their tips"},
			hasNot: []string{"Similar threads", "Yellow leaves on a monstera"},
		},
		// Replies to a post sit in a block under it whose class names a
		// state of the layout ("hide-last-connector"), read as a weak
		// furniture hint: on a thread, a block holding posts (<article>
		// children) stays (holdsPost).
		{
			name:    "replies nested under a post are read",
			fixture: "thread-nested-replies.html",
			has: []string{"smallest cog at the back", "stretched past its limit", "three quarter mark",
				"check the hanger alignment", "Another vote for measuring"},
		},
		// A question-and-answer page signs each post with a card naming
		// the poster, their reputation and when they asked or answered,
		// its class a compound of "post" (a content word) and the card
		// inside named "user-info": furniture on any page.
		{
			name:    "posters' cards under answers stay out",
			fixture: "qa-user-cards.html",
			has: []string{"spread flat on the tray", "over-proofed by the time it is shaped", "Drop to sixty-five percent",
				"fully preheated spreads"},
			hasNot: []string{"asked Apr 2, 2023", "answered Apr 2, 2023", "answered Apr 5, 2023", "gold badges", "Rye starter"},
		},
		// Each post shows its likes as a number alone beside the button:
		// on a thread such counts are no text (see rulePostCounter).
		{
			name:    "like counts under posts stay out",
			fixture: "thread-counters.html",
			has:     []string{"drifts by almost a kilo", "Load cells drift with temperature", "An aluminium frame", "within fifty grams"},
			hasNot:  []string{"4,317", "18.7k", "\n96\n"},
		},
		// A count labelled by one word ("96 likes", "1 Reply") is a
		// counter too.
		{
			name:    "labelled like counts under posts stay out",
			fixture: "thread-counters.html",
			edit: func(page []byte) []byte {
				page = bytes.Replace(page, []byte(`<div class="like-count">96</div>`), []byte(`<div class="like-count">96 likes</div>`), 1)
				return bytes.Replace(page, []byte(`<div class="like-count">7</div>`), []byte(`<div class="like-count">1 Reply</div>`), 1)
			},
			has:    []string{"drifts by almost a kilo", "Load cells drift with temperature", "An aluminium frame", "within fifty grams"},
			hasNot: []string{"96 likes", "1 Reply"},
		},
		// A board's notice above the posts (a warning, a call to a meetup)
		// is furniture on a thread, named so (noticeSubstrings).
		{
			name:    "a board's notice above the posts stays out",
			fixture: "thread-notices.html",
			has:     []string{"drifts by almost a kilo", "An aluminium frame", "concrete slab and a steel frame"},
			hasNot:  []string{"Swarm season reminder", "collection list"},
		},
		// A notice below the posts set in several short paragraphs (a call
		// to answer, a pointer to other threads) is not kept for its
		// paragraphs: on a thread only paragraphs of running length keep
		// a block with a weak furniture hint.
		{
			name:    "a board's notice of short paragraphs below the posts stays out",
			fixture: "thread-notices.html",
			edit: replaceOnce("</div>\n</body>", `<div class="bottom-notice"><p>Know someone who can answer?</p><p>Share a link to this thread.</p>`+
				`<p>Browse other threads about scales.</p></div>\n</div>\n</body>`),
			has:    []string{"drifts by almost a kilo", "An aluminium frame", "concrete slab and a steel frame"},
			hasNot: []string{"Know someone who can answer", "Browse other threads"},
		},
		{
			name:    "comments stay out on a page declaring an article",
			fixture: "aggregator-thread.html",
			edit:    replaceOnce("OGTYPE", "article"),
			hasNot:  replies,
		},
	})
}

// The undeclared thread of TestThreadPages is found by its structure alone.
func TestUndeclaredThreadHasPostRun(t *testing.T) {
	if doc := parseFixture(t, readFixture(t, "thread-undeclared.html")); isThreadPage(doc, pageJSONLD(doc)) || !hasPostRun(doc) {
		t.Fatalf("isThreadPage %v, hasPostRun %v: want an undeclared run of posts", isThreadPage(doc, pageJSONLD(doc)), hasPostRun(doc))
	}
}

// hasPostRun wants dated posts, most of the page's text in the run and
// posts written without paragraphs.
func TestHasPostRun(t *testing.T) {
	post := func(date, body string) string {
		return `<div class="entry"><div class="who"><a href="/u/a">a</a> ` + date + `</div><div>` + body + `</div></div>`
	}
	text := "A reply of running text, long enough to count as a post of the thread, and with no links in it at all."
	run := func(date, body string, n int) string {
		return strings.Repeat(post(date, body), n)
	}
	long := "<p>" + strings.Repeat("An article paragraph that holds much more running text than the posts around it. ", 40) + "</p>"
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"run", run("2 May 2023", text, 4), true},
		{"relative dates", run("5 days ago", text, 4), true},
		{"too few posts", run("2 May 2023", text, 3), false},
		{"undated", run("Member", text, 4), false},
		{"paragraphs", run("2 May 2023", "<p>"+text+"</p>", 4), false},
		{"beside an article", long + run("2 May 2023", text, 4), false},
	} {
		doc := parseFixture(t, []byte("<html><body>"+tc.body+"</body></html>"))
		if got := hasPostRun(doc); got != tc.want {
			t.Errorf("%s: hasPostRun = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The aggregator's page of TestThreadPages is a comment thread.
func TestIsCommentThread(t *testing.T) {
	if !isCommentThread(parseFixture(t, readFixture(t, "aggregator-thread.html"))) {
		t.Error("isCommentThread = false for a page whose text is its comments")
	}
}

// A poster link leads to a member's page or holds the post's <time>.
func TestIsPosterLink(t *testing.T) {
	for _, tc := range []struct {
		a    string
		want bool
	}{
		{`<a href="/members/ada.12/">ada</a>`, true},
		{`<a href="https://example.org/u/ada">ada</a>`, true},
		{`<a href="/memberlist.php?mode=viewprofile&u=4">ada</a>`, true},
		{`<a href="/profile/ada#posts">ada</a>`, true},
		{`<a href="#post-7"><time datetime="2024-03-02">Mar 2, 2024</time></a>`, true},
		{`<a href="/threads/brakes.88/reply?quote=2">Quote</a>`, false},
		{`<a href="/users-guide/">Guide</a>`, false},
		{`<a href="/blog/?user=ada">ada</a>`, false},
	} {
		doc, err := html.Parse(strings.NewReader(tc.a))
		if err != nil {
			t.Fatal(err)
		}
		var a *html.Node
		for n := doc; n != nil; n = htmlwalk.Next(n, doc) {
			if n.Type == html.ElementNode && n.Data == "a" {
				a = n
				break
			}
		}
		if got := isPosterLink(a); got != tc.want {
			t.Errorf("isPosterLink(%s) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

func TestIsCount(t *testing.T) {
	for s, want := range map[string]bool{
		"7": true, "4,317": true, "18.7k": true, "2M": true, "0": true,
		"": false, "k": false, "7 likes": false, "#3": false, "2024-05-03": false, "v1.2": false,
	} {
		if got := isCount(s); got != want {
			t.Errorf("isCount(%q) = %v, want %v", s, got, want)
		}
	}
}
