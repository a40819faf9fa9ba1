#!/usr/bin/env bash
# End-to-end test of `elemctl mcp` with the official TypeScript MCP SDK,
# over stdio and over streamable HTTP (MCP_TRANSPORTS=stdio or =http runs
# one of them). Installs the SDK from the committed lockfile, uses
# bin/elemctl when `make build` made it (else builds one into a temporary
# directory) and runs the node test runner.
set -euo pipefail
cd "$(dirname "$0")"
../../../scripts/e2e-npm.sh .
bin="$(cd ../../.. && pwd)/bin/elemctl"
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) bin="$bin.exe" ;; esac
if [ ! -x "$bin" ]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	bin="$tmp/elemctl"
	(cd ../../.. && CGO_ENABLED=0 go build -o "$bin" ./cmd/elemctl)
fi
export ELEMCTL_BIN="$bin"
node --test
