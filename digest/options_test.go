package digest

import (
	"strings"
	"testing"
)

func TestOptions(t *testing.T) {
	if got := (Options{}).WithDefaults(); got != DefaultOptions() {
		t.Errorf("zero options with defaults = %+v, want %+v", got, DefaultOptions())
	}
	if d := DefaultOptions(); d.MaxEvidence != 10 || d.MaxKeyPoints != 10 || d.SnippetMaxChars != 500 || d.SummaryMaxChars != 2000 {
		t.Errorf("DefaultOptions = %+v", d)
	}
	tests := []struct {
		opts    Options
		wantErr string // substring; empty means valid
	}{
		{Options{}, ""},
		{Options{MaxEvidence: 1, MaxKeyPoints: 1, SnippetMaxChars: 50, SummaryMaxChars: 1}, ""},
		{DefaultOptions(), ""},
		{Options{MaxEvidence: 11}, "max_evidence: must be between 1 and 10"},
		{Options{MaxEvidence: -1}, "max_evidence: must be between 1 and 10"},
		{Options{MaxKeyPoints: 11}, "max_key_points: must be between 0 and 10"},
		{Options{SnippetMaxChars: 49}, "snippet_max_chars: must be between 50 and 500"},
		{Options{SnippetMaxChars: 501}, "snippet_max_chars: must be between 50 and 500"},
		{Options{SummaryMaxChars: 2001}, "summary_max_chars: must be between 1 and 2000"},
		{Options{SummaryMaxChars: -5}, "summary_max_chars"},
	}
	for _, tt := range tests {
		err := tt.opts.Validate()
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tt.opts, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%+v: error %v, want %q", tt.opts, err, tt.wantErr)
		}
	}
	if _, _, err := Build("text", "q", Options{MaxEvidence: 99}); err == nil {
		t.Error("Build accepted invalid options")
	}
}
