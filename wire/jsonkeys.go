package wire

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/fault"
)

// maxJSONDepth bounds the nesting of request bodies.
const maxJSONDepth = 64

// CheckJSONKeys walks body's tokens against the Go type its value decodes
// into and fails on an object that repeats a key, on a key that names a
// known field in another case ("TEXT" for "text": encoding/json would take
// it, and the last of two variants would win), and on nesting deeper than
// maxJSONDepth. Unknown keys and syntax errors are left to the decoder. t
// may be nil (no field names are known).
//
// It reads only the body's structure and keys: a string value is skipped,
// not unquoted, so a large text costs a scan for its closing quote.
func CheckJSONKeys(body []byte, t reflect.Type) error {
	_, err := checkJSONKeys(body, t)
	return err
}

// unknownKey is the first key of a body that names no field of the struct
// its object decodes into, and the offset of its opening quote.
type unknownKey struct {
	found bool
	name  string
	at    int64
}

// checkJSONKeys is CheckJSONKeys, and it also finds the first unknown key
// (in an object of a struct type that decodes itself by its fields), for
// the decoder to refuse as encoding/json's DisallowUnknownFields would.
func checkJSONKeys(body []byte, t reflect.Type) (unknownKey, error) {
	var unknown unknownKey
	type frame struct {
		keys     map[string]bool
		isObject bool
		typ      reflect.Type // the container's type, nil when unknown
		next     reflect.Type // the type of the value being read
	}
	var (
		stack []*frame
		lx    = jsonLexer{b: body}
		prev  byte // the previous token's first byte
	)
	for {
		at := lx.i
		tok, ok := lx.next()
		if !ok {
			return unknown, nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch c := tok[0]; c {
		case '{', '[':
			if len(stack) >= maxJSONDepth {
				return unknown, fault.E(fault.InvalidFormat, fmt.Sprintf("the JSON body nests deeper than %d levels", maxJSONDepth))
			}
			typ := t
			if top != nil {
				typ = top.next
			}
			typ = deref(typ)
			f := &frame{isObject: c == '{', typ: typ}
			if !f.isObject && typ != nil && (typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array) {
				f.next = typ.Elem()
			}
			stack = append(stack, f)
		case '}', ']':
			if top == nil || top.isObject != (c == '}') {
				return unknown, nil // malformed: the decoder says where
			}
			stack = stack[:len(stack)-1]
		case '"':
			if top == nil || !top.isObject || prev != '{' && prev != ',' {
				break // a value
			}
			k, ok := jsonKey(tok)
			if !ok {
				return unknown, nil
			}
			if top.keys[k] {
				return unknown, fault.E(fault.InvalidFormat, fmt.Sprintf("the key %q appears twice in one object", k)).With("field", k)
			}
			if top.keys == nil {
				top.keys = map[string]bool{}
			}
			top.keys[k] = true
			next, known := fieldType(top.typ, k)
			if !known {
				if exact := foldedField(top.typ, k); exact != "" {
					return unknown, fault.E(fault.ValidationError, fmt.Sprintf("unknown field %q (field names are matched exactly: %q)", k, exact)).With("field", k)
				}
				if !unknown.found && !decodesItself(top.typ) {
					// at is where the lexer was before the token: skip
					// the space before the key.
					unknown = unknownKey{found: true, name: k, at: int64(at + bytes.IndexByte(body[at:], '"'))}
				}
			}
			top.next = next
		}
		prev = tok[0]
	}
}

// jsonLexer splits JSON into tokens without decoding them: a punctuation
// byte, a string with its quotes, or a run of literal bytes (a number,
// true, false, null, or anything malformed, which the decoder reports).
type jsonLexer struct {
	b []byte
	i int
}

// next returns the next token, or false at the end of the input or in an
// unterminated string.
func (l *jsonLexer) next() ([]byte, bool) {
	for l.i < len(l.b) && isJSONSpace(l.b[l.i]) {
		l.i++
	}
	if l.i >= len(l.b) {
		return nil, false
	}
	start := l.i
	switch l.b[start] {
	case '{', '}', '[', ']', ':', ',':
		l.i++
	case '"':
		// The closing quote is the first one after an even run of
		// backslashes (each pair is one escaped backslash).
		j := start + 1
		for {
			k := bytes.IndexByte(l.b[j:], '"')
			if k < 0 {
				return nil, false
			}
			j += k
			n := 0
			for n < j-start-1 && l.b[j-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				break
			}
			j++
		}
		l.i = j + 1
	default:
		for l.i < len(l.b) && !isJSONSpace(l.b[l.i]) && !strings.ContainsRune("{}[]:,\"", rune(l.b[l.i])) {
			l.i++
		}
	}
	return l.b[start:l.i], true
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonKey returns the string a quoted JSON key holds, escapes undone and
// bytes that are not UTF-8 replaced by U+FFFD, as encoding/json does.
func jsonKey(tok []byte) (string, bool) {
	if bytes.IndexByte(tok, '\\') < 0 && utf8.Valid(tok) {
		return string(tok[1 : len(tok)-1]), true
	}
	var k string
	if json.Unmarshal(tok, &k) != nil {
		return "", false
	}
	return k, true
}

// decodesItself reports whether values of t are decoded by their own
// UnmarshalJSON or UnmarshalText rather than field by field.
func decodesItself(t reflect.Type) bool {
	if t == nil {
		return false
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// fieldType returns the type of the value under key k in an object of type
// t, and whether k is one of its names exactly (any key of a map is).
func fieldType(t reflect.Type, k string) (reflect.Type, bool) {
	switch {
	case t == nil:
		return nil, true
	case t.Kind() == reflect.Map:
		return t.Elem(), true
	case t.Kind() != reflect.Struct:
		return nil, true
	}
	for name, ft := range jsonFields(t) {
		if name == k {
			return ft, true
		}
	}
	return nil, false
}

// foldedField returns the field of struct type t whose name equals k but
// for case, or "".
func foldedField(t reflect.Type, k string) string {
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	for name := range jsonFields(t) {
		if strings.EqualFold(name, k) {
			return name
		}
	}
	return ""
}

// jsonFields yields the JSON names of struct type t's fields with their
// types, embedded structs' fields included, as encoding/json names them.
func jsonFields(t reflect.Type) func(yield func(string, reflect.Type) bool) {
	return func(yield func(string, reflect.Type) bool) {
		var walk func(t reflect.Type) bool
		walk = func(t reflect.Type) bool {
			for i := range t.NumField() {
				f := t.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if f.Anonymous && name == "" {
					if et := deref(f.Type); et.Kind() == reflect.Struct {
						if !walk(et) {
							return false
						}
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if !yield(name, f.Type) {
					return false
				}
			}
			return true
		}
		walk(t)
	}
}

// BodyError classifies an error reading a request body: TOO_LARGE past the
// body limit (an *http.MaxBytesError), INVALID_FORMAT otherwise.
func BodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return fault.E(fault.TooLarge, "the request body exceeds the limit").With("limit_bytes", mbe.Limit)
	}
	return fault.Wrap(fault.InvalidFormat, "could not read the request body", err)
}

// MediaJSON is the Content-Type of JSON request bodies.
const MediaJSON = "application/json"

// CheckContentType refuses a request body declared (by its Content-Type
// header, given as contentType) as anything but one of accepted, with 415
// UNSUPPORTED_MEDIA_TYPE naming the accepted types in
// details.accepted_content_types. A body declared as nothing is taken as
// accepted[0]; a JSON body in a charset other than UTF-8 is refused too.
// It returns the media type and its parameters.
func CheckContentType(contentType string, accepted ...string) (string, map[string]string, error) {
	if contentType == "" {
		return accepted[0], map[string]string{}, nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return "", nil, fault.E(fault.InvalidFormat, "malformed Content-Type header")
	}
	if !slices.Contains(accepted, mt) {
		return "", nil, fault.E(fault.UnsupportedMediaType, fmt.Sprintf("this route does not take a body of type %q", mt)).
			With("content_type", mt).With("accepted_content_types", accepted)
	}
	if cs := params["charset"]; cs != "" && !strings.EqualFold(cs, "utf-8") && mt == MediaJSON {
		return "", nil, fault.E(fault.UnsupportedMediaType, fmt.Sprintf("%s bodies must be UTF-8, not %q", mt, cs)).
			With("content_type", mt).With("accepted_content_types", accepted)
	}
	return mt, params, nil
}

// DecodeJSONBody decodes body, exactly one JSON value, into v, rejecting
// bytes that are not UTF-8 (CheckUTF8), unknown fields by name, keys that
// differ from a field's name only in case, and objects that repeat a key
// (which decoders disagree on). Of an unknown field and a value of the
// wrong type, the first in the body is the one reported, as with
// encoding/json's DisallowUnknownFields; a malformed body is reported
// before either.
func DecodeJSONBody(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fault.E(fault.MissingRequired, "the request body is empty")
	}
	if err := CheckUTF8(body); err != nil {
		return err
	}
	unknown, err := checkJSONKeys(body, reflect.TypeOf(v))
	if err != nil {
		return err
	}
	err = json.Unmarshal(body, v)
	var se *json.SyntaxError
	var ute *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) && strings.HasSuffix(se.Error(), "after top-level value"):
		return fault.E(fault.InvalidFormat, "the body holds more than one JSON value")
	case errors.As(err, &se) && se.Offset >= int64(len(body)):
		return fault.E(fault.InvalidFormat, "the JSON body ends early")
	case errors.As(err, &se):
		return jsonError(err)
	case unknown.found && !(errors.As(err, &ute) && ute.Offset < unknown.at):
		return fault.E(fault.ValidationError, fmt.Sprintf("unknown field %q", unknown.name)).With("field", unknown.name)
	case err != nil:
		return jsonError(err)
	}
	return nil
}

func jsonError(err error) error {
	var ute *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &ute):
		return fault.E(fault.ValidationError, fmt.Sprintf("%s: must be %s", ute.Field, ute.Type)).With("field", ute.Field)
	case errors.As(err, &se):
		return fault.E(fault.InvalidFormat, fmt.Sprintf("malformed JSON at byte %d", se.Offset))
	}
	return fault.Wrap(fault.InvalidFormat, "malformed JSON body", err)
}
