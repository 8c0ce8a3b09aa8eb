package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// TestMain lets the test binary serve as its own PDF worker, as the real
// binary does (the pool re-executes os.Executable with workerCommand).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == workerCommand {
		os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
	}
	os.Exit(m.Run())
}

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), exitCode(err, &errb)
}

type cliEnvelope struct {
	Success bool `json:"success"`
	Data    struct {
		Digest    *digest.Payload `json:"digest"`
		ErrorCode string          `json:"error_code"`
		Source    struct {
			Kind        string `json:"kind"`
			ArchiveHash string `json:"archive_hash"`
		} `json:"source"`
	} `json:"data"`
}

func TestDigestCommand(t *testing.T) {
	dir := t.TempDir()
	archiveDir := filepath.Join(dir, "archive")
	text := "Glaciers retreat when summer melt exceeds winter snowfall.\nThe Rhône glacier lost 40% of its volume since 1850."
	file := filepath.Join(dir, "note.txt")
	os.WriteFile(file, []byte(text), 0o644)

	out, stderr, code := runCLI(t, "", "digest", "--archive", archiveDir, "--query", "why do glaciers retreat", file)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	var env cliEnvelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || !env.Success {
		t.Fatalf("not a success envelope: %v %s", err, out)
	}
	if err := digest.Validate(env.Data.Digest); err != nil {
		t.Fatal(err)
	}
	if _, err := digest.Verify(env.Data.Digest, archive.NewBlob(text)); err != nil {
		t.Errorf("locators do not verify against the text: %v", err)
	}
	// Stdin, and the archive from the environment.
	t.Setenv("DIGESTD_ARCHIVE", archiveDir)
	out, _, code = runCLI(t, text, "digest", "--query", "glacier volume")
	if code != 0 || !strings.Contains(out, env.Data.Source.ArchiveHash) {
		t.Errorf("stdin: exit %d %s", code, out)
	}
}

func TestDigestCommandPDFAndErrors(t *testing.T) {
	dir := t.TempDir()
	pdf := pdfgen.Build("A test", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 12, 14, "Placental transmission of HIV-1 was studied.", "It was measured in Harare.")}})
	pdfFile := filepath.Join(dir, "paper.pdf")
	os.WriteFile(pdfFile, pdf, 0o644)
	out, stderr, code := runCLI(t, "", "digest", "--archive", dir, "--query", "placental transmission", pdfFile)
	if code != 0 {
		t.Fatalf("pdf: exit %d %s %s", code, out, stderr)
	}
	var env cliEnvelope
	json.Unmarshal([]byte(out), &env)
	if env.Data.Source.Kind != "pdf" || len(env.Data.Digest.EvidenceSnippets) == 0 || env.Data.Digest.EvidenceSnippets[0].Locator.Page != 1 {
		t.Errorf("pdf digest: %s", out)
	}
	bad := filepath.Join(dir, "broken.pdf")
	os.WriteFile(bad, []byte("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"), 0o644)
	out, _, code = runCLI(t, "", "digest", "--archive", dir, "--query", "q", bad)
	json.Unmarshal([]byte(out), &env)
	if code != 2 || env.Success || env.Data.ErrorCode == "" || env.Data.ErrorCode == "INTERNAL_ERROR" {
		t.Errorf("broken pdf: exit %d %s", code, out)
	}
}

func TestUsageAndExitCodes(t *testing.T) {
	if _, _, code := runCLI(t, ""); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
	if _, _, code := runCLI(t, "", "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	out, _, code := runCLI(t, "", "help")
	if code != 0 || !strings.Contains(out, "digestd serve") {
		t.Errorf("help: %d %s", code, out)
	}
	for _, cmd := range []string{"serve", "digest", "gc", "verify", "batch", "mcp", "reindex"} {
		_, stderr, code := runCLI(t, "", cmd, "--help")
		if code != 0 || !strings.Contains(stderr, "--archive") && !strings.Contains(stderr, "-archive") {
			t.Errorf("%s --help: exit %d %s", cmd, code, stderr)
		}
	}
	out, _, code = runCLI(t, "", "hash-key", "hello")
	if code != 0 || strings.TrimSpace(out) != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Errorf("hash-key: %d %q", code, out)
	}
	// --help is help, not a key to hash; a key that looks like a flag
	// follows "--".
	for _, help := range []string{"--help", "-h"} {
		out, stderr, code := runCLI(t, "", "hash-key", help)
		if code != 0 || out != "" || !strings.Contains(stderr, "Usage: digestd hash-key") {
			t.Errorf("hash-key %s: exit %d, stdout %q, stderr %q", help, code, out, stderr)
		}
	}
	out, _, code = runCLI(t, "", "hash-key", "--", "--help")
	if code != 0 || strings.TrimSpace(out) != api.HashAPIKey("--help") {
		t.Errorf("hash-key -- --help: %d %q", code, out)
	}
	t.Setenv("DIGESTD_RATE_LIMIT", "not-a-number")
	_, _, code = runCLI(t, "", "serve", "--addr", "127.0.0.1:0")
	if code != 1 {
		t.Errorf("bad environment value: exit %d", code)
	}
}

func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "tiny-sbd")
	os.MkdirAll(set, 0o755)
	os.WriteFile(filepath.Join(set, "cases.jsonl"), []byte(`{"id":"a","text":"One. Two.","sentences":["One.","Two."]}`+"\n"), 0o644)
	out, stderr, code := runCLI(t, "", "eval", "sbd", "--json", set)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var rep struct {
		Set     string             `json:"set"`
		Kind    string             `json:"kind"`
		Cases   int                `json:"cases"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Set != "tiny-sbd" || rep.Kind != "sbd" || rep.Cases != 1 || rep.Metrics["sbd_accuracy"] != 1 {
		t.Errorf("report %s (%v)", out, err)
	}
	if _, _, code := runCLI(t, "", "eval", "nonsense", set); code == 0 {
		t.Error("unknown eval kind succeeded")
	}
}

// The one-shot command's envelope has a fresh request id, like the API's,
// and serve --help names the keys file's argument plainly.
func TestDigestCommandRequestIDAndHelp(t *testing.T) {
	dir := t.TempDir()
	ids := map[string]bool{}
	for i := 0; i < 2; i++ {
		out, stderr, code := runCLI(t, "Tides rise twice a day.", "digest", "--archive", dir, "--query", "tides")
		var env struct {
			Meta struct {
				RequestID string `json:"request_id"`
			} `json:"meta"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &env) != nil || !strings.HasPrefix(env.Meta.RequestID, "req_") {
			t.Fatalf("exit %d, request id %q: %s", code, env.Meta.RequestID, stderr)
		}
		ids[env.Meta.RequestID] = true
	}
	if len(ids) != 2 {
		t.Errorf("two runs share a request id: %v", ids)
	}
	_, stderr, _ := runCLI(t, "", "serve", "--help")
	if !strings.Contains(stderr, "-api-keys-file FILE") {
		t.Errorf("serve --help: %s", stderr)
	}
}
