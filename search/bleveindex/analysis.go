package bleveindex

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/digestd/digestd/digest"
)

// bodyAnalyzer names the analysis of a passage's body: bleve's English
// analysis (Unicode words, possessives, lower case, English stop words,
// Porter stems) with the scripts written without spaces read as the
// digester reads them (digest.UnspacedTerms: Chinese and Japanese a
// character at a time, Thai by overlapping pairs of clusters). Word
// segmentation by UAX #29 leaves Thai out altogether (it has no
// dictionary to find its words), so no Thai question found anything.
// Version 1 read Thai a letter at a time. An index made with another
// analysis is rebuilt when it is opened (see Open).
const bodyAnalyzer = "digestd_body/2"

// Names of the tokenizer that keeps the characters of scripts written
// without spaces, and of the token filter that splits words of them.
const (
	unspacedTokenizer = "digestd_unicode"
	unspacedFilter    = "digestd_unspaced"
)

func init() {
	if err := registry.RegisterTokenizer(unspacedTokenizer, func(_ map[string]any, cache *registry.Cache) (analysis.Tokenizer, error) {
		words, err := cache.TokenizerNamed(unicode.Name)
		if err != nil {
			return nil, err
		}
		return keepUnspaced{words: words}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterTokenFilter(unspacedFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return splitUnspaced{}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterAnalyzer(bodyAnalyzer, func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		tokenizer, err := cache.TokenizerNamed(unspacedTokenizer)
		if err != nil {
			return nil, err
		}
		var filters []analysis.TokenFilter
		for _, name := range []string{en.PossessiveName, lowercase.Name, unspacedFilter, en.StopName, porter.Name} {
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		}
		return &analysis.DefaultAnalyzer{Tokenizer: tokenizer, TokenFilters: filters}, nil
	}); err != nil {
		panic(err)
	}
}

// keepUnspaced is bleve's Unicode tokenizer (UAX #29 words), with the
// text of a script written without spaces that it leaves out (it drops
// Thai, which it cannot segment) read as the digester reads it, in place.
type keepUnspaced struct{ words analysis.Tokenizer }

func (t keepUnspaced) Tokenize(input []byte) analysis.TokenStream {
	words := t.words.Tokenize(input)
	if !hasUnspaced(input) {
		return words
	}
	text := string(input) // read once, for the runs' ends
	out := make(analysis.TokenStream, 0, len(words))
	k := 0
	for i := 0; i < len(input); {
		for k < len(words) && words[k].End <= i {
			k++
		}
		if k < len(words) && words[k].Start <= i {
			out = append(out, words[k])
			i = words[k].End
			k++
			continue
		}
		r, n := utf8.DecodeRune(input[i:])
		if !digest.Unspaced(r) {
			i += n
			continue
		}
		// The run, up to the next word, read as the digester reads it.
		limit := len(input)
		if k < len(words) {
			limit = words[k].Start
		}
		j := digest.UnspacedRun(text[:limit], i)
		out = unspacedTokens(out, text[i:j], i, analysis.Ideographic)
		i = j
	}
	for i, tok := range out {
		tok.Position = i + 1
	}
	return out
}

// unspacedTokens appends to out a token for each term the digester reads
// in run (digest.UnspacedTerms), a run of a script written without spaces
// that starts at byte offset at.
func unspacedTokens(out analysis.TokenStream, run string, at int, typ analysis.TokenType) analysis.TokenStream {
	digest.UnspacedTerms(run, func(start, end int) {
		out = append(out, &analysis.Token{Start: at + start, End: at + end, Term: append([]byte(nil), run[start:end]...), Type: typ})
	})
	return out
}

// splitUnspaced splits the runs of a script written without spaces out of
// a word into the terms the digester reads in them, the rest of the word
// staying whole around them; tokens are numbered again in order.
type splitUnspaced struct{}

func (splitUnspaced) Filter(in analysis.TokenStream) analysis.TokenStream {
	split := false
	for _, t := range in {
		if hasUnspaced(t.Term) {
			split = true
			break
		}
	}
	if !split {
		return in
	}
	out := make(analysis.TokenStream, 0, len(in))
	for _, t := range in {
		if !hasUnspaced(t.Term) {
			out = append(out, t)
			continue
		}
		term := string(t.Term) // read once, for the runs' ends
		from := 0              // where the run of other characters began
		emit := func(i, j int) {
			if i < j {
				out = append(out, &analysis.Token{Start: t.Start + i, End: t.Start + j, Term: t.Term[i:j], Type: t.Type})
			}
		}
		for i := 0; i < len(t.Term); {
			r, n := utf8.DecodeRune(t.Term[i:])
			if !digest.Unspaced(r) {
				i += n
				continue
			}
			emit(from, i)
			j := digest.UnspacedRun(term, i)
			out = unspacedTokens(out, term[i:j], t.Start+i, t.Type)
			from, i = j, j
		}
		emit(from, len(t.Term))
	}
	for i, t := range out {
		t.Position = i + 1
	}
	return out
}

// hasUnspaced reports whether term holds a character of a script written
// without spaces.
func hasUnspaced(term []byte) bool { return bytes.IndexFunc(term, digest.Unspaced) >= 0 }
