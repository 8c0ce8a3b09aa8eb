package digest

import (
	"context"
	"fmt"
	"slices"

	"github.com/digestd/digestd/normalize"
)

// VerifySpans checks every locator against text in one pass: errs[i] is nil
// when snippets[i] is exactly the text at locs[i], and otherwise says why not,
// in the words Locator.Verify uses. The cost is O(len(text) + k log k) for k
// locators, however many there are, instead of one walk of the text per
// locator. It stops early, returning ctx's error, when ctx is done.
func VerifySpans(ctx context.Context, text string, locs []Locator, snippets []string) ([]error, error) {
	offsets := make([]int, 0, 2*len(locs))
	for _, l := range locs {
		offsets = append(offsets, l.Start, l.End)
	}
	slices.Sort(offsets)
	offsets = slices.Compact(offsets)
	// byteAt[k] is the byte offset of offsets[k], -1 when it is past the end.
	byteAt := make([]int, len(offsets))
	for k := range byteAt {
		byteAt[k] = -1
	}
	k, i := 0, 0
	for b := range text {
		if k == len(offsets) {
			break
		}
		for k < len(offsets) && offsets[k] == i {
			byteAt[k] = b
			k++
		}
		i++
		if i&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	for k < len(offsets) && offsets[k] == i {
		byteAt[k] = len(text)
		k++
	}
	// An offset is unresolved only when the walk reached the end of the
	// text, so i is then the text's length in code points.
	total := i
	pages := normalize.IndexPages(text)
	errs := make([]error, len(locs))
	for n, l := range locs {
		s, _ := slices.BinarySearch(offsets, l.Start)
		e, _ := slices.BinarySearch(offsets, l.End)
		switch {
		case l.Start < 0 || l.Start > l.End:
			errs[n] = fmt.Errorf("%w %s: bad span", ErrLocator, l)
		case byteAt[s] >= 0 && l.Page > 0 && pages.HasBreak(l.Start, l.End):
			errs[n] = fmt.Errorf("%w %s: span crosses a page boundary", ErrLocator, l)
		case byteAt[s] < 0 || byteAt[e] < 0:
			errs[n] = fmt.Errorf("%w %s: out of range for a text of %d code points", ErrLocator, l, total)
		case l.Page > 0 && pages.PageOf(l.Start) != l.Page:
			errs[n] = fmt.Errorf("%w %s: span is on page %d", ErrLocator, l, pages.PageOf(l.Start))
		case text[byteAt[s]:byteAt[e]] != snippets[n]:
			errs[n] = fmt.Errorf("%w %s: text at locator differs from snippet", ErrLocator, l)
		}
	}
	return errs, nil
}
