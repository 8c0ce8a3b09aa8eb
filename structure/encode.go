package structure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/digestd/digestd/archive"
)

// Sidecar is the archived form of a text's structure: the format's
// version, the hash of the canonical text it annotates, and its spans.
// Its JSON encoding (Encode) is the blob the archive keeps, addressed by
// its own hash and named by the source's record.
type Sidecar struct {
	Version  string
	TextHash archive.Hash
	Structure
}

// sidecarJSON is the sidecar's encoding: each span an array [kind, from,
// length], from being its start less the start of the span before it (its
// start for the first), with one more element for the kinds that take an
// attribute: a heading's level, an item's depth, a link's target, and 1
// for an ordered list, a header cell and strong emphasis.
type sidecarJSON struct {
	Version  string            `json:"version"`
	TextHash archive.Hash      `json:"text_hash"`
	Spans    []json.RawMessage `json:"spans"`
}

// Encode returns the sidecar's compact JSON encoding; the same sidecar
// always encodes to the same bytes.
func Encode(s *Sidecar) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"version":`)
	b.WriteString(strconv.Quote(s.Version))
	b.WriteString(`,"text_hash":"`)
	b.WriteString(s.TextHash.String())
	b.WriteString(`","spans":[`)
	prev := 0
	for i, sp := range s.Spans {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `["%s",%d,%d`, sp.Kind, sp.Start-prev, sp.End-sp.Start)
		prev = sp.Start
		switch {
		case sp.Kind == Link:
			h, err := json.Marshal(sp.Href)
			if err != nil {
				return nil, err
			}
			b.WriteByte(',')
			b.Write(h)
		case sp.Level != 0:
			fmt.Fprintf(&b, ",%d", sp.Level)
		case sp.Ordered || sp.Header || sp.Strong:
			b.WriteString(",1")
		}
		b.WriteByte(']')
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// maxOffset bounds the offsets and lengths a sidecar may hold (past any
// text's length, so that no sum overflows).
const maxOffset = 1 << 40

// Decode reads an encoded sidecar of this Version. It checks the encoding,
// not the spans against a text (see Check).
func Decode(data []byte) (*Sidecar, error) {
	var j sidecarJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	if j.Version != Version {
		return nil, fmt.Errorf("structure: version %q, want %q", j.Version, Version)
	}
	s := &Sidecar{Version: j.Version, TextHash: j.TextHash}
	s.Spans = make([]Span, 0, len(j.Spans))
	prev := 0
	for i, raw := range j.Spans {
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
			if err := decodeAttr(&sp, el[3]); err != nil {
				return nil, fmt.Errorf("structure: span %d: %w", i, err)
			}
		}
		s.Spans = append(s.Spans, sp)
	}
	return s, nil
}

// decodeAttr reads a span's attribute by its kind.
func decodeAttr(sp *Span, raw json.RawMessage) error {
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

// Read decodes data, the sidecar of text (whose hash is textHash), and
// checks it: its version, that it annotates this text, and every rule of
// Check.
func Read(data []byte, text string, textHash archive.Hash) (*Structure, error) {
	s, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if s.TextHash != textHash {
		return nil, fmt.Errorf("structure: the sidecar annotates %s, not %s", s.TextHash, textHash)
	}
	if err := Check(&s.Structure, text); err != nil {
		return nil, err
	}
	return &s.Structure, nil
}

// Write checks s against text (whose hash is textHash) and returns its
// sidecar's encoding.
func Write(s *Structure, text string, textHash archive.Hash) ([]byte, error) {
	if err := Check(s, text); err != nil {
		return nil, err
	}
	return Encode(&Sidecar{Version: Version, TextHash: textHash, Structure: *s})
}
