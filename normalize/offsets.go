package normalize

// ByteOffsets returns the byte offset in text of each of offs, code point
// offsets in ascending order: len(text) for one at or past its end. It
// reads text once, up to the last of them.
func ByteOffsets(text string, offs []int) []int {
	out := make([]int, len(offs))
	k, i := 0, 0
	for b := range text {
		for k < len(offs) && offs[k] == i {
			out[k] = b
			k++
		}
		if k == len(offs) {
			return out
		}
		i++
	}
	for ; k < len(offs); k++ {
		out[k] = len(text)
	}
	return out
}
