package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/digestd/digestd"
)

// contract validates requests and responses against openapi.yaml.
type contract struct {
	router routers.Router
}

// markdownBody reads a text/markdown body as a string, as kin-openapi
// reads text/plain.
func markdownBody(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	b, err := io.ReadAll(body)
	return string(b), err
}

func loadContract(t testing.TB) *contract {
	t.Helper()
	openapi3filter.RegisterBodyDecoder("text/markdown", markdownBody)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(digestd.OpenAPI)
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.yaml is not valid: %v", err)
	}
	doc.Servers = nil // match the test server's host
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return &contract{router: router}
}

// check validates one exchange: the response must be described by the
// operation the request matches, with that status and a body matching its
// schema.
func (c *contract) check(t testing.TB, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte) {
	t.Helper()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: no route in openapi.yaml: %v", req.Method, req.URL.Path, err)
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: params,
			Route:      route,
		},
		Status: resp.StatusCode,
		Header: resp.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	input.SetBodyBytes(respBody)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		t.Errorf("%s %s → %d does not match openapi.yaml: %v\nbody: %.600s", req.Method, req.URL.Path, resp.StatusCode, err, respBody)
	}
}

// do sends a request to h and validates the exchange against the contract.
func (c *contract) do(t testing.TB, h http.Handler, method, target, contentType string, body []byte, header ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	respBody, _ := io.ReadAll(resp.Body)
	// The validator reads the request again; give it a fresh one.
	vreq := httptest.NewRequest(method, target, bytes.NewReader(body))
	vreq.Header = req.Header.Clone()
	c.check(t, vreq, body, resp, respBody)
	return resp, respBody
}
