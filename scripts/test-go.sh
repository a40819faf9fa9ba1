#!/usr/bin/env bash
# The Go tests of `make test`: every package with the race detector, in a
# temporary directory of their own that must be empty afterwards
# (scripts/private-tmp.sh).
#
# gotestsum (a Go tool of go.mod) runs them: a line per test as it ends,
# so a long package shows its progress; the failures again at the end, then
# the slowest tests. It also writes the run for CI into $TEST_REPORT_DIR
# (default bin/test-report): go-test.xml (JUnit), go-test.json (go test
# -json) and slowest.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
report=${TEST_REPORT_DIR:-bin/test-report}
mkdir -p "$report"
report=$(cd "$report" && pwd)
# A race-enabled program sleeps a second at exit by default; the tests
# start hundreds of them.
export GORACE=${GORACE:-atexit_sleep_ms=0}
# The tool is built before the clock of the tests starts, outside their
# temporary directory.
gotestsum=$("$go" tool -n gotestsum) || exit 1
CGO_ENABLED=1 ./scripts/private-tmp.sh go-test "$gotestsum" \
	--format testname --format-icons text --format-hide-empty-pkg \
	--junitfile "$report/go-test.xml" --junitfile-project-name elemctl \
	--jsonfile "$report/go-test.json" \
	-- -race -count=1 "$@" ./...
code=$?
# The slowest tests, slowest first: where a long run spends its time.
if [ -s "$report/go-test.json" ]; then
	"$gotestsum" tool slowest --jsonfile "$report/go-test.json" --threshold 5s >"$report/slowest.txt" || true
	if [ -s "$report/slowest.txt" ]; then
		echo
		echo "the slowest tests (5 s and more; all of them in $report/slowest.txt):"
		head -n 15 "$report/slowest.txt"
	fi
fi
echo "the test report for CI: $report/go-test.xml"
exit "$code"
