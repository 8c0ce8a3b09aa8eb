package wire

import (
	"strconv"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
)

// ParseSpan reads a locator, or start and end offsets, as a client gives
// them to the slice endpoint.
func ParseSpan(locator, start, end string) (digest.Locator, error) {
	if locator != "" {
		loc, err := digest.ParseLocator(locator)
		if err != nil {
			return loc, fault.Wrap(fault.ValidationError, "locator: must be char:S-E or page:N:char:S-E with S ≤ E", err)
		}
		return loc, nil
	}
	if start == "" || end == "" {
		return digest.Locator{}, fault.E(fault.MissingRequired, "give locator, or start and end (code points)")
	}
	s, err1 := strconv.Atoi(start)
	e, err2 := strconv.Atoi(end)
	if err1 != nil || err2 != nil || s < 0 || e < s || e > 1<<40 {
		return digest.Locator{}, fault.E(fault.ValidationError, "start, end: must be integers with 0 ≤ start ≤ end")
	}
	return digest.Locator{Start: s, End: e}, nil
}
