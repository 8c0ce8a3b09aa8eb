// Package verdict tells a page that is content from one that is not: a bot
// challenge, a consent wall, a login wall or paywall, a page whose text
// only its scripts produce, a soft 404 or an empty page. It reads the
// extractor's result and, only when that text is short, reads the page's
// markup: the tree the extractor parsed, or for a page read without one,
// one tokenizer pass over its bytes; the decision is made by declared rules,
// each with its own bound on the extracted text, evaluated in order.
//
// The rules look for general signals (the markup that captcha widgets and
// consent managers document for their embeds, visible password fields,
// "enable JavaScript" notices, the empty roots script frameworks mount
// into, not-found titles), never for a site. Every rule needs the
// extracted text to be short: a page whose extraction holds an article is
// content whatever else it carries.
package verdict

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// Class is what a page is.
type Class string

// The classes of page.
const (
	// Content: the extraction is the page's content.
	Content Class = "content"
	// Blocked: a bot challenge, consent wall, login wall or paywall stands
	// where the content should be (Verdict.Reason says which).
	Blocked Class = "blocked"
	// JSRequired: the page shows its content only when its scripts run:
	// it says it needs JavaScript, or it is an application shell whose
	// root its scripts fill.
	JSRequired Class = "js_required"
	// NotContent: a soft 404 or an empty page.
	NotContent Class = "not_content"
)

// Reasons of a Blocked or NotContent verdict (Verdict.Reason).
const (
	ReasonChallenge = "challenge"
	ReasonConsent   = "consent"
	ReasonLogin     = "login"
	ReasonPaywall   = "paywall"
	ReasonSoft404   = "soft_404"
	ReasonEmpty     = "empty"
	// ReasonRedirectLoop is given by the fetcher, not by Judge: the page
	// redirects back to an address already visited.
	ReasonRedirectLoop = "redirect_loop"
)

// ScanWords is the longest extracted text, in words, that any rule applies
// to; a longer one is content without a look at the page's markup.
const ScanWords = 150

// fullConfidenceWords is how many words of extracted text make an
// extraction_confidence of 1 (fewer scale it down linearly).
const fullConfidenceWords = 100

// Page is what Judge reads.
type Page struct {
	// Raw is the page's HTML as fetched or sent.
	Raw []byte
	// Title is the extractor's title of the page (may be empty).
	Title string
	// Text is the extractor's canonical text of the page.
	Text string
	// Tree, when set, returns the tree the extractor parsed the page into
	// (htmltext.Result.Tree), or nil for a page it read without one. Judge
	// asks for it only when the text is short, and reads its markup there
	// instead of tokenizing Raw again.
	Tree func() *html.Node
}

// Verdict is the judgement of one page.
type Verdict struct {
	Class Class
	// Reason is one of the Reason* constants for Blocked and NotContent.
	Reason string
	// Rule names the rule that decided ("" for Content).
	Rule string
	// Confidence estimates, in [0, 1] with two decimals, how surely the
	// extracted text is the page's content: the share of
	// fullConfidenceWords the text holds, halved when the page carries
	// the markup of a rule whose bounds did not hold, and 0 under a
	// verdict.
	Confidence float64
	// Shell reports a page that looks filled by its scripts: a JSRequired
	// verdict, or almost no extracted text, scripts, and an empty
	// application root, little visible text or a JavaScript notice. It is
	// the one test of whether a page needs rendering: a renderer renders
	// such a page when asked to render only where needed.
	Shell bool
}

// facts are what the rules read.
type facts struct {
	*signals
	words int    // words of the extracted text
	text  string // the extracted text, lowercased
	title string // the title, lowercased
}

// rule is one declared judgement: the page class it gives, its bound on
// the extracted text, and its predicate.
type rule struct {
	name     string
	class    Class
	reason   string
	maxWords int
	doc      string
	match    func(f *facts) bool
}

// Bounds the rules share beside their own maxWords.
const (
	// challengeBareWords: a challenge phrase in the title or text needs no
	// widget markup when the extracted text is at most this long.
	challengeBareWords = 60
	// wallVisibleWords: a consent or login wall shows at most this many
	// words in all (a page with more to show is a page with a banner).
	wallVisibleWords = 400
	// shellVisibleWords: a script-filled shell shows at most this many
	// words without its scripts.
	shellVisibleWords = 60
	// shellWords: a shell's extraction holds at most this many words.
	shellWords = 10
	// appShellVisibleWords: an application shell shows at most this many
	// words around its empty root (a header, a footer); a page with more
	// to show is a page whose extraction fell short.
	appShellVisibleWords = 400
)

// rules are evaluated in order; the first that matches decides.
var rules = []rule{
	{"challenge", Blocked, ReasonChallenge, ScanWords,
		"a bot or captcha challenge: a challenge phrase in the title or text, with a captcha widget or almost no text",
		func(f *facts) bool {
			return f.any(challengePhrases) && (f.captcha || f.words <= challengeBareWords)
		}},
	{"js_notice", JSRequired, "", 30,
		"an \"enable JavaScript\" notice on a page with scripts that shows almost nothing else or an empty application root",
		func(f *facts) bool {
			return f.scripts > 0 && f.jsNotice() && (f.emptyRoot || f.visibleWords <= shellVisibleWords)
		}},
	{"app_shell", JSRequired, "", 60,
		"an application shell: scripts that can build the page (a bundle or a sizeable inline script), an application root that is empty or holds only a loading placeholder, and little else to show",
		func(f *facts) bool {
			return f.code > 0 && f.emptyRoot && f.visibleWords <= appShellVisibleWords
		}},
	{"consent_wall", Blocked, ReasonConsent, ScanWords,
		"a consent manager's markup, little else to show, and an extraction that is the consent notice (or nothing, with the notice on the page)",
		func(f *facts) bool {
			return f.consent && f.visibleWords <= wallVisibleWords &&
				(containsAny(f.text, consentPhrases) || f.words == 0 && containsAny(f.visible.String(), consentPhrases))
		}},
	{"login_wall", Blocked, ReasonLogin, 120,
		"a visible password field, no post or comment field, login wording, and little else to show",
		func(f *facts) bool {
			return f.passwords > 0 && f.textareas == 0 && f.visibleWords <= wallVisibleWords &&
				(f.words == 0 || containsAny(f.text, loginPhrases) || containsAny(f.title, loginPhrases))
		}},
	{"paywall", Blocked, ReasonPaywall, 30,
		"paywall markup or JSON-LD isAccessibleForFree false, with subscription wording on the page, and no more text than a paywall's notice (a teaser of the article is content)",
		func(f *facts) bool {
			return f.paywall && (containsAny(f.text, paywallPhrases) || containsAny(f.visible.String(), paywallPhrases))
		}},
	{"soft_404", NotContent, ReasonSoft404, 80,
		"a not-found title or first heading over a short text",
		func(f *facts) bool {
			return notFound(f.title) || notFound(f.h1)
		}},
	{"empty", NotContent, ReasonEmpty, 0,
		"no text at all, no scripts that could add some, and no description of itself",
		func(f *facts) bool {
			return f.visibleWords == 0 && f.scripts == 0 && !f.described
		}},
}

// Judge decides what p is. It is deterministic and safe for concurrent
// use; a page whose text is longer than ScanWords costs a word count.
func Judge(p Page) Verdict {
	words := countWordsUpTo(p.Text, ScanWords+1)
	v := Verdict{Class: Content, Confidence: confidence(words, false)}
	if words > ScanWords {
		return v
	}
	var s *signals
	if doc := tree(p); doc != nil {
		s = walk(doc, p.Raw)
	} else {
		s = tokenize(p.Raw)
	}
	title := strings.ToLower(p.Title)
	if title == "" {
		title = s.title
	}
	f := &facts{signals: s, words: words, text: strings.ToLower(p.Text), title: title}
	v.Shell = words <= shellWords && s.scripts > 0 && (s.emptyRoot || s.visibleWords <= shellVisibleWords || f.jsNotice())
	for _, r := range rules {
		if words <= r.maxWords && r.match(f) {
			v.Class, v.Reason, v.Rule, v.Confidence = r.class, r.reason, r.name, 0
			v.Shell = v.Shell || r.class == JSRequired
			return v
		}
	}
	marked := s.captcha || s.consent || s.paywall || s.passwords > 0 || f.jsNotice() || notFound(title)
	v.Confidence = confidence(words, marked)
	return v
}

// tree is p's parsed tree, or nil.
func tree(p Page) *html.Node {
	if p.Tree == nil {
		return nil
	}
	return p.Tree()
}

func confidence(words int, marked bool) float64 {
	c := min(1, float64(words)/fullConfidenceWords)
	if marked {
		c /= 2
	}
	return math.Round(c*100) / 100
}

// Phrases the rules look for, lowercased. Each list holds the wording of
// one kind of page in the languages of the pages digestd meets most.
var (
	challengePhrases = []string{"just a moment", "checking your browser", "checking if the site connection is secure",
		"verify you are human", "verifying you are human", "verify that you are human", "confirm you are human",
		"are you a robot", "not a robot", "human verification", "bot verification", "ddos protection",
		"security check", "unusual traffic", "attention required", "access denied", "request blocked",
		"pardon our interruption", "please wait while we verify", "browser check", "sicherheitsüberprüfung",
		"überprüfung ihres browsers", "vérification de sécurité", "verificación de seguridad"}
	jsPhrases = []string{"enable javascript", "javascript is disabled", "javascript is required", "requires javascript",
		"need javascript", "needs javascript", "javascript must be enabled", "turn on javascript", "activate javascript",
		"javascript is not enabled", "javascript enabled", "support javascript", "enable js", "javascript aktivieren",
		"javascript aktiviert", "activer javascript", "activez javascript", "habilitar javascript", "habilite javascript",
		"attiva javascript", "abilita javascript", "javascript inschakelen", "włącz javascript"}
	consentPhrases = []string{"cookie", "consent", "gdpr", "einwillig", "zustimm", "rgpd", "consentement",
		"consentimiento", "toestemming"}
	loginPhrases = []string{"log in", "login", "log on", "sign in", "signin", "password", "anmelden", "einloggen",
		"passwort", "connexion", "se connecter", "mot de passe", "iniciar sesión", "contraseña", "accedi", "inloggen",
		"wachtwoord", "senha", "members only", "logged in"}
	paywallPhrases = []string{"subscribe", "subscription", "subscriber", "already a member", "continue reading",
		"sign up to read", "register to read", "abonn", "abo ", "weiterlesen", "s'abonner", "suscríbete", "suscripción",
		"abbonati", "abbonamento"}
	notFoundPhrases = []string{"page not found", "not found", "cannot be found", "can't be found", "could not be found",
		"couldn't be found", "doesn't exist", "does not exist", "no longer exists", "no longer available",
		"nicht gefunden", "existiert nicht", "nicht mehr verfügbar", "introuvable", "n'existe pas", "no encontrada",
		"no encontrado", "no existe", "non trovata", "non trovato", "niet gevonden", "não encontrada", "não encontrado",
		"nie znaleziono", "nie istnieje"}
)

// any reports whether the title, the first heading, the extracted text or
// the visible text holds one of phrases.
func (f *facts) any(phrases []string) bool {
	return containsAny(f.title, phrases) || containsAny(f.h1, phrases) || containsAny(f.text, phrases) || containsAny(f.visible.String(), phrases)
}

// jsNotice reports an "enable JavaScript" notice in a <noscript> or in the
// visible text.
func (f *facts) jsNotice() bool {
	return containsAny(f.noscript.String(), jsPhrases) || containsAny(f.visible.String(), jsPhrases)
}

// notFound reports a not-found heading: a not-found phrase, or 404 as a
// word of its own.
func notFound(s string) bool {
	if containsAny(s, notFoundPhrases) {
		return true
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w == "404" {
			return true
		}
	}
	return false
}

// countWordsUpTo counts runs of letters and digits in s, stopping at limit.
func countWordsUpTo(s string, limit int) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
			if n >= limit {
				return n
			}
		}
		in = w
	}
	return n
}
