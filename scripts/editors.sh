#!/usr/bin/env bash
# `make editors`: installs the VS Code extension's packages from the npm
# registry (npm ci, the only network use), type-checks it with tsc and
# packages it as a .vsix into dist/. The debugger contribution is the one
# in editors/dap; the check below keeps the two from drifting apart.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null 2>&1; then
	echo "editors: npm (Node.js 20+) is needed" >&2
	exit 1
fi
ext=editors/vscode

node -e '
const fs = require("fs");
const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const dap = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const problems = [];
if (!same(pkg.contributes.debuggers, dap.contributes.debuggers)) problems.push("contributes.debuggers");
if (!same(pkg.contributes.breakpoints, dap.contributes.breakpoints)) problems.push("contributes.breakpoints");
for (const e of dap.activationEvents) if (!pkg.activationEvents.includes(e)) problems.push("activation event " + e);
if (problems.length) {
  console.error("editors: " + process.argv[1] + " differs from " + process.argv[2] + ": " + problems.join(", "));
  process.exit(1);
}
' "$ext/package.json" editors/dap/vscode-debuggers.json

(cd "$ext" && npm ci --no-audit --no-fund --loglevel=error)
(cd "$ext" && npx --no-install tsc -p . --noEmit)
echo "editors: the VS Code extension type-checks"

version=$(node -p "require('./$ext/package.json').version")
mkdir -p dist
out="$PWD/dist/elemctl-vscode-$version.vsix"
# vscode:prepublish compiles; the license is elemctl's (see README.md).
(cd "$ext" && npx --no-install vsce package --skip-license --allow-missing-repository --out "$out")
echo "editors: $out"
