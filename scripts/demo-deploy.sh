#!/usr/bin/env bash
# The main job of elemctl on a running stand: deploy the demo project
# (verified, exit 0), deploy a variant that does not compile (the platform
# rolls the apply back silently; elemctl says applied: false and exits 1),
# then probe that variant (errors with file, line and column; everything the
# probe made is removed).
#
# usage: scripts/demo-deploy.sh ELEMCTL_BINARY ENV_FILE
#   ENV_FILE points elemctl at the stand and names ELEMENT_APP_ID and
#   ELEMENT_PROJECT_ID (elemctl stand --seed demo --write-env writes one).
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 ELEMCTL_BINARY ENV_FILE" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
env_file=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
[ -x "$bin" ] || { echo "not an executable: $1" >&2; exit 2; }
[ -f "$env_file" ] || { echo "no env file: $2" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/elemctl-demo-deploy.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ELEMCTL_DATA_DIR=${ELEMCTL_DATA_DIR:-$work/registry}
export ELEMCTL_CACHE_DIR=${ELEMCTL_CACHE_DIR:-$work/cache}

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
fail() { echo "demo-deploy: $*" >&2; exit 1; }
# expect FILE PATTERN...: every pattern (grep -E) must be in the answer.
expect() {
	local file=$1
	shift
	for p in "$@"; do
		grep -Eq -- "$p" "$file" || { cat "$file" >&2; fail "the answer lacks: $p"; }
	done
}

cp -R "$root/examples/demo" "$work/good"
cp -R "$root/examples/demo" "$work/broken"
module=$(find "$work/broken" -name '*.xbsl' | sort | head -n 1)
printf '\n#error Тип "Х" не виден\n' >>"$module"
broken_line=$(wc -l <"$module" | tr -d ' ')

step "elemctl deploy   (the demo project: build, upload, apply, wait, verify)"
set +e
"$bin" --env-file "$env_file" deploy --project-dir "$work/good" >"$work/good.json"
code=$?
set -e
cat "$work/good.json"
[ "$code" -eq 0 ] || fail "deploy of the demo exited $code, expected 0"
expect "$work/good.json" '"applied": true' '"ok": true'

step "elemctl deploy   (a variant with a compile error: the platform rolls back silently)"
set +e
"$bin" --env-file "$env_file" deploy --project-dir "$work/broken" >"$work/broken.json"
code=$?
set -e
cat "$work/broken.json"
[ "$code" -eq 1 ] || fail "deploy of the broken variant exited $code, expected 1"
expect "$work/broken.json" '"applied": false' '"ok": false' '"status": "Running"'
echo "exit code $code: the application runs the previous build, and elemctl says so"

step "elemctl probe   (the broken variant in a throwaway application)"
set +e
"$bin" --env-file "$env_file" probe --project-dir "$work/broken" >"$work/probe.json"
code=$?
set -e
cat "$work/probe.json"
[ "$code" -eq 1 ] || fail "probe of the broken variant exited $code, expected 1"
expect "$work/probe.json" '"ok": false' "\"line\": $broken_line," '"column": 1,' '"file": ".+\.xbsl"' \
	'"app-deleted": true' '"assembly-deleted": true' '"problems": \[\]'
echo "exit code $code: the error is located; the throwaway application and its build are gone (and the project, when the probe created it)"
