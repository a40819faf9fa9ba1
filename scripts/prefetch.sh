#!/usr/bin/env bash
# Fetches everything `make test` needs from the network, up front, so the
# run itself is offline and a missing network is one clear message at the
# start instead of a failure midway:
#   - the Go modules of go.mod, the Windows, macOS and arm64 cross builds'
#     included (checked offline for each platform afterwards);
#   - the npm packages of the end-to-end suites internal/*/e2e;
#   - a JDK when javac is missing (scripts/ensure-tools.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
platforms="linux/amd64 windows/amd64 darwin/arm64 linux/arm64"

unreachable() {
	local what=$1 log=$2
	{
		echo
		echo "make test could not fetch $what:"
		sed 's/^/    /' "$log" | tail -n 8
		echo
		echo "make test needs the network once, for:"
		echo "  - the Go modules of go.mod, for every platform the cross build checks ($platforms),"
		echo "    from GOPROXY (now: $("$go" env GOPROXY));"
		if command -v npm >/dev/null 2>&1; then
			echo "  - the npm packages of the end-to-end suites (internal/*/e2e/package-lock.json),"
			echo "    from the npm registry (now: $(npm config get registry 2>/dev/null));"
		fi
		echo "  - a JDK, when javac is missing (apt-get, as root)."
		echo "Connect, or point GOPROXY and npm's registry at a mirror you can reach, and run"
		echo "'make deps' again. Once it passes, 'make test' runs without the network."
	} >&2
	exit 1
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "deps: Go modules (go mod download)"
"$go" mod download >"$log" 2>&1 || unreachable "the Go modules" "$log"
# The Go tools of go.mod: gotestsum (runs the tests), nfpm (makes the .deb
# and .rpm).
GOPROXY=off GOFLAGS="${GOFLAGS:-} -mod=readonly" "$go" list -deps tool >/dev/null 2>"$log" ||
	unreachable "the Go modules of the tools in go.mod (gotestsum, nfpm)" "$log"
for p in $platforms; do
	GOOS=${p%/*} GOARCH=${p#*/} GOPROXY=off GOFLAGS="${GOFLAGS:-} -mod=readonly" \
		"$go" list -deps -test ./... >/dev/null 2>"$log" || unreachable "the Go modules the $p build needs" "$log"
done

if command -v npm >/dev/null 2>&1; then
	for suite in internal/*/e2e; do
		[ -f "$suite/package-lock.json" ] || continue
		echo "deps: npm packages of $suite"
		./scripts/e2e-npm.sh "$suite" >"$log" 2>&1 || unreachable "the npm packages of $suite" "$log"
	done
else
	echo "deps: npm is missing: the end-to-end suites will be skipped"
fi

./scripts/ensure-tools.sh
echo "deps: ready; make test needs no network from here on"
