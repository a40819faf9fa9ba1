#!/usr/bin/env bash
# End-to-end tests with the real clients editors and agents use (npm
# packages), each against the built binary and an emulated stand.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null 2>&1; then
	echo "e2e: npm is missing, the end-to-end suites are skipped"
	exit 0
fi
ran=0
for suite in internal/*/e2e/run.sh; do
	[ -f "$suite" ] || continue
	echo "== e2e: $suite"
	bash "$suite"
	ran=$((ran + 1))
done
echo "e2e suites run: $ran"
