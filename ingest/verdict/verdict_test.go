package verdict_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/verdict"
)

// judgeFile extracts a fixture page as the ingester does and judges it.
func judgeFile(t *testing.T, name string) verdict.Verdict {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	res, err := htmltext.Extract(raw, "text/html", "")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return verdict.Judge(verdict.Page{Raw: raw, Title: res.Meta.Title, Text: res.Text, Tree: res.Tree})
}

// The verdict reads the markup of a page the extractor parsed in its tree,
// and tokenizes a page given without one: on every fixture both readings
// give the same verdict, confidence and shell.
func TestTreeAndTokensAgree(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.html")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := htmltext.Extract(raw, "text/html", "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		asked := false
		tree := func() *html.Node { asked = true; return res.Tree() }
		fromTree := verdict.Judge(verdict.Page{Raw: raw, Title: res.Meta.Title, Text: res.Text, Tree: tree})
		fromTokens := verdict.Judge(verdict.Page{Raw: raw, Title: res.Meta.Title, Text: res.Text})
		if !asked && fromTree.Class != verdict.Content {
			t.Errorf("%s: judged %s without reading the tree", f, fromTree.Class)
		}
		if fromTree != fromTokens {
			t.Errorf("%s: from the tree %+v, from the tokens %+v", f, fromTree, fromTokens)
		}
	}
	// A long text is content without a look at the markup.
	long := strings.Repeat("The river froze early because the autumn was dry. ", 40)
	v := verdict.Judge(verdict.Page{Raw: []byte("<p>" + long), Text: long, Tree: func() *html.Node {
		t.Error("the tree of a long text was read")
		return nil
	}})
	if v.Class != verdict.Content {
		t.Errorf("long text: %+v", v)
	}
}

// Every verdict class is recognised on pages written after the public
// patterns (a CDN's browser check, a captcha widget, a consent manager's
// wall, a login page, a paywall, script frameworks' shells with and without
// a notice, soft 404s),
// and pages that carry the same markup beside their content are content.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file   string
		class  verdict.Class
		reason string
		rule   string
	}{
		{"challenge.html", verdict.Blocked, verdict.ReasonChallenge, "challenge"},
		{"captcha.html", verdict.Blocked, verdict.ReasonChallenge, "challenge"},
		{"consent.html", verdict.Blocked, verdict.ReasonConsent, "consent_wall"},
		{"login.html", verdict.Blocked, verdict.ReasonLogin, "login_wall"},
		{"paywall.html", verdict.Blocked, verdict.ReasonPaywall, "paywall"},
		{"js_shell.html", verdict.JSRequired, "", "js_notice"},
		{"react_shell.html", verdict.JSRequired, "", "app_shell"},
		{"vue_shell.html", verdict.JSRequired, "", "app_shell"},
		{"angular_shell.html", verdict.JSRequired, "", "app_shell"},
		{"inline_shell.html", verdict.JSRequired, "", "app_shell"},
		{"soft404.html", verdict.NotContent, verdict.ReasonSoft404, "soft_404"},
		{"soft404_de.html", verdict.NotContent, verdict.ReasonSoft404, "soft_404"},
		{"empty.html", verdict.NotContent, verdict.ReasonEmpty, "empty"},
		{"empty_root.html", verdict.NotContent, verdict.ReasonEmpty, "empty"},
		{"ok_article_banner.html", verdict.Content, "", ""},
		{"ok_forum_login.html", verdict.Content, "", ""},
		{"ok_http404_article.html", verdict.Content, "", ""},
		{"ok_teaser.html", verdict.Content, "", ""},
		{"ok_rendered_app.html", verdict.Content, "", ""},
		{"ok_short_notice.html", verdict.Content, "", ""},
		{"ok_short_app.html", verdict.Content, "", ""},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.file] = true
		v := judgeFile(t, tt.file)
		if v.Class != tt.class || v.Reason != tt.reason || v.Rule != tt.rule {
			t.Errorf("%s: %s/%s by %q, want %s/%s by %q", tt.file, v.Class, v.Reason, v.Rule, tt.class, tt.reason, tt.rule)
		}
		if v.Class != verdict.Content && v.Confidence != 0 {
			t.Errorf("%s: confidence %v under a verdict", tt.file, v.Confidence)
		}
		if v.Class == verdict.Content && (v.Confidence <= 0 || v.Confidence > 1) {
			t.Errorf("%s: confidence %v for content", tt.file, v.Confidence)
		}
	}
	files, _ := filepath.Glob("testdata/*.html")
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("fixture %s has no case", f)
		}
	}
	// A shell is what render "auto" renders: every page judged
	// JS_REQUIRED is one; a page with its text is not.
	for _, tt := range tests {
		if v := judgeFile(t, tt.file); tt.class == verdict.JSRequired && !v.Shell {
			t.Errorf("%s is not a shell", tt.file)
		}
	}
	for _, f := range []string{"ok_rendered_app.html", "ok_short_app.html"} {
		if v := judgeFile(t, f); v.Shell {
			t.Errorf("%s, which holds its text, is a shell", f)
		}
	}
}

// A page whose extraction is long is content without a look at its
// markup, and the confidence grows with the text up to 1.
func TestLongTextIsContent(t *testing.T) {
	long := strings.Repeat("The river froze early because the autumn was dry. ", 40)
	raw := []byte("<html><head><title>Just a moment...</title></head><body><div class=g-recaptcha></div><p>" + long + "</p></body></html>")
	v := verdict.Judge(verdict.Page{Raw: raw, Title: "Just a moment...", Text: long})
	if v.Class != verdict.Content || v.Confidence != 1 {
		t.Errorf("long text: %+v", v)
	}
	short := "The river froze early because the autumn was dry."
	v = verdict.Judge(verdict.Page{Raw: []byte("<p>" + short + "</p>"), Text: short})
	if v.Class != verdict.Content || v.Confidence != 0.09 {
		t.Errorf("short text: %+v", v)
	}
}

// Judge reads any bytes without panicking and answers a class it declares,
// with a reason exactly when the class has reasons and a confidence in
// [0, 1].
func FuzzJudge(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.html")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b, "")
	}
	f.Add([]byte("<div id=root><noscript>enable javascript</noscript></div></div></span><script>"), "404")
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		v := verdict.Judge(verdict.Page{Raw: raw, Title: text, Text: text})
		switch v.Class {
		case verdict.Content, verdict.JSRequired:
			if v.Reason != "" {
				t.Errorf("%s with reason %q", v.Class, v.Reason)
			}
		case verdict.Blocked, verdict.NotContent:
			if v.Reason == "" {
				t.Errorf("%s without a reason", v.Class)
			}
		default:
			t.Errorf("class %q", v.Class)
		}
		if v.Confidence < 0 || v.Confidence > 1 {
			t.Errorf("confidence %v", v.Confidence)
		}
	})
}
