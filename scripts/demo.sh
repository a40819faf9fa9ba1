#!/usr/bin/env bash
# The main job of elemctl on the embedded emulated stand: start a seeded
# stand in the background, point elemctl at it, look at the demo
# application and its builds, deploy, then stop the stand.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ELEMCTL_BIN:-$PWD/bin/elemctl}
# The demo's .env holds the stand's client secret: it lives in a temporary
# directory outside the checkout (or, with TMPDIR inside it, at a path
# .gitignore covers) and goes with it at the end.
work=$(mktemp -d "${TMPDIR:-/tmp}/elemctl-demo.XXXXXX")
case "$(cd "$work" && pwd -P)/" in
"$(pwd -P)"/*)
	if ! git check-ignore -q "$work/.env"; then
		echo "demo: $work is inside the checkout and git would not ignore its .env; set TMPDIR elsewhere" >&2
		rm -rf "$work"
		exit 1
	fi
	;;
esac
stand_pid=""
cleanup() {
	if [ -n "$stand_pid" ]; then kill "$stand_pid" 2>/dev/null || true; wait "$stand_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "start the emulated stand (elemctl stand --seed demo)"
# speed 0.1: the stand's operations take a tenth of their usual time.
"$bin" stand --seed demo --speed 0.1 --write-env "$work/.env" >"$work/stand.json" 2>"$work/stand.log" &
stand_pid=$!
for _ in $(seq 1 100); do [ -s "$work/.env" ] && break; sleep 0.1; done
[ -s "$work/.env" ] || { cat "$work/stand.log"; echo "the stand did not start" >&2; exit 1; }
# Show where it serves, without the client secret.
sed 's/"client-secret": ".*"/"client-secret": "***"/' "$work/stand.json"
echo "the demo's .env (with the secret, readable by you only) is $work/.env; it is removed at the end"

export ELEMCTL_DATA_DIR="$work/registry"
export ELEMCTL_CACHE_DIR="$work/cache"   # the demo leaves nothing behind
cd "$work"   # elemctl reads ./.env

step "elemctl apps list --brief"
"$bin" apps list --brief

step "elemctl apps get   (ELEMENT_APP_ID from .env)"
"$bin" apps get

step "elemctl apps debug   (the debug token masked here)"
"$bin" apps debug | sed 's/"debug-token": ".*"/"debug-token": "***"/'

if "$bin" builds list --help >/dev/null 2>&1; then
	step "elemctl builds list --brief   (build history with its summary line)"
	"$bin" builds list --brief
fi

cd - >/dev/null
if [ -x scripts/demo-deploy.sh ]; then
	scripts/demo-deploy.sh "$bin" "$work/.env"
fi

step "done: the stand stops now"
