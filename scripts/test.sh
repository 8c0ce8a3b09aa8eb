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

go vet ./...
go test -race -count=1 -timeout 30m ./...
