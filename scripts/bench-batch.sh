#!/usr/bin/env bash
# Measures `digestd batch` on the 990 web pages of the extract-html-trafilatura
# evaluation set: builds digestd, decompresses the pages into a temporary
# directory, writes a manifest, runs the batch with -j 2 (JOBS to change it)
# under /usr/bin/time -v into a fresh archive, and prints documents per
# second and peak RSS. The search index is on, as it is by default (INDEX=off
# runs without it). Installs GNU time with apt-get when it is missing.
#
#   scripts/bench-batch.sh                  # data from ../shared/data
#   INDEX=off scripts/bench-batch.sh        # without the search index
#   DIGESTD_SHARED_DATA=/data JOBS=4 scripts/bench-batch.sh
set -euo pipefail
cd "$(dirname "$0")/.."

data="${DIGESTD_SHARED_DATA:-../shared/data}"
set_dir="$data/extract-html-trafilatura"
jobs="${JOBS:-2}"
query="${QUERY:-what is the main point of this page?}"
index=()
if [ -n "${INDEX:-}" ]; then index=(--index "$INDEX"); fi
if [ ! -d "$set_dir/html" ]; then
	echo "bench-batch: $set_dir/html not found (set DIGESTD_SHARED_DATA)" >&2
	exit 1
fi

if [ ! -x /usr/bin/time ]; then
	echo "bench-batch: installing GNU time" >&2
	sudo=""
	if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
	$sudo apt-get update -qq >/dev/null
	$sudo apt-get install -y -qq time >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/digestd" ./cmd/digestd

mkdir "$work/pages"
: >"$work/sources.jsonl"
for f in "$set_dir"/html/*.html.gz; do
	name="$(basename "${f%.gz}")"
	gunzip -c "$f" >"$work/pages/$name"
	esc="${name//\\/\\\\}"
	esc="${esc//\"/\\\"}"
	printf '{"id":"%s","file":"pages/%s"}\n' "$esc" "$esc" >>"$work/sources.jsonl"
done
n="$(wc -l <"$work/sources.jsonl")"
echo "bench-batch: $n pages, -j $jobs, $(nproc) CPUs, index ${INDEX:-on}, query: $query"

status=0
/usr/bin/time -v -o "$work/time.txt" \
	"$work/digestd" batch --manifest "$work/sources.jsonl" --query "$query" \
	--out "$work/digests.jsonl" --archive "$work/archive" -j "$jobs" \
	--progress-interval 10s "${index[@]}" 2>"$work/stderr.txt" || status=$?
if [ "$status" != 0 ] && [ "$status" != 2 ]; then
	cat "$work/stderr.txt" >&2
	echo "bench-batch: digestd batch failed with status $status" >&2
	exit 1
fi
grep '^batch: ' "$work/stderr.txt" | grep -v ' done, ' || true

lines="$(wc -l <"$work/digests.jsonl")"
wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")"
rss_kb="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")"
user="$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")"
sys="$(sed -n 's/.*System time (seconds): //p' "$work/time.txt")"
secs="$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')"
awk -v n="$lines" -v s="$secs" -v kb="$rss_kb" -v st="$status" -v u="$user" -v y="$sys" 'BEGIN {
	printf "bench-batch: %d lines in %.2f s wall = %.1f documents/s (exit status %d)\n", n, s, n / s, st
	printf "bench-batch: CPU %.2f s user + %.2f s system\n", u, y
	printf "bench-batch: peak RSS %.1f MiB\n", kb / 1024
}'
if [ -d "$work/archive/search-index" ]; then
	echo "bench-batch: search index $(du -sk "$work/archive/search-index" | cut -f1) KiB"
fi
