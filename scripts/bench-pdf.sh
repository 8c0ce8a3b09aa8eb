#!/usr/bin/env bash
# Compares PDF text extraction speed (pages/s) on the pdfbox evaluation set:
# poppler's pdftotext (one process per file) against digestd's worker pool
# (one child process per file) and its extractor in process.
# poppler-utils is installed with apt-get for this benchmark only.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DIGESTD_SHARED_DATA:-$(pwd)/../shared/data}/extract-pdf-pdfbox/pdf"
ROUNDS="${ROUNDS:-5}"
[ -d "$DATA" ] || { echo "no pdfbox set at $DATA" >&2; exit 1; }

if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then
	echo "installing poppler-utils for the benchmark" >&2
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
fi

# Pages pdftotext counts as extracted: files it reads without error.
pages=0
for f in "$DATA"/*.pdf; do
	if n=$(pdfinfo "$f" 2>/dev/null | awk '/^Pages:/{print $2}') && [ -n "$n" ]; then
		pages=$((pages + n))
	fi
done
start=$(date +%s.%N)
for _ in $(seq "$ROUNDS"); do
	for f in "$DATA"/*.pdf; do pdftotext -q "$f" /dev/null || true; done
done
end=$(date +%s.%N)
awk -v p="$pages" -v r="$ROUNDS" -v s="$start" -v e="$end" \
	'BEGIN { printf "pdftotext: %d pages x %d rounds in %.2fs = %.1f pages/s\n", p, r, e-s, p*r/(e-s) }'

go test -run '^$' -bench 'BenchmarkPDFBoxSet' -benchtime "${ROUNDS}x" ./ingest/pdfworker/ |
	awk '/pages\/s/ { for (i = 1; i <= NF; i++) if ($(i) == "pages/s") printf "digestd %s: %.1f pages/s\n", $1, $(i-1) }'
