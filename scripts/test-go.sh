#!/usr/bin/env bash
# The Go tests of `make test`: every package with the race detector, in a
# temporary directory of their own, which must be empty afterwards (a test
# or a command under test that leaves a folder behind fails the run).
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/elemctl-test.XXXXXX")
# A race-enabled program sleeps a second at exit by default; the tests
# start hundreds of them.
export GORACE=${GORACE:-atexit_sleep_ms=0}
TMPDIR=$tmp CGO_ENABLED=1 "$go" test -race -count=1 "$@" ./...
code=$?
left=$(ls -A "$tmp")
if [ -n "$left" ]; then
	echo "the tests left this in their temporary directory $tmp:" >&2
	ls -lA "$tmp" >&2
	[ "$code" -ne 0 ] || code=1
else
	rm -rf "$tmp"
fi
exit "$code"
