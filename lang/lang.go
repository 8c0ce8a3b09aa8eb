// Package lang detects the language of a text: a source's canonical text,
// or a query. Detection reads a bounded sample of the text (Sample), so its
// cost does not grow with the text, and names the language by its ISO 639-1
// code with a confidence in [0, 1].
//
// The detector is whatlanggo (trigram profiles of 84 languages, chosen by
// script first); docs/languages.md says why, with figures.
package lang

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// SampleChars bounds, in code points, the part of a text that detection
// reads; SampleWindows is how many windows, spread evenly over a longer
// text, make up that part.
const (
	SampleChars   = 1024
	SampleWindows = 4
)

// MinConfidence is the confidence from which a detected language is taken
// over a language the source declares (Decide).
const MinConfidence = 0.5

// Detection is the language found in a text.
type Detection struct {
	// Language is an ISO 639-1 code ("en", "zh"); empty when the text
	// holds no letters a language could be told from.
	Language string
	// Confidence is in [0, 1], rounded to two decimals: how far the best
	// language's profile stands ahead of the next one (1 for a script
	// that one language alone is written in).
	Confidence float64
}

// Detect returns the language of text, read through Sample. A language
// the detector knows by no ISO 639-1 code (Cebuano, Ilocano, Maithili,
// Saraiki, Yiddish) is not named.
func Detect(text string) Detection {
	info := whatlanggo.Detect(Sample(text))
	code := iso6391(info.Lang)
	if code == "" || info.Confidence <= 0 {
		return Detection{}
	}
	return Detection{Language: code, Confidence: math.Round(min(info.Confidence, 1)*100) / 100}
}

// iso6391 is l's ISO 639-1 code, or "" when it has none.
func iso6391(l whatlanggo.Lang) string {
	switch {
	case l < 0:
		return ""
	case l == whatlanggo.Pes: // Iranian Persian: whatlanggo knows no two-letter code for it
		return "fa"
	}
	return l.Iso6391()
}

// Sample returns text when it has at most SampleChars code points, and
// otherwise SampleWindows windows of it, spread evenly from its start to its
// end, each starting after a space where one is near, joined by newlines.
func Sample(text string) string {
	n := utf8.RuneCountInString(text)
	if n <= SampleChars {
		return text
	}
	runes := []rune(text)
	width := SampleChars / SampleWindows
	var b strings.Builder
	b.Grow(SampleChars * 4)
	for i := range SampleWindows {
		start := i * (n - width) / (SampleWindows - 1)
		// A window that opens inside a word would give the detector a
		// broken word; a space within a few code points is taken instead.
		for skip := 0; skip < 16 && start > 0 && start < n-width && !unicode.IsSpace(runes[start-1]); skip++ {
			start++
		}
		b.WriteString(string(runes[start : start+width]))
		b.WriteByte('\n')
	}
	return b.String()
}

// Decide returns the language to record for a text whose source declared
// declared (a BCP 47 tag such as "en-US", or ""): the detected language
// when its confidence reaches MinConfidence, else the declared one's primary
// subtag when it is a two-letter code, else the detected one. The
// confidence returned is the detection's, or 0 when the declared language is
// kept.
func Decide(declared string, d Detection) Detection {
	if d.Confidence >= MinConfidence {
		return d
	}
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(declared)), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if len(primary) == 2 && primary[0] >= 'a' && primary[0] <= 'z' && primary[1] >= 'a' && primary[1] <= 'z' {
		if primary == d.Language {
			return d
		}
		return Detection{Language: primary}
	}
	return d
}
