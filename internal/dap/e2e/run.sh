#!/usr/bin/env bash
# End-to-end test of the DAP proxy with the VS Code debug client test
# support. Needs Go, Node.js 20+ and a JDK 17+ (javac, jar, java).
set -euo pipefail
cd "$(dirname "$0")"
../../../scripts/e2e-npm.sh .
exec node --test
