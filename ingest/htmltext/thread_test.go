package htmltext

import (
	"bytes"
	"strings"
	"testing"

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

// Content split into parts of prose, each wrapped in blocks of its own
// under one ancestor, is read whole: the best-scoring part (the longest
// section) widens to the run of parts it belongs to.
func TestProseRunRead(t *testing.T) {
	res, err := Extract(readFixture(t, "guide-parts.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"hope not to need", "A three-layer fabric bonds", "A good hood turns with your head", "Hang it to dry away from a radiator", "The first drops of a shower"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"written by hikers", "Routes"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text has furniture %q:\n%s", w, res.Text)
		}
	}
}

// A page builder wraps every block in a "widget" container: those holding
// prose are the article and stay, one holding only links goes.
func TestBuilderWidgetsRead(t *testing.T) {
	res, err := Extract(readFixture(t, "builder-widgets.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"nothing more than flour and water", "Stir equal weights of whole rye flour", "discard half of the mixture", "A ripe starter doubles"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"Discard crackers", "Focaccia", "baked at home"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text has furniture %q:\n%s", w, res.Text)
		}
	}
}

// On a thread page the posts are text and line breaks without paragraphs,
// and the opening post sits apart from the block of replies: both are
// read.
func TestThreadTextPostsRead(t *testing.T) {
	res, err := Extract(readFixture(t, "thread-text-posts.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"small balcony that faces south", "fit in a cupboard between sessions", "A tabletop reflector of about five inches", "the best telescope is the one you actually take outside"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"runs on forum software", "New posts"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text has furniture %q:\n%s", w, res.Text)
		}
	}
}

// A thread that declares nothing (the page of TestThreadTextPostsRead
// without its microdata, its posts dated) is read whole when its structure
// shows a run of posts: dated blocks of one shape written as text and line
// breaks, holding most of the page's text. An article's comments, written
// in paragraphs, stay out (see TestThreadPostsRead).
func TestUndeclaredThreadRead(t *testing.T) {
	page := readFixture(t, "thread-undeclared.html")
	if doc := parseFixture(t, page); isThreadPage(doc, pageJSONLD(doc)) || !hasPostRun(doc) {
		t.Fatalf("isThreadPage %v, hasPostRun %v: want an undeclared run of posts", isThreadPage(doc, pageJSONLD(doc)), hasPostRun(doc))
	}
	res, err := Extract(page, "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"small balcony that faces south", "fit in a cupboard between sessions", "A tabletop reflector of about five inches", "the best telescope is the one you actually take outside"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"runs on forum software", "New posts"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text has furniture %q:\n%s", w, res.Text)
		}
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

// A link aggregator's thread names its posts comments and declares
// nothing: with the comments holding most of the page's text, they are the
// content. The same page declaring itself an article keeps its comments
// out.
func TestCommentThreadRead(t *testing.T) {
	page := readFixture(t, "aggregator-thread.html")
	replies := []string{"opaque bags away from the boiler", "turn them a quarter every month", "put a pallet or a piece of carpet", "storage service for a small fee"}
	thread, err := Extract(bytes.Replace(page, []byte("OGTYPE"), []byte("website"), 1), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range replies {
		if !strings.Contains(thread.Text, w) {
			t.Errorf("thread text lacks %q:\n%s", w, thread.Text)
		}
	}
	if strings.Contains(thread.Text, "rules") {
		t.Errorf("thread text has furniture:\n%s", thread.Text)
	}
	if !isCommentThread(parseFixture(t, page)) {
		t.Error("isCommentThread = false for a page whose text is its comments")
	}
	article, err := Extract(bytes.Replace(page, []byte("OGTYPE"), []byte("article"), 1), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range replies {
		if strings.Contains(article.Text, w) {
			t.Errorf("article text has comment %q:\n%s", w, article.Text)
		}
	}
}
