package ingest

import (
	"fmt"
	"reflect"
	"strings"
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

// A text sent again, canonical as sent or not, is read as it was the
// first time, its canonical form then taken from the memo.
func TestCanonicalFormsMemo(t *testing.T) {
	in := &Ingester{}
	for _, raw := range []string{
		"A text that is canonical as it is sent, one paragraph long.",
		"A text  with   runs of spaces\r\nand a carriage return.  ",
	} {
		h := archive.NewBlob(raw).Hash()
		canonicalForms.forms.Remove(h)
		first, err := in.text(raw, Record{})
		if err != nil {
			t.Fatal(err)
		}
		if held, ok := canonicalForms.get(h); !ok || held != first.Text {
			t.Errorf("%q: the memo holds %q (%v), want %q", raw, held.String(), ok, first.Text.String())
		}
		again, err := in.text(raw, Record{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Text != first.Text || !reflect.DeepEqual(again.Record, first.Record) {
			t.Errorf("%q read again:\n%+v\nfirst:\n%+v", raw, again.Record, first.Record)
		}
		if want := normalize.Canonical(raw); again.Text.String() != want {
			t.Errorf("%q read again as %q, want %q", raw, again.Text.String(), want)
		}
		if again.Record.RawSHA256 != h || again.Record.RawBytes != len(raw) {
			t.Errorf("%q: raw_sha256 %s, raw_bytes %d; want %s, %d", raw, again.Record.RawSHA256, again.Record.RawBytes, h, len(raw))
		}
	}
}

// The memo holds at most its bytes of canonical text, the least recently
// used dropped first, and no text larger than its largest.
func TestCanonicalMemoBounds(t *testing.T) {
	m := newCanonicalMemo(100, 40)
	key := func(i int) archive.Hash { return archive.NewBlob(fmt.Sprint(i)).Hash() }
	for i := range 10 {
		m.add(key(i), archive.NewBlob(strings.Repeat("x", 30)))
	}
	if m.bytes > 100 || m.forms.Len() != 3 || m.bytes != 90 {
		t.Errorf("holds %d texts, %d bytes; want 3, 90", m.forms.Len(), m.bytes)
	}
	if _, ok := m.get(key(6)); ok {
		t.Error("an old text is still held")
	}
	if _, ok := m.get(key(9)); !ok {
		t.Error("the newest text is not held")
	}
	m.add(key(100), archive.NewBlob(strings.Repeat("y", 41)))
	if _, ok := m.get(key(100)); ok {
		t.Error("a text over the largest is held")
	}
}
