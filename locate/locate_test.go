package locate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

const sample = "Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children.\n" +
	"Placental DC-SIGNR plays a crucial role in MTCT, as “previous studies” have shown — repeatedly.\n" +
	"The efficient ﬁxation of the virus is studied in detail by the authors of this review.\f" +
	"On the second page the trans- mission of the virus across the placenta is discussed at length."

func slice(text string, s, e int) string {
	r := []rune(text)
	return string(r[s:e])
}

func TestLocateKinds(t *testing.T) {
	ix := NewIndex(sample)
	tests := []struct {
		quote string
		kind  Kind
		want  string // text[S:E] expected
	}{
		{"the main cause of HIV-1 infection", Exact, "the main cause of HIV-1 infection"},
		{"  the main cause of HIV-1 infection  ", Exact, "the main cause of HIV-1 infection"},
		{"THE MAIN   cause of\nHIV‐1 infection", Normalized, "the main cause of HIV-1 infection"},
		{`as "previous studies" have shown - repeatedly`, Normalized, "as “previous studies” have shown — repeatedly"},
		{"the efficient fixation of the virus", Normalized, "The efficient ﬁxation of the virus"},
		{"the transmission of the virus across", Normalized, "the trans- mission of the virus across"},
		{"crucial role in MTCT, as previous", Normalized + "", ""},
		{"Placental DC-SIGNR plays a major role in MTCT, as previous studies have shown", Fuzzy, "Placental DC-SIGNR plays a crucial role in MTCT, as “previous studies” have shown"},
		{"The efficient fixation of the bacteria is studied in detail by the authors of this review", Fuzzy, "The efficient ﬁxation of the virus is studied in detail by the authors of this review"},
		{"Quantum chromodynamics describes the strong interaction between quarks and gluons", NotFound, ""},
		{"", NotFound, ""},
	}
	for _, tt := range tests {
		m := ix.Locate(tt.quote, 0)
		if tt.want == "" && tt.kind == Normalized {
			// a quote that drops its quote marks is a fuzzy match, not a
			// normalized one
			if m.Kind != Fuzzy {
				t.Errorf("Locate(%q) = %v, want fuzzy", tt.quote, m.Kind)
			}
			continue
		}
		if m.Kind != tt.kind {
			t.Errorf("Locate(%q).Kind = %v (sim %.3f), want %v", tt.quote, m.Kind, m.Similarity, tt.kind)
			continue
		}
		if tt.kind == NotFound {
			continue
		}
		if got := ix.Slice(m.Start, m.End); got != tt.want || got != slice(sample, m.Start, m.End) {
			t.Errorf("Locate(%q) = %q, want %q", tt.quote, got, tt.want)
		}
		if tt.kind == Fuzzy && (m.Similarity < DefaultMinSimilarity || m.Similarity >= 1) {
			t.Errorf("Locate(%q).Similarity = %v", tt.quote, m.Similarity)
		}
	}
}

func TestLocatorPages(t *testing.T) {
	ix := NewIndex(sample)
	m := ix.Locate("the placenta", 0)
	if m.Kind != Exact {
		t.Fatalf("kind %v", m.Kind)
	}
	if got := ix.Locator(m.Start, m.End, true).String(); got != fmt.Sprintf("page:2:char:%d-%d", m.Start, m.End) {
		t.Errorf("locator %s", got)
	}
	if got := ix.Locator(m.Start, m.End, false).String(); !strings.HasPrefix(got, "char:") {
		t.Errorf("locator %s", got)
	}
	// A normalized match across the page break keeps the char form.
	m = ix.Locate("by the authors of this review. On the second page", 0)
	if m.Kind != Normalized {
		t.Fatalf("kind %v", m.Kind)
	}
	if got := ix.Locator(m.Start, m.End, true); got.Page != 0 {
		t.Errorf("a span across pages got page %d", got.Page)
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  A\u00a0 B\n\fC ", "a b c"},
		{"ﬁne ﬂow", "fine flow"},
		{"‘a’ “b” «c»", `'a' "b" "c"`},
		{"a–b—c−d", "a-b-c-d"},
		{"trans-\nmission", "transmission"},
		{"pre- and post-", "preand post-"},
		{"x- 19", "x- 19"},
		{"ｆｕｌｌ", "full"},
		{"co\u00adoperate", "cooperate"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		q, s string
		want float64
	}{
		{"a b c d e f g h i j", "a b c d e f g h i j", 1},
		{"a b c d e f g h i j", "a b c d e x g h i j", 0.9},
		{"a b c d e g h i j", "a b c d e f g h i j", 0.9},
		{"a b", "c d", 0},
	}
	for _, tt := range tests {
		if got := Similarity(tt.q, tt.s); got != tt.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tt.q, tt.s, got, tt.want)
		}
	}
}

// synthText makes a deterministic text of about n code points from a
// vocabulary of made-up words, in sentences and paragraphs.
func synthText(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	vocab := make([]string, 3000)
	for i := range vocab {
		var b strings.Builder
		l := 2 + rng.IntN(9)
		for j := 0; j < l; j++ {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
		vocab[i] = b.String()
	}
	common := []string{"the", "of", "and", "in", "to", "a", "is", "for"}
	var b strings.Builder
	for b.Len() < n {
		words := 8 + rng.IntN(20)
		for w := 0; w < words; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			if rng.IntN(3) == 0 {
				b.WriteString(common[rng.IntN(len(common))])
			} else {
				word := vocab[int(float64(len(vocab))*rng.Float64()*rng.Float64())]
				if w == 0 {
					word = strings.ToUpper(word[:1]) + word[1:]
				}
				b.WriteString(word)
			}
		}
		b.WriteString(".")
		if rng.IntN(6) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

// quotesOf takes n deterministic quotes of text: a third exact, a third
// upper-cased, a third with one word in ten replaced.
func quotesOf(text string, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 11))
	runes := []rune(text)
	var out []string
	for len(out) < n {
		s := rng.IntN(len(runes) - 400)
		for s > 0 && runes[s-1] != ' ' {
			s++
		}
		e := s + 80 + rng.IntN(200)
		for e < len(runes) && runes[e] != ' ' {
			e++
		}
		q := string(runes[s:e])
		switch len(out) % 3 {
		case 1:
			q = strings.ToUpper(q)
		case 2:
			w := strings.Fields(q)
			for i := 4; i < len(w)-1; i += 10 {
				w[i] = "zzqx"
			}
			q = strings.Join(w, " ")
		}
		out = append(out, q)
	}
	return out
}

func TestLocateSynthetic(t *testing.T) {
	text := synthText(60_000, 1)
	ix := NewIndex(text)
	for i, q := range quotesOf(text, 60, 2) {
		m := ix.Locate(q, 0)
		want := []Kind{Exact, Normalized, Fuzzy}[i%3]
		if m.Kind != want {
			t.Errorf("quote %d: %v (sim %.3f), want %v", i, m.Kind, m.Similarity, want)
			continue
		}
		got := ix.Slice(m.Start, m.End)
		if utf8.RuneCountInString(got) != m.End-m.Start {
			t.Errorf("quote %d: bad span", i)
		}
		if want != Fuzzy && Fold(got) != Fold(q) {
			t.Errorf("quote %d: span %q for %q", i, got, q)
		}
	}
	// Quotes of another text are not found.
	other := synthText(20_000, 99)
	for i, q := range quotesOf(other, 30, 3) {
		if m := ix.Locate(q, 0); m.Kind != NotFound {
			t.Errorf("negative %d found: %v %.3f", i, m.Kind, m.Similarity)
		}
	}
}

func TestCacheBoundsAndReuse(t *testing.T) {
	var c Cache
	builds := 0
	build := func(s string) func() *Index { return func() *Index { builds++; return NewIndex(s) } }
	a := c.Get("a", build("alpha text"))
	if b := c.Get("a", build("alpha text")); a != b || builds != 1 {
		t.Fatalf("second Get rebuilt (%d builds)", builds)
	}
	small := Cache{MaxBytes: NewIndex("alpha text").Size()*2 + 1}
	small.Get("a", build("alpha text"))
	small.Get("b", build("bravo text"))
	small.Get("c", build("charl text"))
	if small.Len() != 2 {
		t.Errorf("cache holds %d indexes, want 2", small.Len())
	}
	n := builds
	small.Get("a", build("alpha text")) // evicted first
	if builds != n+1 {
		t.Errorf("least recently used was not evicted")
	}
}

// BenchmarkLocate100Quotes500k locates 100 quotes (a third exact, a third
// upper-cased, a third with one word in ten changed) in a 500k-character
// text whose index is built: the cached case. It reports the 95th
// percentile of one request's wall time as p95-ms, and the CPU time of
// one request as cpu-ms/op.
func BenchmarkLocate100Quotes500k(b *testing.B) {
	text := synthText(500_000, 1)
	ix := NewIndex(text)
	quotes := quotesOf(text, 100, 5)
	var times []time.Duration
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		for _, q := range quotes {
			ix.Locate(q, 0)
		}
		times = append(times, time.Since(start))
	}
	cpu := cpuTime() - cpu0
	slices.Sort(times)
	b.ReportMetric(float64(times[(len(times)*95)/100])/1e6, "p95-ms")
	// CPU time per request: on a loaded machine wall time measures the
	// queue for a core as much as the work.
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
}

func BenchmarkIndex500k(b *testing.B) {
	text := synthText(500_000, 1)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		NewIndex(text)
	}
}

func TestCacheBuildsOncePerKey(t *testing.T) {
	var c Cache
	var mu sync.Mutex
	builds := 0
	var wg sync.WaitGroup
	got := make([]*Index, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.Get("k", func() *Index {
				mu.Lock()
				builds++
				mu.Unlock()
				return NewIndex(sample)
			})
		}()
	}
	wg.Wait()
	if builds != 1 {
		t.Errorf("%d builds for one key", builds)
	}
	for _, ix := range got {
		if ix != got[0] {
			t.Fatal("callers got different indexes")
		}
	}
}
