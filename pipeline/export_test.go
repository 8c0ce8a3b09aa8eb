package pipeline

import (
	"context"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
)

// IndexName is the listing's reference of a text archived at at, for tests
// that build an index without the pipeline.
func IndexName(at time.Time, text archive.Hash) string {
	return indexName(sourcePosition(at, text))
}

// IndexPosition is the listing position of a text archived at at.
func IndexPosition(at time.Time, text archive.Hash) string { return sourcePosition(at, text) }

// ReadDigest reads the archived digest blob d as a cached request does:
// decoded and validated.
func (p *Pipeline) ReadDigest(ctx context.Context, d archive.Hash) (*digest.Payload, error) {
	sd, err := p.readDigest(ctx, d)
	if err != nil {
		return nil, err
	}
	return sd.Payload, nil
}
