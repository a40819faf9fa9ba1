#!/usr/bin/env bash
# The whole fault matrix and the interrupt tests (make faults): every
# mutating request against every fault, and 200 interrupts per command on
# the command line, over MCP and over LSP. The figures are printed at the
# end: cells run, leftovers, duplicates, false verdicts, pasted hints that
# failed, hangs per command. The tests run in a TMPDIR of their own that
# must be empty when they end (scripts/private-tmp.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
log=$(mktemp "${TMPDIR:-/tmp}/elemctl-faults.XXXXXX.log")
export GORACE=${GORACE:-atexit_sleep_ms=0}
ELEMCTL_FAULTS=full ./scripts/private-tmp.sh faults "$go" test -count=1 -timeout 90m -v \
	-run 'TestFaultMatrix|TestInterruptAtAnyInstant|TestCancelledCallsEndAtAnyInstant|TestCancelRequestEndsCommandsAtAnyInstant' \
	./cmd/elemctl ./internal/mcp ./internal/lsp >"$log" 2>&1
code=$?
grep -E '^(--- FAIL|FAIL|ok)|fault matrix:|hangs in|none hung|left this in its temporary directory|^\s+\S+_test\.go:[0-9]+: .*(false verdict|duplicated|left|hint|did not end|ended)' "$log"
[ "$code" -eq 0 ] && rm -f "$log" || echo "the whole output: $log" >&2
exit "$code"
