#!/usr/bin/env bash
# End-to-end test of `elemctl lsp` with vscode-jsonrpc as the client: the
# built binary against `elemctl stand` in the background. Needs Go and
# Node.js 20+.
set -euo pipefail
cd "$(dirname "$0")"
../../../scripts/e2e-npm.sh .
exec node --test
