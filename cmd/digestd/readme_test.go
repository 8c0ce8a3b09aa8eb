package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's everyday examples are copy-paste commands. TestReadmeExamples
// runs every command of each block marked "<!-- example: … -->" against a
// real "digestd serve" (curl commands as HTTP requests, digestd commands as
// the CLI), in order, and holds each block marked "<!-- output: … -->" to
// the answer of the command before it: every field it shows is in the
// answer with that value ("…" stands for any value). A command that fails,
// or an output the service no longer gives, fails the test.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := markedBlocks(string(readme))
	if len(blocks) < 6 {
		t.Fatalf("the README marks %d example and output blocks; its everyday examples should be marked", len(blocks))
	}
	s := startServer(t)
	t.Setenv("DIGESTD_ARCHIVE", filepath.Join(s.dir, "archive")) // the CLI examples share the server's archive
	work := t.TempDir()
	var (
		textHash string // sha256:<hex> in the examples: the archive hash of the first digest
		last     []byte // the last command's answer
		ran      int
	)
	for _, b := range blocks {
		if b.kind == "output" {
			if last == nil {
				t.Errorf("README line %d: an output block before any command", b.line)
				continue
			}
			var want, got any
			if err := json.Unmarshal([]byte(b.text), &want); err != nil {
				t.Errorf("README line %d: the output block is not JSON: %v", b.line, err)
				continue
			}
			json.Unmarshal(last, &got)
			for _, d := range shownDiffs(want, got, "") {
				t.Errorf("README line %d: %s", b.line, d)
			}
			continue
		}
		for _, cmd := range shellCommands(t, b.text) {
			if textHash != "" {
				for i := range cmd {
					cmd[i] = strings.ReplaceAll(cmd[i], "sha256:<hex>", textHash)
				}
			}
			switch cmd[0] {
			case "curl":
				last = s.curl(t, b.line, cmd)
			case "digestd":
				last = readmeCLI(t, b.line, cmd, work)
			case "python3":
				continue // reads what the curl before it saved; nothing of ours runs
			default:
				t.Fatalf("README line %d: %q is no command this test runs (curl, digestd)", b.line, cmd[0])
			}
			ran++
			if textHash == "" {
				var env struct {
					Data struct {
						Source struct {
							ArchiveHash string `json:"archive_hash"`
						} `json:"source"`
					} `json:"data"`
				}
				json.Unmarshal(last, &env)
				textHash = env.Data.Source.ArchiveHash
			}
		}
	}
	if ran < 10 {
		t.Errorf("ran %d commands of the README", ran)
	}
}

// readmeBlock is a fenced block of the README that a marker comment names.
type readmeBlock struct {
	kind string // "example" or "output"
	line int
	text string
}

var blockMarker = regexp.MustCompile(`^<!-- (example|output): `)

func markedBlocks(readme string) []readmeBlock {
	var out []readmeBlock
	lines := strings.Split(readme, "\n")
	for i := 0; i < len(lines); i++ {
		m := blockMarker.FindStringSubmatch(lines[i])
		if m == nil || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			continue
		}
		var body []string
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			body = append(body, lines[j])
		}
		out = append(out, readmeBlock{kind: m[1], line: i + 1, text: strings.Join(body, "\n")})
		i = j
	}
	return out
}

// shellCommands splits a block of shell into commands and their words, as
// sh would: quotes (which may span lines), backslash-newline, comments, and
// redirections (dropped with their target).
func shellCommands(t *testing.T, text string) [][]string {
	t.Helper()
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		end()
		for i := 0; i < len(words); i++ {
			if words[i] == ">" || words[i] == "&" {
				words = append(words[:i], words[min(i+2, len(words)):]...)
				i--
			}
		}
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	r := []rune(text)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\\' && i+1 < len(r) && r[i+1] == '\n':
			i++
		case c == '\n':
			endCmd()
		case c == ' ' || c == '\t':
			end()
		case c == '#' && !inWord:
			for i < len(r) && r[i] != '\n' {
				i++
			}
			endCmd()
		case c == '\'':
			inWord = true
			j := i + 1
			for j < len(r) && r[j] != '\'' {
				j++
			}
			word.WriteString(string(r[i+1 : j]))
			i = j
		case c == '"':
			inWord = true
			j := i + 1
			for j < len(r) && r[j] != '"' {
				if r[j] == '\\' && j+1 < len(r) {
					j++
				}
				word.WriteRune(r[j])
				j++
			}
			i = j
		default:
			inWord = true
			word.WriteRune(c)
		}
	}
	endCmd()
	return cmds
}

// repoPath makes a path of the README (relative to the repository root)
// one this test can open.
func repoPath(p string) string {
	if !filepath.IsAbs(p) && strings.Contains(p, "testdata/") {
		return filepath.Join("..", "..", p)
	}
	return p
}

// curl sends the request a curl command of the README describes and
// returns the answer's body, failing the test unless it is a success.
func (s *server) curl(t *testing.T, line int, args []string) []byte {
	t.Helper()
	var url, method, body string
	var bodyBytes []byte
	header := http.Header{}
	var form *multipart.Writer
	var formBuf bytes.Buffer
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() string {
			i++
			if i >= len(args) {
				t.Fatalf("README line %d: %s without a value", line, a)
			}
			return args[i]
		}
		switch a {
		case "-s":
		case "-X":
			method = next()
		case "-H":
			k, v, _ := strings.Cut(next(), ":")
			header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		case "-d", "--data":
			body = next()
		case "--data-binary":
			v := next()
			if p, ok := strings.CutPrefix(v, "@"); ok {
				b, err := os.ReadFile(repoPath(p))
				if err != nil {
					t.Fatalf("README line %d: %v", line, err)
				}
				bodyBytes = b
			} else {
				body = v
			}
		case "-F":
			if form == nil {
				form = multipart.NewWriter(&formBuf)
			}
			k, v, _ := strings.Cut(next(), "=")
			if p, ok := strings.CutPrefix(v, "@"); ok {
				b, err := os.ReadFile(repoPath(p))
				if err != nil {
					t.Fatalf("README line %d: %v", line, err)
				}
				w, _ := form.CreateFormFile(k, filepath.Base(p))
				w.Write(b)
			} else {
				form.WriteField(k, v)
			}
		default:
			if strings.HasPrefix(a, "-") {
				t.Fatalf("README line %d: curl option %s is not one this test knows", line, a)
			}
			url = a
		}
	}
	if form != nil {
		form.Close()
		bodyBytes = formBuf.Bytes()
		header.Set("Content-Type", form.FormDataContentType())
	} else if body != "" {
		bodyBytes = []byte(body)
		if header.Get("Content-Type") == "" {
			header.Set("Content-Type", "application/x-www-form-urlencoded") // what curl -d sends
		}
	}
	if method == "" {
		method = "GET"
		if bodyBytes != nil {
			method = "POST"
		}
	}
	target, ok := strings.CutPrefix(url, "localhost:8080")
	if !ok {
		t.Fatalf("README line %d: %q is not on localhost:8080", line, url)
	}
	req, _ := http.NewRequest(method, s.base+target, bytes.NewReader(bodyBytes))
	req.Header = header
	req.Header.Set("Authorization", "Bearer "+conformanceKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("README line %d: %v", line, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Errorf("README line %d: %s %s answered %d: %.300s", line, method, target, resp.StatusCode, b)
	}
	return b
}

// readmeCLI runs a digestd command of the README (its output files in
// work) and returns what it printed, or the last line it wrote to --out.
func readmeCLI(t *testing.T, line int, args []string, work string) []byte {
	t.Helper()
	args = append([]string(nil), args[1:]...)
	out := ""
	for i := range args {
		args[i] = repoPath(args[i])
		if i > 0 && args[i-1] == "--out" {
			out = filepath.Join(work, args[i])
			args[i] = out
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Errorf("README line %d: digestd %s: %v\n%s", line, strings.Join(args, " "), err, stderr.Bytes())
	}
	if out == "" {
		return stdout.Bytes()
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("README line %d: %v", line, err)
	}
	defer f.Close()
	var lastLine []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l struct {
			ID       string `json:"id"`
			Envelope struct {
				Success bool `json:"success"`
			} `json:"envelope"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || !l.Envelope.Success {
			t.Errorf("README line %d: an output line that is no success: %.300s", line, sc.Bytes())
		}
		lastLine = append([]byte(nil), sc.Bytes()...)
	}
	return lastLine
}

// shownDiffs lists where want (an output block) is not part of got: a
// field it shows that got lacks or holds with another value. "…" matches
// any value; an array must have as many elements as shown.
func shownDiffs(want, got any, at string) []string {
	if s, ok := want.(string); ok && s == "…" {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: the service answers %v, the README shows an object", at, got)}
		}
		var diffs []string
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s.%s: shown, but not in the answer", at, k))
				continue
			}
			diffs = append(diffs, shownDiffs(v, gv, at+"."+k)...)
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: the README shows %d elements, the service answers %v", at, len(w), got)}
		}
		var diffs []string
		for i := range w {
			diffs = append(diffs, shownDiffs(w[i], g[i], fmt.Sprintf("%s[%d]", at, i))...)
		}
		return diffs
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return []string{fmt.Sprintf("%s: the README shows %v, the service answers %v", at, want, got)}
	}
	return nil
}
