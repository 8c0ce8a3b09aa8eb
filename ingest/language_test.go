package ingest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/lang"
	"github.com/digestd/digestd/normalize"
)

// The memo answers what lang.Detect answers, keeps at most
// detectionMemoSize texts, and forgets the least recently used first.
func TestDetectionMemo(t *testing.T) {
	m := newDetectionMemo(detectionMemoSize)
	texts := []string{
		"Der schnelle braune Fuchs springt über den faulen Hund, und die Katze schläft.",
		"Le renard brun rapide saute par-dessus le chien paresseux, et le chat dort.",
	}
	for _, text := range texts {
		h := archive.NewBlob(text).Hash()
		want := lang.Detect(text)
		if want.Language == "" {
			t.Fatalf("no language detected in %q", text)
		}
		for range 2 {
			if got := m.detect(h, text); got != want {
				t.Errorf("detect(%q) = %+v, want %+v", text, got, want)
			}
		}
	}
	first := archive.NewBlob(texts[0]).Hash()
	for i := range detectionMemoSize {
		text := fmt.Sprintf("text number %d", i)
		m.detect(archive.NewBlob(text).Hash(), text)
	}
	if m.seen.Len() != detectionMemoSize {
		t.Errorf("the memo holds %d texts, want %d", m.seen.Len(), detectionMemoSize)
	}
	if m.seen.Contains(first) {
		t.Error("the oldest text is still held after detectionMemoSize newer ones")
	}
	if !m.seen.Contains(archive.NewBlob(fmt.Sprintf("text number %d", detectionMemoSize-1)).Hash()) {
		t.Error("the newest text is not held")
	}
}

// A text sent again is read as it was the first time, whether it was
// canonical (then remembered by its hash, and not canonicalized again) or
// not (never remembered).
func TestCanonicalTextsMemo(t *testing.T) {
	in := &Ingester{}
	for _, tc := range []struct {
		raw       string
		canonical bool
	}{
		{"A text that is canonical as it is sent, one paragraph long.", true},
		{"A text  with   runs of spaces\r\nand a carriage return.  ", false},
	} {
		h := archive.NewBlob(tc.raw).Hash()
		canonicalTexts.Remove(h)
		first, err := in.text(tc.raw, Record{})
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalTexts.Contains(h); got != tc.canonical {
			t.Errorf("%q: remembered %v, want %v", tc.raw, got, tc.canonical)
		}
		again, err := in.text(tc.raw, Record{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Text != first.Text || !reflect.DeepEqual(again.Record, first.Record) {
			t.Errorf("%q read again:\n%+v\nfirst:\n%+v", tc.raw, again.Record, first.Record)
		}
		if want := normalize.Canonical(tc.raw); again.Text.String() != want {
			t.Errorf("%q read again as %q, want %q", tc.raw, again.Text.String(), want)
		}
		if again.Record.RawSHA256 != h || again.Record.RawBytes != len(tc.raw) {
			t.Errorf("%q: raw_sha256 %s, raw_bytes %d; want %s, %d", tc.raw, again.Record.RawSHA256, again.Record.RawBytes, h, len(tc.raw))
		}
	}
}
