#!/usr/bin/env bash
# Installs the npm packages of one end-to-end suite from its lockfile,
# unless node_modules already holds exactly that lockfile's install.
# usage: scripts/e2e-npm.sh SUITE_DIR
set -euo pipefail
cd "$1"
stamp=node_modules/.elemctl-package-lock.json
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then
	exit 0
fi
npm ci --no-audit --no-fund --loglevel=error --prefer-offline
cp package-lock.json "$stamp"
