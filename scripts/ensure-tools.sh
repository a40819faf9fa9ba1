#!/usr/bin/env bash
# Installs what the tests need and the machine may lack: a JDK (the DAP
# tests compile a fake debug adapter with javac). Node and npm come with the
# machine; the end-to-end suites install their npm packages themselves.
set -euo pipefail
if ! command -v javac >/dev/null 2>&1; then
	if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
		echo "javac is missing: installing a JDK with apt-get"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
	else
		echo "javac is missing and cannot be installed here (no apt-get or not root):"
		echo "the tests that compile the Java fake debug adapter will be skipped"
	fi
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "npm is missing: the end-to-end suites with the editors' and agents' clients will be skipped"
fi
