#!/usr/bin/env bash
# End-to-end tests with the real clients editors and agents use (npm
# packages), each against the built binary and an emulated stand.
set -euo pipefail
cd "$(dirname "$0")/.."
ran=0
for suite in */e2e/run.sh; do
	[ -f "$suite" ] || continue
	echo "== e2e: $suite"
	bash "$suite"
	ran=$((ran + 1))
done
echo "e2e suites run: $ran"
