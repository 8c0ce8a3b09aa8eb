package normalize

import (
	"slices"
	"testing"
)

// ByteOffsets maps code points to bytes across one- to four-byte
// characters, a repeated offset, and offsets at and past the end.
func TestByteOffsets(t *testing.T) {
	text := "aé€😀b" // bytes 0, 1, 3, 6, 10; 11 in all
	got := ByteOffsets(text, []int{0, 1, 2, 2, 3, 4, 5, 9})
	if want := []int{0, 1, 3, 3, 6, 10, 11, 11}; !slices.Equal(got, want) {
		t.Errorf("ByteOffsets = %v, want %v", got, want)
	}
	if got := ByteOffsets("", []int{0}); !slices.Equal(got, []int{0}) {
		t.Errorf("empty text: %v", got)
	}
}
