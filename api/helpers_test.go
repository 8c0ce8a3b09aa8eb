package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
)

func serve(h http.Handler, req *http.Request) (*http.Response, []byte) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}
