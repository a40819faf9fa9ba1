#!/usr/bin/env bash
# `make editors-publish`: publishes the VS Code extension packages in dist/
# – the platform packages of `make editors-platforms` and, when there, the
# universal one of `make editors` (the fallback for other platforms) – to
# the Visual Studio Marketplace and to Open VSX.
#
# It needs a token for each registry, in the environment:
#   VSCE_PAT   a personal access token of the publisher "elemctl" on the
#              Marketplace (Azure DevOps, scope Marketplace: Manage)
#   OVSX_PAT   an access token of the namespace "elemctl" on open-vsx.org
# PUBLISH_TO=marketplace or PUBLISH_TO=openvsx publishes to one of them
# only. Everything is checked before anything is published.
set -euo pipefail
cd "$(dirname "$0")/.."
ext=editors/vscode
to=${PUBLISH_TO:-marketplace openvsx}

missing=()
for registry in $to; do
	case "$registry" in
	marketplace) [ -n "${VSCE_PAT:-}" ] || missing+=("VSCE_PAT (Visual Studio Marketplace)") ;;
	openvsx) [ -n "${OVSX_PAT:-}" ] || missing+=("OVSX_PAT (Open VSX)") ;;
	*) echo "editors-publish: PUBLISH_TO names marketplace and/or openvsx, not $registry" >&2; exit 2 ;;
	esac
done
if [ "${#missing[@]}" != 0 ]; then
	printf 'editors-publish: refused, nothing was published: the token is not set: %s\n' "${missing[@]}" >&2
	echo "editors-publish: set the variables (or PUBLISH_TO=marketplace|openvsx for one registry) and repeat" >&2
	exit 1
fi

version=$(node -p "require('./$ext/package.json').version")
shopt -s nullglob
packages=(dist/elemctl-vscode-"$version"-*.vsix)
if [ "${#packages[@]}" = 0 ]; then
	echo "editors-publish: refused: no platform package of version $version in dist/ – run make editors-platforms first" >&2
	exit 1
fi
[ -f "dist/elemctl-vscode-$version.vsix" ] && packages+=("dist/elemctl-vscode-$version.vsix")
if [ ! -x "$ext/node_modules/.bin/vsce" ] || [ ! -x "$ext/node_modules/.bin/ovsx" ]; then
	(cd "$ext" && npm ci --no-audit --no-fund --loglevel=error)
fi

for registry in $to; do
	for p in "${packages[@]}"; do
		echo "editors-publish: $p → $registry"
		case "$registry" in
		marketplace) "$ext/node_modules/.bin/vsce" publish --packagePath "$p" --pat "$VSCE_PAT" ;;
		openvsx) "$ext/node_modules/.bin/ovsx" publish "$p" --pat "$OVSX_PAT" ;;
		esac
	done
done
