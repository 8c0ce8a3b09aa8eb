#!/usr/bin/env bash
# Runs digestd's whole test suite on a fresh machine: installs what the tests
# need (Go modules, the S3 test server), then vets and runs every test with
# the race detector. CI runs exactly this (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

go mod download
# The S3 archive tests run against a real S3-compatible server on 127.0.0.1.
scripts/install-versitygw.sh >/dev/null
export PATH="$PATH:$(go env GOPATH)/bin"

# The web page's browser test drives Debian's Chromium through playwright-core.
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi
# The server search engine's conformance suite starts a PostgreSQL of its own on 127.0.0.1.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
# OCR (images, scanned PDF pages) runs Tesseract with the language packs the
# README names, and poppler's pdftoppm and pdfinfo.
if ! command -v pdftoppm >/dev/null || ! tesseract --list-langs 2>/dev/null | grep -qx spa; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa poppler-utils >/dev/null
fi
if ! command -v npm >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
npm ci --prefix e2e/ui --no-audit --no-fund >/dev/null
# The MCP end-to-end test uses the official MCP Inspector CLI as an independent client.
npm ci --prefix e2e/mcp --no-audit --no-fund >/dev/null

go vet ./...
# Static checks, pinned: goimports, staticcheck (tests included) and deadcode
# (code that only tests reach counts as used). Each must report nothing.
go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
go install golang.org/x/tools/cmd/deadcode@v0.52.0
go install golang.org/x/tools/cmd/goimports@v0.52.0
unformatted=$(goimports -l .)
if [ -n "$unformatted" ]; then
  echo "goimports: not formatted:" >&2
  echo "$unformatted" >&2
  exit 1
fi
staticcheck ./...
dead=$(deadcode -test ./...)
if [ -n "$dead" ]; then
  echo "deadcode: unreachable functions:" >&2
  echo "$dead" >&2
  exit 1
fi
# cmd/digestd's quality tests run digestd eval all on every dev set (about
# 20 minutes on two cores), so a package may take longer than go test's
# default.
go test -race -count=1 -timeout 50m ./...
