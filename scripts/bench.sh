#!/usr/bin/env bash
# Runs every benchmark of digestd and writes docs/BENCHMARKS.md: each figure
# with the exact command that produced it and the machine it ran on.
# Benchmarks that need ../shared/data or a tool that is missing are reported
# as "not measured (reason)". `make bench` runs this.
#
#   scripts/bench.sh                                  # everything, default sizes
#   LOAD_RATE=50 LOAD_DURATION=30s scripts/bench.sh   # the load run's rate and length
#   PDF_ROUNDS=2 scripts/bench.sh                     # rounds of the PDF comparison
#   OUT=/tmp/b.md scripts/bench.sh                    # write elsewhere
set -uo pipefail
cd "$(dirname "$0")/.."

OUT="${OUT:-docs/BENCHMARKS.md}"
LOAD_RATE="${LOAD_RATE:-50}"
LOAD_DURATION="${LOAD_DURATION:-30s}"
LOAD_MIX="${LOAD_MIX:-cached=40,archive=20,html=20,pdf=10,hostile=10}"
PDF_ROUNDS="${PDF_ROUNDS:-2}"
DATA="${DIGESTD_SHARED_DATA:-$(pwd)/../shared/data}"

work="$(mktemp -d)"
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
	rm -rf "$work"
}
trap cleanup EXIT

sections="$work/sections.md"
summary="$work/summary.md"
: >"$sections"
: >"$summary"

# row NAME FIGURE COMMAND: one line of the summary table.
row() { printf '| %s | %s | `%s` |\n' "$1" "$2" "$3" >>"$summary"; }

# section TITLE COMMAND LOG: the command and the lines of its output that
# hold figures.
section() {
	{
		printf '\n### %s\n\n```sh\n%s\n```\n\n```\n' "$1" "$2"
		cat "$3"
		printf '```\n'
	} >>"$sections"
}

# bench_lines LOG: the benchmark result lines of go test output.
bench_lines() { grep -E '^(Benchmark|goos|goarch|cpu|ok|PASS|FAIL|---|\s+[a-z_]+\.go:[0-9]+:)' "$1" || true; }

# metric LOG BENCH UNIT: the value before UNIT on the first line of BENCH.
metric() { awk -v b="$2" -v u="$3" 'index($1, b) == 1 { for (i = 2; i <= NF; i++) if ($i == u) { print $(i-1); exit } }' "$1"; }

echo "bench: machine" >&2
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
mem="$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
gover="$(go version)"
when="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# 1. HTML extraction, documents per second.
echo "bench: htmltext" >&2
cmd="go test -run '^\$' -bench 'Trafilatura' -benchtime 3x ./ingest/htmltext"
eval "$cmd" >"$work/html.log" 2>&1
bench_lines "$work/html.log" >"$work/html.out"
section "HTML extraction (trafilatura pages)" "$cmd" "$work/html.out"
v="$(metric "$work/html.log" BenchmarkExtractTrafilatura docs/s)"
if [ -n "$v" ]; then row "HTML extraction, decode+parse+extract" "$v docs/s" "$cmd"
else row "HTML extraction" "not measured ($(grep -m1 -o 'skip.*\|SKIP.*\|FAIL.*' "$work/html.log" || echo 'no result'))" "$cmd"; fi
v="$(metric "$work/html.log" BenchmarkDecodeParseTrafilatura docs/s)"
[ -n "$v" ] && row "HTML decode+parse only" "$v docs/s" "$cmd"

# 1b. HTML extraction against go-trafilatura, one run, one goroutine each.
echo "bench: htmlspeed" >&2
cmd="scripts/bench-html.sh"
scripts/bench-html.sh >"$work/htmlspeed.log" 2>&1
cp "$work/htmlspeed.log" "$work/htmlspeed.out"
section "HTML extraction against go-trafilatura (trafilatura pages)" "$cmd" "$work/htmlspeed.out"
hv() { awk -v k="$1" '$1 == k { print $2; exit }' "$work/htmlspeed.log"; }
if [ -n "$(hv digestd_docs/s)" ]; then
	row "HTML extraction, digestd / go-trafilatura / go-trafilatura with fallback" "$(hv digestd_docs/s) / $(hv gotrafilatura_docs/s) / $(hv gotrafilatura_fallback_docs/s) docs/s (wall); digestd $(hv x_gotrafilatura)x, $(hv x_gotrafilatura_fallback)x" "$cmd"
	row "the same, from CPU time" "$(hv digestd_cpu_docs/s) / $(hv gotrafilatura_cpu_docs/s) / $(hv gotrafilatura_fallback_cpu_docs/s) docs/s; digestd $(hv cpu_x_gotrafilatura)x, $(hv cpu_x_gotrafilatura_fallback)x" "$cmd"
else row "HTML extraction against go-trafilatura" "not measured ($(grep -m1 -o 'skip.*\|SKIP.*\|FAIL.*' "$work/htmlspeed.log" || echo 'no result'))" "$cmd"; fi

# 2. PDF pages per second against pdftotext.
echo "bench: pdf" >&2
cmd="ROUNDS=$PDF_ROUNDS scripts/bench-pdf.sh"
if [ ! -x scripts/bench-pdf.sh ]; then
	row "PDF extraction" "not measured (scripts/bench-pdf.sh missing)" "$cmd"
elif [ ! -d "$DATA/extract-pdf-pdfbox/pdf" ]; then
	row "PDF extraction" "not measured (no $DATA/extract-pdf-pdfbox)" "$cmd"
else
	ROUNDS="$PDF_ROUNDS" scripts/bench-pdf.sh >"$work/pdf.log" 2>&1
	grep -E 'pages/s|no pdfbox|error' "$work/pdf.log" >"$work/pdf.out" || true
	section "PDF extraction against pdftotext (pdfbox set)" "$cmd" "$work/pdf.out"
	while read -r line; do
		name="${line%%:*}"
		row "PDF extraction, $name" "$(echo "$line" | grep -o '[0-9.]* pages/s' | tail -1)" "$cmd"
	done < <(grep 'pages/s' "$work/pdf.out")
	grep -q 'pages/s' "$work/pdf.out" || row "PDF extraction" "not measured ($(tail -1 "$work/pdf.log"))" "$cmd"
fi

# 2b. Office documents and EPUB against pandoc -t plain, scaled-up fixtures.
echo "bench: documents" >&2
cmd="scripts/bench-documents.sh"
if scripts/bench-documents.sh >"$work/documents.log" 2>&1; then
	grep -E '^\||peak RSS' "$work/documents.log" >"$work/documents.out"
	section "Office documents and EPUB against pandoc -t plain (scaled-up fixtures)" "$cmd" "$work/documents.out"
	while IFS='|' read -r _ file _ d p ratio _; do
		file="$(echo "$file" | xargs)"
		case "$file" in *.docx|*.xlsx|*.epub) row "document conversion + digest, $file" "$(echo "$d" | xargs) s (pandoc $(echo "$p" | xargs); $(echo "$ratio" | xargs))" "$cmd" ;; esac
	done <"$work/documents.out"
	row "server peak RSS, documents" "$(sed -n 's/.*peak RSS: //p' "$work/documents.out")" "$cmd"
else
	row "document conversion" "not measured ($(tail -1 "$work/documents.log"))" "$cmd"
fi

# 3. Digest building by document size.
echo "bench: digest" >&2
# 60 runs each, so that p95 is not one slow run of twenty.
cmd="go test -run '^\$' -bench . -benchtime 60x ./digest"
eval "$cmd" >"$work/digest.log" 2>&1
bench_lines "$work/digest.log" >"$work/digest.out"
section "Digest latency by document size" "$cmd" "$work/digest.out"
for b in BenchmarkBuild100k BenchmarkBuild500k; do
	v="$(metric "$work/digest.log" "$b" ns/op)"
	p50="$(metric "$work/digest.log" "$b" p50-ms)"
	p95="$(metric "$work/digest.log" "$b" p95-ms)"
	if [ -n "$v" ]; then row "digest.Build, ${b#BenchmarkBuild} characters" "$(awk -v n="$v" 'BEGIN { printf "%.1f ms/op", n / 1e6 }'), p50 $p50 ms, p95 $p95 ms" "$cmd"
	else row "digest.Build ${b#BenchmarkBuild}" "not measured (see log below)" "$cmd"; fi
done

echo "bench: render" >&2
# A page its script fills, rendered by a warm browser (needs /usr/bin/chromium).
cmd="go test -run '^\$' -bench 'RenderJSOnly' -benchtime 30x ./ingest/render"
eval "$cmd" >"$work/render.log" 2>&1
bench_lines "$work/render.log" >"$work/render.out"
section "Rendered page, warm browser" "$cmd" "$work/render.out"
p50="$(metric "$work/render.log" BenchmarkRenderJSOnly p50-ms)"
p95="$(metric "$work/render.log" BenchmarkRenderJSOnly p95-ms)"
if [ -n "$p50" ]; then row "Rendered page (JS-only fixture, warm browser)" "p50 $p50 ms, p95 $p95 ms" "$cmd"
else row "Rendered page" "not measured (see log below)" "$cmd"; fi

# 4. HTTP API handler benchmarks.
echo "bench: api" >&2
for spec in "PostDigest100k:POST /v1/digest, 100k-character text, uncached" "Digests20Cached:POST /v1/digests, 20 cached sources" "DigestCached:POST /v1/digest, one cached source"; do
	b="${spec%%:*}"
	label="${spec#*:}"
	cmd="go test -run '^\$' -bench '$b\$' -benchtime 30x ./api"
	eval "$cmd" >"$work/api-$b.log" 2>&1
	bench_lines "$work/api-$b.log" >"$work/api-$b.out"
	section "$label" "$cmd" "$work/api-$b.out"
	p50="$(metric "$work/api-$b.log" "Benchmark$b" p50-ms)"
	p95="$(metric "$work/api-$b.log" "Benchmark$b" p95-ms)"
	allocs="$(metric "$work/api-$b.log" "Benchmark$b" allocs/op)"
	if [ -n "$p50" ]; then row "$label" "p50 $p50 ms, p95 $p95 ms${allocs:+, $allocs allocs/op}" "$cmd"
	else row "$label" "not measured (see log below)" "$cmd"; fi
done

# 5. Requests per second and latency against a running server.
echo "bench: load" >&2
cmd="digestload --url http://127.0.0.1:PORT --rate $LOAD_RATE --duration $LOAD_DURATION --mix $LOAD_MIX --pid PID"
if go build -o "$work/digestd" ./cmd/digestd && go build -o "$work/digestload" ./cmd/digestload; then
	"$work/digestd" serve --addr 127.0.0.1:0 --archive "$work/archive" --rate-limit 0 >"$work/serve.out" 2>"$work/serve.err" &
	server_pid=$!
	addr=""
	for _ in $(seq 100); do
		addr="$(sed -n 's/^digestd listening on //p' "$work/serve.out")"
		[ -n "$addr" ] && break
		sleep 0.1
	done
	if [ -n "$addr" ]; then
		"$work/digestload" --url "http://$addr" --rate "$LOAD_RATE" --duration "$LOAD_DURATION" --mix "$LOAD_MIX" --pid "$server_pid" >"$work/load.out" 2>&1
		section "Load: digestd serve (--rate-limit 0) driven by digestload" "go build -o digestd ./cmd/digestd && go build -o digestload ./cmd/digestload
digestd serve --addr 127.0.0.1:0 --archive \$(mktemp -d) --rate-limit 0 &
$cmd" "$work/load.out"
		thr="$(sed -n 's/.*throughput \([0-9.]*\) req\/s.*/\1/p' "$work/load.out")"
		if [ -n "$thr" ]; then
			row "served requests/s at $LOAD_RATE req/s offered" "$thr req/s, $(grep -o '5xx [0-9]*' "$work/load.out" | head -1)" "$cmd"
			while read -r kind _ p50 p95 p99 _; do
				row "load p50/p95/p99, $kind" "$p50 / $p95 / $p99 ms" "$cmd"
			done < <(awk '$1 ~ /^(cached|archive|html|pdf|hostile)$/' "$work/load.out")
			row "server peak RSS under load" "$(sed -n 's/.*peak RSS \([0-9.]* MiB\).*/\1/p' "$work/load.out")" "$cmd"
		else
			row "load" "not measured ($(tail -1 "$work/load.out"))" "$cmd"
		fi
	else
		row "load" "not measured (digestd did not start: $(tail -1 "$work/serve.err"))" "$cmd"
	fi
	kill "$server_pid" 2>/dev/null
	wait "$server_pid" 2>/dev/null
	server_pid=""
else
	row "load" "not measured (build failed)" "$cmd"
fi

# 6. Archive put/get.
echo "bench: archive" >&2
cmd="go test -run '^\$' -bench . ./archive/..."
export PATH="$PATH:$(go env GOPATH)/bin"
eval "$cmd" >"$work/archive.log" 2>&1
bench_lines "$work/archive.log" >"$work/archive.out"
section "Archive put/get" "$cmd" "$work/archive.out"
found=0
# Benchmark lines come before their package's "ok" line: tag each with it.
while read -r pkg name rest; do
	p50="$(echo "$rest" | grep -o '[0-9.]* p50-ms' | cut -d' ' -f1)"
	p99="$(echo "$rest" | grep -o '[0-9.]* p99-ms' | cut -d' ' -f1)"
	[ -n "$p50" ] && { row "archive ${pkg##*/} ${name#Benchmark}" "p50 $p50 ms, p99 $p99 ms" "$cmd"; found=1; }
done < <(awk '/^Benchmark/ { buf[n++] = $0 } /^ok / { for (i = 0; i < n; i++) print $2, buf[i]; n = 0 }' "$work/archive.log")
[ "$found" = 1 ] || row "archive put/get" "not measured (see log below)" "$cmd"
grep -q 's3store.*SKIP\|s3store.*skip' "$work/archive.log" && row "archive s3store" "not measured (S3 test server missing: scripts/install-versitygw.sh)" "$cmd"

# 7. Batch documents per second.
echo "bench: batch" >&2
cmd="scripts/bench-batch.sh"
if [ ! -x scripts/bench-batch.sh ]; then
	row "batch" "not measured (scripts/bench-batch.sh missing)" "$cmd"
elif [ ! -d "$DATA/extract-html-trafilatura/html" ]; then
	row "batch" "not measured (no $DATA/extract-html-trafilatura)" "$cmd"
else
	scripts/bench-batch.sh >"$work/batch.log" 2>&1
	grep '^bench-batch:' "$work/batch.log" >"$work/batch.out" || tail -5 "$work/batch.log" >"$work/batch.out"
	section "digestd batch on the trafilatura pages" "$cmd" "$work/batch.out"
	v="$(sed -n 's/.*= \([0-9.]*\) documents\/s.*/\1/p' "$work/batch.out")"
	if [ -n "$v" ]; then row "batch, -j 2" "$v docs/s, peak RSS $(sed -n 's/.*peak RSS //p' "$work/batch.out")" "$cmd"
	else row "batch" "not measured ($(tail -1 "$work/batch.out"))" "$cmd"; fi
fi

mkdir -p "$(dirname "$OUT")"
# Sections measured by hand (hostile load runs) follow this marker and are
# kept as they are.
marker='<!-- sections below are measured by hand and kept by scripts/bench.sh -->'
kept=""
if [ -f "$OUT" ] && grep -qF "$marker" "$OUT"; then
	kept="$(awk -v m="$marker" 'index($0, m) { f = 1 } f' "$OUT")"
fi
{
	cat <<EOF
# Benchmarks

Written by \`scripts/bench.sh\` (\`make bench\`); run it again to refresh. Every figure below comes
with the exact command that produced it; the raw output follows the summary.

| | |
|---|---|
| date | $when |
| commit | $commit |
| CPUs (nproc) | $(nproc) |
| CPU | $cpu |
| memory | $mem |
| Go | $gover |
| load average at start | $load |

The machine is shared with other work while these run, so the figures are noisy and lower than on
an idle machine; compare runs only on the same machine and load. Latencies in the load run are
measured from each request's scheduled send time (open-loop), so they include any queueing.

## Summary

| benchmark | figure | command |
|---|---|---|
EOF
	cat "$summary"
	printf '\n## Output\n'
	cat "$sections"
	if [ -n "$kept" ]; then printf '\n%s\n' "$kept"; fi
} >"$OUT.new"
mv "$OUT.new" "$OUT"
echo "bench: wrote $OUT" >&2
