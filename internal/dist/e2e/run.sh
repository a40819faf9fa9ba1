#!/usr/bin/env bash
# End-to-end test of the VS Code extension's packages: `make editors` and
# `make editors-platforms` for two platforms (npm ci of the extension, a
# cross-built elemctl, vsce package), then the Go test that opens the
# .vsix files. Needs Go and Node.js 20+.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./scripts/editors.sh
VERSION=9.8.6 ./scripts/editors.sh --platforms linux-x64 win32-x64
version=$(node -p "require('./editors/vscode/package.json').version")
cp "dist/elemctl-vscode-$version.vsix" "dist/elemctl-vscode-$version-linux-x64.vsix" "dist/elemctl-vscode-$version-win32-x64.vsix" "$out/"
ELEMCTL_VSIX_DIR="$out" ELEMCTL_VSIX_BINARY_VERSION=9.8.6 go test -count=1 -run 'TestVSIXPackages' ./internal/dist/
