package htmltext

import (
	"strings"
	"testing"
)

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
