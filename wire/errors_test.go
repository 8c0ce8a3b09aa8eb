package wire

import (
	"errors"
	"testing"
	"time"

	"github.com/digestd/digestd/fault"
)

func TestRetryAdvice(t *testing.T) {
	tests := []struct {
		err   error
		retry bool
		after time.Duration
	}{
		{fault.E(fault.Unavailable, "busy").With("retry_after", 3), true, 3 * time.Second},
		{fault.E(fault.FetchTimeout, "slow"), true, 0},
		{fault.E(fault.PDFEncrypted, "locked"), false, 0},
		{fault.E(fault.ValidationError, "bad").With("retry_after", 3), false, 0},
		{errors.New("unclassified"), true, 0},
	}
	for _, tt := range tests {
		retry, after := RetryAdvice(tt.err)
		if retry != tt.retry || after != tt.after {
			t.Errorf("RetryAdvice(%v) = %v, %v; want %v, %v", tt.err, retry, after, tt.retry, tt.after)
		}
	}
}
