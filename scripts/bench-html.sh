#!/usr/bin/env bash
# Compares HTML extraction speed on the trafilatura evaluation set:
# digestd's extractor against go-trafilatura (without and with its fallback
# extractors), in one run, one goroutine, the extractors taking turns page by
# page. go-trafilatura lives only in the nested module bench/htmlspeed, never
# in digestd's own dependencies. Without the set the benchmark is skipped.
#
#   scripts/bench-html.sh            # one round over the 990 pages
#   ROUNDS=3 scripts/bench-html.sh   # more rounds
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-1}"
if [ -z "${DIGESTD_SHARED_DATA:-}" ]; then
	DIGESTD_SHARED_DATA="$(pwd)/../shared/data"
fi
export DIGESTD_SHARED_DATA
go test -C bench/htmlspeed -run '^$' -bench 'BenchmarkTrafilaturaSet' -benchtime "${ROUNDS}x" -v . |
	awk '/^BenchmarkTrafilaturaSet/ {
		for (i = 3; i < NF; i += 2) printf "%s %s\n", $(i+1), $(i)
		next
	}
	/SKIP|skip|FAIL|_test\.go:|^ok|^PASS/ { print }'
