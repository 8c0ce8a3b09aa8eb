package digest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/digestd/digestd/fault"
)

func TestWordVectorsLoad(t *testing.T) {
	tab, err := loadedWordVectors()
	if err != nil {
		t.Fatal(err)
	}
	if tab.dims != 100 || len(tab.index) < 10000 || len(tab.vecs) != len(tab.index)*tab.dims {
		t.Fatalf("table of %d stems × %d dimensions, %d values", len(tab.index), tab.dims, len(tab.vecs))
	}
	row := func(w string) int32 {
		r, ok := tab.index[stem(w)]
		if !ok {
			t.Fatalf("no vector for %q", w)
		}
		return r
	}
	// Words of one meaning lie closer than unrelated words, and a word
	// is its own closest.
	if near, far := tab.cos(row("vehicles"), row("cars")), tab.cos(row("vehicles"), row("river")); near <= far || near < 0.7 {
		t.Errorf("cos(vehicles, cars) = %.3f, cos(vehicles, river) = %.3f", near, far)
	}
	if c := tab.cos(row("ship"), row("ship")); c < 0.999 || c > 1.001 {
		t.Errorf("cos(ship, ship) = %.4f, want 1", c)
	}
}

func TestDecodeWordVectorsRejectsBadData(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not gzip"), gzipped(t, "wordvec 1 2 3\nab\n"), gzipped(t, "wordvec 1 1 3\na\n\x01\x02")} {
		if _, err := decodeWordVectors(data); err == nil {
			t.Errorf("%q: decoded, want an error", data)
		}
	}
	tab, err := decodeWordVectors(gzipped(t, "wordvec 1 2 2\na\nb\n\x03\x04\x04\xfd"))
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.cos(tab.index["a"], tab.index["b"]); c > 1e-9 || c < -1e-9 {
		t.Errorf("cos of orthogonal rows = %v", c)
	}
}

// harbourText holds one sentence a block; the answer to harbourQuery is
// the fifth, which says "ships" where the question says "vessels". The
// question asks for no answer type ("how many" would favour the sentence's
// numeral too), so the word vectors alone rank it.
const harbourText = "The harbour was busy all summer.\n\nA storm reached the harbour late in October.\n\n" +
	"The harbour master closed the gates at dusk.\n\nWaves broke over the harbour wall for hours.\n\n" +
	"Eleven ships sank in the harbour that night.\n\nRepairs to the harbour took two years."

const harbourQuery = "Which vessels were wrecked in the harbour?"

func TestSemanticSignalRanksParaphrase(t *testing.T) {
	opts := Options{SnippetMaxChars: 50}
	top := func() string {
		t.Helper()
		p, _, err := Build(harbourText, harbourQuery, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.EvidenceSnippets) == 0 {
			t.Fatal("no snippets")
		}
		return p.EvidenceSnippets[0].Text
	}
	if got := top(); !strings.Contains(got, "ships") {
		t.Errorf("first snippet %q, want the sentence about ships", got)
	}
	defer func(w float64) { semWeight = w }(semWeight)
	semWeight = 0
	if got := top(); strings.Contains(got, "ships") {
		t.Errorf("without word vectors the first snippet is still %q: the test proves nothing", got)
	}
}

func TestSemanticExpansionAddsOnlyTextTermsOfAbsentWords(t *testing.T) {
	d := analyze(harbourText)
	q := newQueryModel(d, d.queryTerms(harbourQuery))
	asked, mass := q.asked, q.mass
	q.expandSemantic(d, harbourQuery)
	added := termNames(d, q.terms[asked:])
	if !slices.Contains(added, "ship") {
		t.Errorf("added %v, want ship among them", added)
	}
	if q.asked != asked || q.mass != mass || len(q.weight) != len(q.terms) {
		t.Errorf("asked %d→%d, mass %v→%v, %d terms, %d weights", asked, q.asked, mass, q.mass, len(q.terms), len(q.weight))
	}
	for k := asked; k < len(q.terms); k++ {
		if w := idf(int(d.df[q.terms[k]]), len(d.sents)); q.weight[k] >= w {
			t.Errorf("%s weighs %v, not less than its idf %v", termNames(d, q.terms[k:k+1])[0], q.weight[k], w)
		}
	}
}

func TestSemanticMatchIsNoQueryMatch(t *testing.T) {
	// The text holds "ships" and "cars" but no word of the query.
	text := "Eleven ships sank that night.\n\nMany cars were parked near the quay."
	p, warns, err := Build(text, "How many vessels and vehicles?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(warns, func(w Warning) bool { return w.Code == fault.NoQueryMatch }) {
		t.Errorf("warnings %v, want NO_QUERY_MATCH", warns)
	}
	for _, s := range p.EvidenceSnippets {
		if s.RelevanceScore > fallbackScore {
			t.Errorf("snippet %q scores %v > %v", s.Text, s.RelevanceScore, fallbackScore)
		}
	}
}

// gzipped returns s compressed with gzip.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSemanticSignalConcurrentAndDeterministic(t *testing.T) {
	// Digests that load the word vectors at the same time agree byte for
	// byte (run with -race to check the loading).
	const n = 8
	out := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, _, err := Build(harbourText, harbourQuery, Options{SnippetMaxChars: 50})
			if err != nil {
				t.Error(err)
				return
			}
			out[i], _ = json.Marshal(p)
		}()
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if !bytes.Equal(out[i], out[0]) {
			t.Fatalf("digest %d differs:\n%s\n%s", i, out[i], out[0])
		}
	}
}
