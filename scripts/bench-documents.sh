#!/usr/bin/env bash
# Compares document conversion speed with pandoc on scaled-up fixtures: a
# 300-page DOCX (about 150,000 words) and a 200-chapter EPUB made by pandoc
# from generated Markdown, and a 50-sheet XLSX (400 rows of 8 cells each)
# made by excelize (ingest/doctext's TestScaledFixtures). Each file is sent
# to a running digestd serve (multipart POST /v1/digest: conversion in a
# worker process, canonical text, archive and digest) and converted by
# `pandoc -t plain` in the same run, best of ROUNDS each; the server's
# peak resident set (VmHWM) is read after the run. pandoc reads no XLSX,
# so that row has digestd's figure alone. pandoc is installed with apt-get
# for this benchmark when missing.
#
#   scripts/bench-documents.sh            # ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"

if ! command -v pandoc >/dev/null; then
	echo "installing pandoc for the benchmark" >&2
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pandoc >/dev/null
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

go test ./ingest/doctext -run '^TestScaledFixtures$' -scaled "$work" -count=1 >/dev/null
pandoc "$work/report-300p.md" -o "$work/report-300p.docx"
pandoc "$work/book-200ch.md" -o "$work/book-200ch.epub"
go build -o "$work/digestd" ./cmd/digestd

"$work/digestd" serve --addr 127.0.0.1:0 --archive "$work/archive" --rate-limit 0 \
	--max-text-chars 20000000 >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
addr=""
for _ in $(seq 100); do
	addr="$(sed -n 's/^digestd listening on //p' "$work/serve.out")"
	[ -n "$addr" ] && break
	sleep 0.1
done
[ -n "$addr" ] || { echo "digestd did not start: $(tail -1 "$work/serve.err")" >&2; exit 1; }

# best SECONDS...: the least of its arguments.
best() { printf '%s\n' "$@" | sort -g | head -1; }

printf '| file | size | digestd serve (s) | pandoc -t plain (s) | ratio |\n|---|---|---|---|---|\n'
for f in report-300p.docx sheets-50.xlsx book-200ch.epub; do
	path="$work/$f"
	d=(); p=()
	for r in $(seq "$ROUNDS"); do
		# A new question each round, so the digest is built, not served
		# from the cache (the text is archived after the first round).
		t=$(curl -s -o "$work/answer.json" -w '%{time_total}' "http://$addr/v1/digest" \
			-F "query=which zone had the steepest decline $r" -F "file=@$path")
		grep -q '"success":true' "$work/answer.json" || { echo "$f: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
		d+=("$t")
		if [ "$f" != sheets-50.xlsx ]; then
			s=$(date +%s.%N)
			pandoc -t plain "$path" -o /dev/null
			e=$(date +%s.%N)
			p+=("$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e-s }')")
		fi
	done
	db=$(best "${d[@]}")
	if [ ${#p[@]} -gt 0 ]; then
		pb=$(best "${p[@]}")
		ratio=$(awk -v d="$db" -v p="$pb" 'BEGIN { printf "%.1fx faster", p/d }')
	else
		pb="— (pandoc reads no XLSX)"; ratio="—"
	fi
	printf '| %s | %s KiB | %.3f | %s | %s |\n' "$f" "$(( $(stat -c %s "$path") / 1024 ))" "$db" "$pb" "$ratio"
done
echo
echo "digestd serve peak RSS: $(awk '/^VmHWM/ { printf "%.0f MiB", $2/1024 }' "/proc/$server_pid/status")"
