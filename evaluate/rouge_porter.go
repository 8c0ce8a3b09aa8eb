package evaluate

import "github.com/digestd/digestd/digest/porter"

// PorterStem stems a lower-case ASCII word with the Porter algorithm exactly
// as NLTK's PorterStemmer does in its default NLTK_EXTENSIONS mode, the
// stemmer the rouge_score package uses. Words of at most two letters are
// returned unchanged.
func PorterStem(word string) string { return porter.Stem(word) }
