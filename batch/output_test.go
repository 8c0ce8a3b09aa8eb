package batch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func okLine(id string) string {
	return `{"id":"` + id + `","status":200,"envelope":{"success":true,"data":{},"error":null,"meta":{}}}` + "\n"
}

func errLine(id, code string) string {
	return `{"id":"` + id + `","status":404,"envelope":{"success":false,"data":{"error_code":"` + code + `"},"error":"x","meta":{}}}` + "\n"
}

func TestOpenOutputRepair(t *testing.T) {
	good := okLine("a") + errLine("b", "NOT_FOUND")
	tests := []struct {
		name     string
		content  string
		keep     string // the file after repair
		done     map[string]Outcome
		dupLines int
		wantErr  string
	}{
		{"empty", "", "", map[string]Outcome{}, 0, ""},
		{"intact", good, good, map[string]Outcome{"a": {Success: true}, "b": {Code: "NOT_FOUND"}}, 0, ""},
		{"torn last line", good + `{"id":"c","status":200,"env`, good, map[string]Outcome{"a": {Success: true}, "b": {Code: "NOT_FOUND"}}, 0, ""},
		{"torn valid json without newline", good + strings.TrimSuffix(okLine("c"), "\n"), good, map[string]Outcome{"a": {Success: true}, "b": {Code: "NOT_FOUND"}}, 0, ""},
		{"garbage tail lines", good + "\x00\x00\x00\n" + "{}\n" + `{"id":"c"`, good, map[string]Outcome{"a": {Success: true}, "b": {Code: "NOT_FOUND"}}, 0, ""},
		{"only a torn line", `{"id":"a","st`, "", map[string]Outcome{}, 0, ""},
		{"duplicate id", good + okLine("a"), good + okLine("a"), map[string]Outcome{"a": {Success: true}, "b": {Code: "NOT_FOUND"}}, 1, ""},
		{"corrupt middle", okLine("a") + "not json\n" + okLine("b"), "", nil, 0, "corrupt in the middle"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.jsonl")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			o, res, err := OpenOutput(path, 0)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				if b, _ := os.ReadFile(path); string(b) != tc.content {
					t.Fatalf("a file that could not be opened was changed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := o.Close(); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			if string(b) != tc.keep {
				t.Fatalf("after repair the file is %q, want %q", b, tc.keep)
			}
			if res.RepairedBytes != int64(len(tc.content)-len(tc.keep)) {
				t.Errorf("RepairedBytes = %d, want %d", res.RepairedBytes, len(tc.content)-len(tc.keep))
			}
			if len(res.Done) != len(tc.done) {
				t.Fatalf("done %v, want %v", res.Done, tc.done)
			}
			for id, o := range tc.done {
				if res.Done[id] != o {
					t.Errorf("done[%q] = %+v, want %+v", id, res.Done[id], o)
				}
			}
			if res.DuplicateLines != tc.dupLines {
				t.Errorf("DuplicateLines = %d, want %d", res.DuplicateLines, tc.dupLines)
			}
		})
	}
}

func TestOutputAppendsWholeLines(t *testing.T) {
	for _, interval := range []time.Duration{0, 20 * time.Millisecond} {
		path := filepath.Join(t.TempDir(), "out.jsonl")
		o, _, err := OpenOutput(path, interval)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := OpenOutput(path, interval); err == nil || !strings.Contains(err.Error(), "another batch run") {
			t.Fatalf("a second open of a locked output: %v, want a lock error", err)
		}
		for _, id := range []string{"a", "b", "c"} {
			if err := o.WriteLine([]byte(strings.TrimSuffix(okLine(id), "\n"))); err != nil {
				t.Fatal(err)
			}
		}
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
		o, res, err := OpenOutput(path, interval)
		if err != nil {
			t.Fatal(err)
		}
		o.Close()
		if len(res.Done) != 3 || res.RepairedBytes != 0 {
			t.Fatalf("reopened output holds %v (repaired %d), want a, b, c", res.Done, res.RepairedBytes)
		}
	}
}

// FuzzOpenOutput checks that any file content either opens, leaving a file
// of whole lines that reopens unchanged, or is refused untouched.
func FuzzOpenOutput(f *testing.F) {
	f.Add([]byte(okLine("a") + errLine("b", "X") + `{"id":`))
	f.Add([]byte("\n\n" + okLine("a")))
	f.Add([]byte(okLine("a") + "\x00"))
	f.Fuzz(func(t *testing.T, content []byte) {
		path := filepath.Join(t.TempDir(), "out.jsonl")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		o, res, err := OpenOutput(path, time.Hour)
		if err != nil {
			if b, _ := os.ReadFile(path); !bytes.Equal(b, content) {
				t.Fatal("a refused file was changed")
			}
			return
		}
		o.Close()
		b, _ := os.ReadFile(path)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Fatal("the repaired file does not end with a newline")
		}
		if !bytes.HasPrefix(content, b) {
			t.Fatal("repair changed more than the tail")
		}
		o, again, err := OpenOutput(path, time.Hour)
		if err != nil {
			t.Fatalf("the repaired file does not reopen: %v", err)
		}
		o.Close()
		if again.RepairedBytes != 0 || len(again.Done) != len(res.Done) {
			t.Fatal("a repaired file was repaired again")
		}
	})
}
