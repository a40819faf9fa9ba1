#!/usr/bin/env bash
# `make editors`: installs the VS Code extension's packages from the npm
# registry (npm ci, the only network use), type-checks it with tsc, runs
# its unit tests and packages it as a .vsix into dist/ – the universal
# package, which runs elemctl from elemctl.path or PATH.
#
# `make editors-platforms` (this script with --platforms [TARGET...]):
# one .vsix per VS Code platform with the matching elemctl inside
# (bin/elemctl, bin/elemctl.exe on Windows), built as `make dist` builds
# it; without targets, every platform of a release. The extension runs
# elemctl.path when set, else that binary, else elemctl on PATH.
#
# The debugger contribution is the one in editors/dap; the check below
# keeps the two from drifting apart.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null 2>&1; then
	echo "editors: npm (Node.js 20+) is needed" >&2
	exit 1
fi
ext=editors/vscode

platforms=0
targets=()
for arg in "$@"; do
	case "$arg" in
	--platforms) platforms=1 ;;
	-*) echo "editors: unknown option $arg" >&2; exit 2 ;;
	*) targets+=("$arg") ;;
	esac
done

# goTarget maps a VS Code platform to the GOOS/GOARCH of its binary. The
# binary is static (no cgo), so the Alpine (musl) packages carry the Linux
# one.
goTarget() {
	case "$1" in
	linux-x64 | alpine-x64) echo linux/amd64 ;;
	linux-arm64 | alpine-arm64) echo linux/arm64 ;;
	darwin-x64) echo darwin/amd64 ;;
	darwin-arm64) echo darwin/arm64 ;;
	win32-x64) echo windows/amd64 ;;
	win32-arm64) echo windows/arm64 ;;
	*) return 1 ;;
	esac
}
if [ "$platforms" = 1 ] && [ "${#targets[@]}" = 0 ]; then
	targets=(linux-x64 linux-arm64 alpine-x64 alpine-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64)
fi
for t in "${targets[@]}"; do
	if ! goTarget "$t" >/dev/null; then
		echo "editors: unknown VS Code platform $t (one of linux-x64 linux-arm64 alpine-x64 alpine-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64)" >&2
		exit 2
	fi
done
if [ "$platforms" = 0 ] && [ "${#targets[@]}" != 0 ]; then
	echo "editors: platforms are packaged with --platforms" >&2
	exit 2
fi

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
(cd "$ext" && npm test --silent)

version=$(node -p "require('./$ext/package.json').version")
mkdir -p dist
# The package carries elemctl's licence.
cp LICENSE "$ext/LICENSE"
rm -rf "$ext/bin"
trap 'rm -rf "$ext/bin" "$ext/LICENSE"' EXIT

if [ "$platforms" = 0 ]; then
	out="$PWD/dist/elemctl-vscode-$version.vsix"
	(cd "$ext" && npx --no-install vsce package --out "$out")
	echo "editors: $out"
	exit 0
fi

elemctlVersion=${VERSION:-}
for t in "${targets[@]}"; do
	goos_arch=$(goTarget "$t")
	bin=elemctl
	[ "${goos_arch%/*}" = windows ] && bin=elemctl.exe
	rm -rf "$ext/bin"
	go run ./internal/dist/mkdist -binary "$goos_arch" -version "$elemctlVersion" -o "$ext/bin/$bin"
	out="$PWD/dist/elemctl-vscode-$version-$t.vsix"
	(cd "$ext" && npx --no-install vsce package --target "$t" --out "$out")
	echo "editors: $out (elemctl for $goos_arch)"
done
