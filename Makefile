# digestd developer targets. CI runs `make test` and `make fuzz-short`.
#
#   make test                 the whole suite (scripts/test.sh: vet + go test -race)
#   make fuzz [FUZZTIME=30s]  every fuzz target in the repository for FUZZTIME each
#   make fuzz-short           every fuzz target for 5s each
#   make bench                every benchmark; writes docs/BENCHMARKS.md (scripts/bench.sh)
#
# New inputs that make a fuzz target fail are written by go test under the
# package's testdata/fuzz/<Target>/ and must be committed with the fix.

FUZZTIME ?= 30s
GO ?= go

.PHONY: test fuzz fuzz-short fuzz-list bench

test:
	scripts/test.sh

# fuzz-list prints "package target" for every fuzz target, found as
# `func FuzzXxx(` in the repository's _test.go files.
fuzz-list:
	@grep -rl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.git '^func Fuzz' . | sort | while read -r f; do \
		dir=$$(dirname "$$f"); \
		sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$$f" | while read -r t; do echo "$$dir $$t"; done; \
	done

# A run that fails with only "context deadline exceeded" and writes no
# failing input is the fuzz coordinator racing its own -fuzztime deadline,
# not a finding: it is retried, twice at most (a loaded machine can lose the
# race twice running). Any other failure, or a written input, fails the
# target.
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	$(MAKE) -s --no-print-directory fuzz-list | while read -r pkg target; do \
		for attempt in 1 2 3; do \
			echo "== $$pkg $$target ($(FUZZTIME))"; \
			if $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) "$$pkg" >"$$log" 2>&1; then \
				tail -n 1 "$$log"; break; \
			fi; \
			cat "$$log"; \
			if [ "$$attempt" != 3 ] && grep -q 'context deadline exceeded' "$$log" && ! grep -q 'Failing input written to' "$$log"; then \
				echo "== $$target: fuzz-time boundary race, retrying"; continue; \
			fi; \
			exit 1; \
		done; \
	done

fuzz-short:
	@$(MAKE) -s --no-print-directory fuzz FUZZTIME=5s

bench:
	scripts/bench.sh
