#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time each
# (FUZZTIME, default 10s; any value go test -fuzztime takes, e.g. 1m or
# 5000x). A failure leaves the input that broke it under the package's
# testdata/fuzz/<target>/: commit it with the fix, so it stays a test.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
go=${GO:-go}
failed=()
ran=0
while IFS= read -r file; do
	dir=$(dirname "$file")
	for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
		echo "== fuzz $target ($dir, $fuzztime)"
		if ! "$go" test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "./$dir"; then
			failed+=("$target ($dir)")
		fi
		ran=$((ran + 1))
	done
done < <(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | sort)
echo "fuzz targets run: $ran"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'fuzz FAILED: %s\n' "${failed[@]}" >&2
	echo "the inputs that broke them are under each package's testdata/fuzz/; commit them with the fix" >&2
	exit 1
fi
