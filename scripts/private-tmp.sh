#!/usr/bin/env bash
# usage: scripts/private-tmp.sh NAME COMMAND [ARGS...]
#
# Runs COMMAND with TMPDIR set to a fresh directory of its own, which must be
# empty when the command ends: a test, or a command under test, that leaves a
# file or folder behind fails the run even when everything else passed. The
# command's exit code is kept. `make test` runs the Go tests and the
# end-to-end suites through it.
#
# The command also gets a cache directory of its own (ELEMCTL_CACHE_DIR),
# removed afterwards: every pack keeps the project's files in the pack cache,
# and the projects of a test run are not the user's. A test that checks the
# cache's place sets its own environment.
set -uo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 NAME COMMAND [ARGS...]" >&2
	exit 2
fi
name=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/elemctl-$name.XXXXXX")
cache=$(mktemp -d "${TMPDIR:-/tmp}/elemctl-$name-cache.XXXXXX")
TMPDIR=$tmp ELEMCTL_CACHE_DIR=$cache "$@"
code=$?
rm -rf "$cache"
left=$(ls -A "$tmp")
if [ -n "$left" ]; then
	echo "$name left this in its temporary directory $tmp:" >&2
	ls -lA "$tmp" >&2
	[ "$code" -ne 0 ] || code=1
else
	rm -rf "$tmp"
fi
exit "$code"
