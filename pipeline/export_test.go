package pipeline

import (
	"time"

	"github.com/digestd/digestd/archive"
)

// IndexName is the listing's reference of a text archived at at, for tests
// that build an index without the pipeline.
func IndexName(at time.Time, text archive.Hash) string {
	return indexName(sourcePosition(at, text))
}

// IndexPosition is the listing position of a text archived at at.
func IndexPosition(at time.Time, text archive.Hash) string { return sourcePosition(at, text) }
