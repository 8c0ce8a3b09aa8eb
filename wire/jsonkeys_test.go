package wire

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// keysSource and keysBody are a request body's shape for the tests of its
// keys: a nested object, an array of objects and free JSON.
type keysSource struct {
	Text string `json:"text"`
}

type keysBody struct {
	Query   string       `json:"query"`
	Source  *keysSource  `json:"source"`
	Sources []keysSource `json:"sources"`
	Options any          `json:"options"`
}

// TestDecodeJSONExactKeys: a body decodes only when its keys are exactly
// the fields' names, each once, at a bounded depth, in one JSON value;
// anything else is refused with a code that says why, naming the key.
func TestDecodeJSONExactKeys(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       fault.Code // "" when the body decodes
		field      string
	}{
		{"exact keys", `{"query":"q","source":{"text":"t"},"sources":[{"text":"a"}]}`, "", ""},
		{"a key in another case", `{"Query":"q"}`, fault.ValidationError, "Query"},
		{"a nested key in another case", `{"source":{"TEXT":"t"}}`, fault.ValidationError, "TEXT"},
		{"a key in another case inside an array", `{"sources":[{"text":"a"},{"Text":"b"}]}`, fault.ValidationError, "Text"},
		{"a repeated key", `{"query":"a","query":"b"}`, fault.InvalidFormat, "query"},
		{"a repeated nested key", `{"source":{"text":"a","text":"b"}}`, fault.InvalidFormat, "text"},
		{"a repeated key inside free JSON", `{"options":{"k":1,"k":2}}`, fault.InvalidFormat, "k"},
		{"an unknown key", `{"query":"q","colour":"red"}`, fault.ValidationError, ""},
		{"nesting past the bound", `{"options":` + strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1) + `}`, fault.InvalidFormat, ""},
		{"nesting at the bound", `{"options":` + strings.Repeat("[", maxJSONDepth-2) + strings.Repeat("]", maxJSONDepth-2) + `}`, "", ""},
		{"two values", `{"query":"a"} {"query":"b"}`, fault.InvalidFormat, ""},
		{"empty", " \n", fault.MissingRequired, ""},
		{"malformed", `{"query":`, fault.InvalidFormat, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v keysBody
			err := DecodeJSONBody([]byte(tc.body), &v)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			fe := fault.As(err)
			if err == nil || fe.Code != tc.code {
				t.Fatalf("%v, want %s", err, tc.code)
			}
			if tc.field != "" && fe.Details["field"] != tc.field {
				t.Errorf("details %v do not name %q", fe.Details, tc.field)
			}
		})
	}
}

// TestCheckContentType: a body declared as a type the route does not take
// is 415 with the types it takes; none declared is the first of them.
func TestCheckContentType(t *testing.T) {
	for _, tc := range []struct {
		header, want string
		code         fault.Code
	}{
		{"", MediaJSON, ""},
		{"application/json", MediaJSON, ""},
		{"Application/JSON; charset=UTF-8", MediaJSON, ""},
		{"application/json; charset=latin1", "", fault.UnsupportedMediaType},
		{"text/plain", "", fault.UnsupportedMediaType},
		{"application/x-www-form-urlencoded", "", fault.UnsupportedMediaType},
		{"multipart/form-data; boundary=x", "", fault.UnsupportedMediaType},
		{"application/json; charset=\"utf-8; ;;=", "", fault.InvalidFormat},
	} {
		mt, _, err := CheckContentType(tc.header, MediaJSON)
		if fault.CodeOf(err) != tc.code && !(err == nil && tc.code == "") || mt != tc.want {
			t.Errorf("%q: %q, %v; want %q, %s", tc.header, mt, err, tc.want, tc.code)
		}
		if tc.code == fault.UnsupportedMediaType {
			if got := fault.As(err).Details["accepted_content_types"]; len(got.([]string)) != 1 {
				t.Errorf("%q: accepted_content_types %v", tc.header, got)
			}
		}
	}
}
