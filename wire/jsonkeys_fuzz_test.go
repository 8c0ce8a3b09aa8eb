package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// tokenCheckJSONKeys is CheckJSONKeys written over encoding/json's
// tokenizer, which unquotes every string it meets: the reference the
// lexer-based walk is held to.
func tokenCheckJSONKeys(body []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		keys     map[string]bool
		isObject bool
		wantKey  bool
		typ      reflect.Type
		next     reflect.Type
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.isObject && top.wantKey {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return fault.E(fault.InvalidFormat, fmt.Sprintf("the key %q appears twice in one object", k)).With("field", k)
				}
				top.keys[k] = true
				top.wantKey = false
				next, known := fieldType(top.typ, k)
				if !known {
					if exact := foldedField(top.typ, k); exact != "" {
						return fault.E(fault.ValidationError, fmt.Sprintf("unknown field %q (field names are matched exactly: %q)", k, exact)).With("field", k)
					}
				}
				top.next = next
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) >= maxJSONDepth {
				return fault.E(fault.InvalidFormat, fmt.Sprintf("the JSON body nests deeper than %d levels", maxJSONDepth))
			}
			typ := t
			if top != nil {
				typ = top.next
				if top.isObject {
					top.wantKey = true
				}
			}
			typ = deref(typ)
			f := &frame{keys: map[string]bool{}, isObject: tok == json.Delim('{'), wantKey: tok == json.Delim('{'), typ: typ}
			if !f.isObject && typ != nil && (typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array) {
				f.next = typ.Elem()
			}
			stack = append(stack, f)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.isObject {
			top.wantKey = true
		}
	}
}

// FuzzCheckJSONKeys holds the lexer-based walk to the tokenizer's on every
// valid JSON body: the same refusal, or none. On malformed bodies it must
// only return, since the decoder reports them.
func FuzzCheckJSONKeys(f *testing.F) {
	for _, s := range []string{
		`{"query":"q","source":{"text":"t"},"sources":[{"text":"a"}]}`,
		`{"Query":"q"}`,
		`{"sources":[{"text":"a"},{"Text":"b"}]}`,
		`{"query":"a\"b\\","query":"c"}`,
		`{"qu\u0065ry":"a","query":"b"}`,
		`{"source":{"te\\xt":"a\\\\\"","TEXT":1}}`,
		`{"options":{"k":[1,{"k":2,"k":3}],"k":null}}`,
		`{"options":` + strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth) + `}`,
		`["query","query"]`,
		`{"a":"}","a":"{"}`,
		`{"query":`,
		`{,"a":1,"a":2}`,
	} {
		f.Add([]byte(s))
	}
	typ := reflect.TypeOf(keysBody{})
	f.Fuzz(func(t *testing.T, b []byte) {
		got := CheckJSONKeys(b, typ)
		if !json.Valid(b) {
			return
		}
		want := tokenCheckJSONKeys(b, typ)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: got %v, want %v", b, got, want)
		}
	})
}

// decoderDecodeJSON is DecodeJSONBody written over encoding/json's Decoder
// with DisallowUnknownFields: the reference the decoding is held to.
func decoderDecodeJSON(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fault.E(fault.MissingRequired, "the request body is empty")
	}
	if err := CheckUTF8(body); err != nil {
		return err
	}
	if err := CheckJSONKeys(body, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			// The Decoder quotes the name with %q; unquote it, so that a
			// name with a control character compares as the name sent.
			field, uerr := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			if uerr != nil {
				return uerr
			}
			return fault.E(fault.ValidationError, fmt.Sprintf("unknown field %q", field)).With("field", field)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fault.E(fault.InvalidFormat, "the JSON body ends early")
		}
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fault.E(fault.InvalidFormat, "the body holds more than one JSON value")
	}
	return nil
}

// FuzzDecodeJSONBody holds DecodeJSONBody to the Decoder's reading of the
// same body: on valid JSON, the same error code and field, and the same
// value decoded. A body that is not valid JSON is refused, as malformed
// unless a check both make first refuses it (the Decoder may instead
// report the type of a first value it read, as for "000").
func FuzzDecodeJSONBody(f *testing.F) {
	for _, s := range []string{
		`{"query":"q","source":{"text":"t"},"sources":[{"text":"a"}]}`,
		`{"query":5,"colour":"red"}`,
		`{"colour":"red","query":5}`,
		`{"source":{"text":1,"x":2}}`,
		`{"query":"a"} {"query":"b"}`,
		`{"query":"a"}{`,
		`{"query":`,
		`{"query":"a"`,
		`{"query":"a",}`,
		`{"colour":`,
		`  `,
		`[1]`,
		`"text"`,
		`{"sources":[{"text":"a","extra":{}}],"query":[]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got, want keysBody
		gerr, werr := DecodeJSONBody(b, &got), decoderDecodeJSON(b, &want)
		g, w := fault.As(gerr), fault.As(werr)
		if !json.Valid(b) {
			if gerr == nil || g.Code != fault.InvalidFormat && (g.Code != w.Code || g.Details["field"] != w.Details["field"]) {
				t.Fatalf("%q is not valid JSON: got %v (the Decoder: %v)", b, gerr, werr)
			}
			return
		}
		if (gerr == nil) != (werr == nil) || gerr != nil && (g.Code != w.Code || g.Details["field"] != w.Details["field"]) {
			t.Fatalf("%q: got %v, want %v", b, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded %+v, want %+v", b, got, want)
		}
	})
}
