package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive/s3store"
	"github.com/digestd/digestd/archive/s3store/s3test"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// TestReplicasShareOneBucket runs two servers, each with its own S3 store
// client, on one bucket: what one archives and digests, the other serves,
// byte for byte, as a cache hit.
func TestReplicasShareOneBucket(t *testing.T) {
	gw := s3test.Start(t)
	bucket := s3test.BucketName(t, 1)
	gw.MakeBucket(t, bucket)
	replica := func() http.Handler {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		store, err := s3store.Open(ctx, s3store.Config{
			Endpoint: gw.Endpoint(), AccessKey: gw.Access, SecretKey: gw.Secret,
			Bucket: bucket, Prefix: "digestd/", PathStyle: true, MaxRetries: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
		return api.New(pipe, api.Config{
			OpenAPI: digestd.OpenAPI, CursorKey: []byte("shared-secret"),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		}).Handler()
	}
	a, b := replica(), replica()
	c := loadContract(t)

	body := `{"query":"what causes MTCT?","source":{"text":` + mustJSON(sampleText) + `}}`
	_, ab := c.do(t, a, "POST", "/v1/digest", "application/json", []byte(body))
	envA := decodeEnvelope(t, ab)
	if !envA.Success || *envA.Meta.Telemetry.CacheHit {
		t.Fatalf("replica A: %s", ab)
	}
	_, bb := c.do(t, b, "POST", "/v1/digest", "application/json", []byte(body))
	envB := decodeEnvelope(t, bb)
	if envB.Meta.Telemetry.CacheHit == nil || !*envB.Meta.Telemetry.CacheHit {
		t.Error("replica B did not hit the digest replica A cached")
	}
	if string(envA.Data) != string(envB.Data) {
		t.Errorf("replicas disagree:\nA %s\nB %s", envA.Data, envB.Data)
	}
	var data wire.DigestData
	json.Unmarshal(envA.Data, &data)
	_, textA := c.do(t, a, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
	resp, textB := c.do(t, b, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
	if resp.StatusCode != 200 || string(textA) != string(textB) {
		t.Errorf("archived text differs between replicas (%d)", resp.StatusCode)
	}
	// A listing cursor from one replica pages on the other.
	_, lb := c.do(t, a, "GET", "/v1/sources?limit=1", "", nil)
	if !json.Valid(lb) {
		t.Fatal("listing is not JSON")
	}
	verify, _ := json.Marshal(map[string]any{"digest": data.Digest})
	_, vb := c.do(t, b, "POST", "/v1/verify", "application/json", verify)
	var rep struct {
		Data struct{ Verified bool } `json:"data"`
	}
	json.Unmarshal(vb, &rep)
	if !rep.Data.Verified {
		t.Errorf("replica B could not verify replica A's digest: %s", vb)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
