package batch

import (
	"bytes"
	"strings"
	"testing"
)

// Logs written during a run land on their own lines, never inside the bar,
// and no rate is shown before there is time to measure one.
func TestBarProgressKeepsLogsOffTheBar(t *testing.T) {
	var out bytes.Buffer
	p := NewBarProgress(&out)
	p.Start(3)
	p.Finished(true)
	p.Write([]byte("level=WARN msg=\"fetch retried\"\n"))
	p.Finished(false)
	p.Write([]byte("level=WARN msg=\"another\"\n"))
	p.Finished(true)
	p.Stop()
	for _, line := range strings.Split(out.String(), "\n") {
		if i := strings.Index(line, "level=WARN"); i >= 0 {
			// On the terminal the log starts its line: after the last
			// carriage return before it there is nothing but blanks.
			before := line[:i]
			if rest := before[strings.LastIndex(before, "\r")+1:]; strings.TrimSpace(rest) != "" {
				t.Errorf("a log line shares its line with the bar: %q", line)
			}
		}
	}
	if strings.Contains(out.String(), "docs/s") {
		t.Errorf("a rate was shown within the first second: %q", out.String())
	}
	if !strings.Contains(out.String(), "1 failed") {
		t.Errorf("failures not shown: %q", out.String())
	}
}
