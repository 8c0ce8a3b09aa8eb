#!/usr/bin/env bash
# Installs the versitygw S3 gateway used by archive/s3store's tests, unless a
# binary is already on PATH or in $(go env GOPATH)/bin. Idempotent; prints the
# path of the binary it found or installed.
set -euo pipefail

version="${VERSITYGW_VERSION:-v1.8.0}"
gobin="$(go env GOBIN)"
if [ -z "$gobin" ]; then
	gobin="$(go env GOPATH)/bin"
fi

if bin="$(command -v versitygw 2>/dev/null)"; then
	echo "versitygw already installed: $bin"
	exit 0
fi
if [ -x "$gobin/versitygw" ]; then
	echo "versitygw already installed: $gobin/versitygw"
	exit 0
fi

echo "installing versitygw $version into $gobin" >&2
go install "github.com/versity/versitygw/cmd/versitygw@$version"
if [ ! -x "$gobin/versitygw" ]; then
	echo "go install finished but $gobin/versitygw is missing" >&2
	exit 1
fi
echo "versitygw installed: $gobin/versitygw"
