package digest

import (
	"context"
	"fmt"
	"slices"
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
	// byteAt[k] and pagesBefore[k] describe offsets[k]: its byte offset and
	// how many page separators precede it; -1 when it is past the end.
	byteAt := make([]int, len(offsets))
	pagesBefore := make([]int, len(offsets))
	for k := range byteAt {
		byteAt[k] = -1
	}
	k, i, pages := 0, 0, 0
	for b, r := range text {
		if k == len(offsets) {
			break
		}
		for k < len(offsets) && offsets[k] == i {
			byteAt[k], pagesBefore[k] = b, pages
			k++
		}
		if r == '\f' {
			pages++
		}
		i++
		if i&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	for k < len(offsets) && offsets[k] == i {
		byteAt[k], pagesBefore[k] = len(text), pages
		k++
	}
	// An offset is unresolved only when the walk reached the end of the
	// text, so i is then the text's length in code points.
	total := i
	errs := make([]error, len(locs))
	for n, l := range locs {
		s, _ := slices.BinarySearch(offsets, l.Start)
		e, _ := slices.BinarySearch(offsets, l.End)
		pagesEnd := pages // past the end: every separator after the start
		if byteAt[e] >= 0 {
			pagesEnd = pagesBefore[e]
		}
		switch {
		case l.Start < 0 || l.Start > l.End:
			errs[n] = fmt.Errorf("%w %s: bad span", ErrLocator, l)
		case byteAt[s] >= 0 && l.Page > 0 && pagesEnd != pagesBefore[s]:
			errs[n] = fmt.Errorf("%w %s: span crosses a page boundary", ErrLocator, l)
		case byteAt[s] < 0 || byteAt[e] < 0:
			errs[n] = fmt.Errorf("%w %s: out of range for a text of %d code points", ErrLocator, l, total)
		case l.Page > 0 && pagesBefore[s]+1 != l.Page:
			errs[n] = fmt.Errorf("%w %s: span is on page %d", ErrLocator, l, pagesBefore[s]+1)
		case text[byteAt[s]:byteAt[e]] != snippets[n]:
			errs[n] = fmt.Errorf("%w %s: text at locator differs from snippet", ErrLocator, l)
		}
	}
	return errs, nil
}
