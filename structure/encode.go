package structure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
)

// Sidecar is the archived form of a text's structure: the format's
// version, the hash of the canonical text it annotates, and its spans.
// Its encoding (Encode) is the blob the archive keeps, addressed by its
// own hash and named by the source's record.
type Sidecar struct {
	Version  string
	TextHash archive.Hash
	Structure
}

// sidecarJSON is the sidecar's JSON object, in either version. In
// structure/2, Targets are the distinct link targets in byte order, each
// written as what follows the Shared[i] bytes it shares with the one
// before it, and Spans is one string of spans (see Encode). In
// structure/1, Spans is an array of spans (see decodeSpans1).
type sidecarJSON struct {
	Version  string          `json:"version"`
	TextHash archive.Hash    `json:"text_hash"`
	Targets  []string        `json:"targets"`
	Shared   []int           `json:"shared"`
	Spans    json.RawMessage `json:"spans"`
}

// Version1 is the sidecar's first format, still read: each span a JSON
// array [kind, from, length(, attribute)], a link's target in full.
const Version1 = "structure/1"

// codes are the kinds' letters in a structure/2 sidecar. A kind with a
// flag (Ordered, Header, Strong) is written in upper case when it is set.
var codes = map[Kind]byte{
	Table: 't', List: 'l', Quote: 'q', Figure: 'f', Code: 'c', Item: 'i', Heading: 'h',
	Paragraph: 'p', Caption: 'n', Row: 'r', Cell: 'd', Link: 'a', Emphasis: 'e',
}

// codeOf is the letter a structure/2 sidecar writes for sp.
func codeOf(sp Span) byte {
	c := codes[sp.Kind]
	if sp.Ordered || sp.Header || sp.Strong {
		c -= 'a' - 'A'
	}
	return c
}

// numbered says whether spans of kind k carry a number after their
// length: a heading's level, an item's depth, a link's target's index.
func numbered(k Kind) bool {
	return k == Heading || k == Item || k == Link
}

// Encode returns the sidecar's encoding in the current Version; the same
// sidecar always encodes to the same bytes. Its spans must keep the rules
// of their attributes (see Check); s.Version must be Version.
//
// The encoding is a JSON object: the version, the text's hash, the link
// targets (when there are links) and the spans as one string. The targets
// are the distinct ones in byte order, each written as the rest of it
// after the bytes it shares with the target before it, which "shared"
// counts (a whole number of code points). Each span is its kind's letter,
// its from (its start less the start of the span before it), a comma and
// its length in code points, then for a heading, an item and a link a
// comma and its level, its depth or its target's index in the table.
func Encode(s *Sidecar) ([]byte, error) {
	if s.Version != Version {
		return nil, fmt.Errorf("structure: cannot write version %q, only %q", s.Version, Version)
	}
	var targets []string
	for i, sp := range s.Spans {
		if rule := checkAttrs(sp); rule != "" {
			return nil, &CheckError{Index: i, Rule: rule}
		}
		if sp.Kind == Link {
			targets = append(targets, sp.Href)
		}
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)
	var b bytes.Buffer
	b.WriteString(`{"version":"` + Version + `","text_hash":"` + s.TextHash.String() + `"`)
	if err := writeTargets(&b, targets); err != nil {
		return nil, err
	}
	b.WriteString(`,"spans":"`)
	prev := 0
	for _, sp := range s.Spans {
		b.WriteByte(codeOf(sp))
		b.WriteString(strconv.Itoa(sp.Start - prev))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(sp.End - sp.Start))
		prev = sp.Start
		switch {
		case sp.Kind == Link:
			i, _ := slices.BinarySearch(targets, sp.Href)
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(i))
		case numbered(sp.Kind):
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(sp.Level))
		}
	}
	b.WriteString(`"}`)
	return b.Bytes(), nil
}

// writeTargets writes the table of targets, distinct and in byte order,
// as the members "targets" and "shared" of a JSON object (each after a
// comma), nothing when there are none: each target as the rest of it
// after the bytes it shares with the one before it, which "shared"
// counts. Sidecars (structure/2) and outside links (outside-links/2)
// write their targets so; decodeTargets reads them back.
func writeTargets(b *bytes.Buffer, targets []string) error {
	if len(targets) == 0 {
		return nil
	}
	rest := make([]string, len(targets))
	shared := make([]byte, 0, 4*len(targets))
	prev := ""
	for i, t := range targets {
		n := sharedPrefix(prev, t)
		rest[i] = t[n:]
		if i > 0 {
			shared = append(shared, ',')
		}
		shared = strconv.AppendInt(shared, int64(n), 10)
		prev = t
	}
	b.WriteString(`,"targets":`)
	if err := writeJSON(b, rest); err != nil {
		return err
	}
	b.WriteString(`,"shared":[`)
	b.Write(shared)
	b.WriteByte(']')
	return nil
}

// writeJSON writes v as compact JSON, without escaping <, > and &.
func writeJSON(b *bytes.Buffer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}

// sharedPrefix is the length in bytes of the longest prefix of b that a
// also begins with, cut back to a whole number of code points of b.
func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// maxOffset bounds the offsets and lengths a sidecar may hold (past any
// text's length, so that no sum overflows).
const maxOffset = 1 << 40

// Decode reads an encoded sidecar of this Version or of Version1. It
// checks the encoding, not the spans against a text (see Check).
func Decode(data []byte) (*Sidecar, error) {
	var j sidecarJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	s := &Sidecar{Version: j.Version, TextHash: j.TextHash}
	var err error
	switch j.Version {
	case Version:
		s.Spans, err = decodeSpans(j)
	case Version1:
		if j.Targets != nil || j.Shared != nil {
			return nil, fmt.Errorf("structure: %s has no link targets' table", Version1)
		}
		s.Spans, err = decodeSpans1(j.Spans)
	default:
		return nil, fmt.Errorf("structure: version %q, want %q or %q", j.Version, Version, Version1)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// decodeTargets rebuilds a table of targets writeTargets wrote: each
// after the one before it in byte order, none past MaxHrefBytes.
func decodeTargets(rest []string, shared []int) ([]string, error) {
	if len(rest) != len(shared) {
		return nil, fmt.Errorf("%d link targets and %d shared lengths", len(rest), len(shared))
	}
	targets := make([]string, len(rest))
	prev := ""
	for i, r := range rest {
		n := shared[i]
		if n < 0 || n > len(prev) || n+len(r) > MaxHrefBytes {
			return nil, fmt.Errorf("link target %d: a shared length out of range, or too long", i)
		}
		t := prev[:n] + r
		if i > 0 && t <= prev {
			return nil, fmt.Errorf("link target %d: not after the one before it", i)
		}
		targets[i], prev = t, t
	}
	return targets, nil
}

// kindOf is the kind and flag a structure/2 span's letter stands for.
func kindOf(c byte) (Kind, bool, bool) {
	for _, k := range Kinds {
		code := codes[k]
		switch c {
		case code:
			return k, false, true
		case code - ('a' - 'A'):
			return k, true, k == List || k == Cell || k == Emphasis
		}
	}
	return "", false, false
}

// decodeSpans reads a structure/2 sidecar's spans, every link target of
// its table used by one at least.
func decodeSpans(j sidecarJSON) ([]Span, error) {
	targets, err := decodeTargets(j.Targets, j.Shared)
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	var str string
	if err := json.Unmarshal(j.Spans, &str); err != nil {
		return nil, fmt.Errorf("structure: spans: %w", err)
	}
	used := make([]bool, len(targets))
	var spans []Span
	prev := 0
	for pos, i := 0, 0; pos < len(str); i++ {
		kind, flag, ok := kindOf(str[pos])
		if !ok {
			return nil, fmt.Errorf("structure: span %d: an unknown kind's letter %q", i, str[pos])
		}
		sp := Span{Kind: kind}
		sp.Ordered, sp.Header, sp.Strong = flag && kind == List, flag && kind == Cell, flag && kind == Emphasis
		nums := 2
		if numbered(kind) {
			nums = 3
		}
		var n [3]int
		pos++
		for k := range nums {
			if k > 0 {
				if pos == len(str) || str[pos] != ',' {
					return nil, fmt.Errorf("structure: span %d: want %d numbers apart by commas", i, nums)
				}
				pos++
			}
			if n[k], pos, ok = number(str, pos); !ok {
				return nil, fmt.Errorf("structure: span %d: want a number of at most 13 digits without leading zeros", i)
			}
		}
		if n[1] == 0 || n[0] > maxOffset || n[1] > maxOffset || prev+n[0] > maxOffset {
			return nil, fmt.Errorf("structure: span %d: an offset or length out of range", i)
		}
		sp.Start = prev + n[0]
		sp.End = sp.Start + n[1]
		prev = sp.Start
		switch {
		case kind == Link:
			if n[2] >= len(targets) {
				return nil, fmt.Errorf("structure: span %d: link target %d of %d", i, n[2], len(targets))
			}
			sp.Href = targets[n[2]]
			used[n[2]] = true
		case numbered(kind):
			sp.Level = n[2]
		}
		spans = append(spans, sp)
	}
	if i := slices.Index(used, false); i >= 0 {
		return nil, fmt.Errorf("structure: link target %d is no link's", i)
	}
	return spans, nil
}

// number reads the decimal number at s[pos:] (digits, at most 13, and no
// leading zero but in 0 itself) and returns it with the position after it.
func number(s string, pos int) (int, int, bool) {
	end := pos
	for end < len(s) && end-pos <= 13 && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == pos || end-pos > 13 || (s[pos] == '0' && end-pos > 1) {
		return 0, pos, false
	}
	v, err := strconv.Atoi(s[pos:end])
	return v, end, err == nil
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
