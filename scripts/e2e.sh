#!/usr/bin/env bash
# End-to-end tests with the real clients editors and agents use (npm
# packages), each against the built binary and an emulated stand. Where a
# suite cannot run (no npm, a test skipped for a missing JDK) it is said;
# with CI=true that fails the run, so a CI job never passes without them.
set -euo pipefail
cd "$(dirname "$0")/.."
ci=false
case "${CI:-}" in true | 1) ci=true ;; esac
# missing says an end-to-end test could not run: fatal under CI.
missing() {
	if $ci; then
		echo "e2e: $1 – with CI=true every end-to-end suite must run" >&2
		exit 1
	fi
	echo "e2e: $1"
}
if ! command -v npm >/dev/null 2>&1; then
	missing "npm is missing, the end-to-end suites are skipped"
	exit 0
fi
ran=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for suite in internal/*/e2e/run.sh; do
	[ -f "$suite" ] || continue
	echo "== e2e: $suite"
	bash "$suite" 2>&1 | tee "$log"
	# node's test runner ends with "# skipped N", go test marks "--- SKIP".
	skipped=$(awk '/^# skipped [0-9]+/ { n += $3 } /^ *--- SKIP/ { n++ } END { print n + 0 }' "$log")
	if [ "$skipped" -gt 0 ]; then
		missing "$skipped test(s) of $suite were skipped"
	fi
	ran=$((ran + 1))
done
echo "e2e suites run: $ran"
