package structure

import (
	"encoding/json"
	"fmt"
)

// decodeSpans1 reads the spans of a structure/1 sidecar: each an array
// [kind, from, length], from being its start less the start of the span
// before it (its start for the first), with one more element for the
// kinds that take an attribute: a heading's level, an item's depth, a
// link's target, and 1 for an ordered list, a header cell and strong
// emphasis.
func decodeSpans1(data json.RawMessage) ([]Span, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("structure: spans: %w", err)
	}
	spans := make([]Span, 0, len(raws))
	prev := 0
	for i, raw := range raws {
		var el []json.RawMessage
		if err := json.Unmarshal(raw, &el); err != nil || len(el) < 3 || len(el) > 4 {
			return nil, fmt.Errorf("structure: span %d: want [kind, start, end] and at most one attribute", i)
		}
		var sp Span
		if json.Unmarshal(el[0], &sp.Kind) != nil || json.Unmarshal(el[1], &sp.Start) != nil || json.Unmarshal(el[2], &sp.End) != nil {
			return nil, fmt.Errorf("structure: span %d: want a kind and two offsets", i)
		}
		if sp.Start < 0 || sp.End <= 0 || sp.Start > maxOffset || sp.End > maxOffset {
			return nil, fmt.Errorf("structure: span %d: an offset or length out of range", i)
		}
		sp.Start += prev
		sp.End += sp.Start
		prev = sp.Start
		if prev > maxOffset {
			return nil, fmt.Errorf("structure: span %d: an offset out of range", i)
		}
		if len(el) == 4 {
			if err := decodeAttr1(&sp, el[3]); err != nil {
				return nil, fmt.Errorf("structure: span %d: %w", i, err)
			}
		}
		spans = append(spans, sp)
	}
	return spans, nil
}

// decodeAttr1 reads a structure/1 span's attribute by its kind.
func decodeAttr1(sp *Span, raw json.RawMessage) error {
	if sp.Kind == Link {
		return json.Unmarshal(raw, &sp.Href)
	}
	var v int
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("attribute: %w", err)
	}
	switch sp.Kind {
	case Heading, Item:
		sp.Level = v
	case List:
		sp.Ordered = v == 1
	case Cell:
		sp.Header = v == 1
	case Emphasis:
		sp.Strong = v == 1
	default:
		return fmt.Errorf("kind %q takes no attribute", sp.Kind)
	}
	if v != 1 && sp.Kind != Heading && sp.Kind != Item {
		return fmt.Errorf("attribute %d of kind %q, want 1", v, sp.Kind)
	}
	return nil
}
