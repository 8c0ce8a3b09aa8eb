#!/bin/sh
# Compiles the LaTeX fixtures in this folder into PDFs (committed, so tests
# need no TeX). Needs Debian's texlive-latex-base, texlive-latex-recommended
# and texlive-fonts-recommended; ghostscript for the Type 1C (CFF) variants.
# pdfTeX embeds Type 1 fonts with their builtin encodings and no ToUnicode
# map; ghostscript's pdfwrite turns them into Type 1C programs.
# Usage: ./gen.sh   (from any directory)
set -eu
cd "$(dirname "$0")"
export SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tex in *.tex; do
	name=${tex%.tex}
	# Twice, so that running heads and references settle.
	for _ in 1 2; do
		pdflatex -interaction=nonstopmode -halt-on-error -output-directory "$tmp" \
			"\\pdfgentounicode=0\\pdftrailerid{}\\pdfinfoomitdate=1\\pdfsuppressptexinfo=-1\\input{$tex}" >/dev/null
	done
	cp "$tmp/$name.pdf" "../tex-$name.pdf"
done
if command -v gs >/dev/null; then
	for name in paper book; do
		gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -dCompatibilityLevel=1.4 \
			-sOutputFile="../tex-$name-cff.pdf" "../tex-$name.pdf"
	done
fi
