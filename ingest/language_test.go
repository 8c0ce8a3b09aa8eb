package ingest

import (
	"fmt"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/lang"
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
