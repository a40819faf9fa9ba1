#!/usr/bin/env node
// Runs the elemctl binary of this platform, which npm installed as one of
// the optional dependencies @elemctl/<platform>-<arch> (only the one whose
// "os" and "cpu" match this machine). Standard input, output and error are
// the binary's own, so `npx -y elemctl mcp` is an MCP server over stdio.
'use strict';

const { spawn } = require('child_process');

const platformPackage = `@elemctl/${process.platform}-${process.arch}`;
const binaryName = process.platform === 'win32' ? 'elemctl.exe' : 'elemctl';

let binary = process.env.ELEMCTL_BINARY_PATH;
if (!binary) {
  try {
    binary = require.resolve(`${platformPackage}/bin/${binaryName}`);
  } catch (e) {
    process.stderr.write(
      `elemctl: the package ${platformPackage} with the binary for this system is not installed.\n` +
        `npm skips it when optional dependencies are turned off (--omit=optional, --no-optional):\n` +
        `install again with optional dependencies, or install elemctl another way:\n` +
        `https://github.com/elemctl/elemctl/blob/main/docs/install.md\n`
    );
    process.exit(1);
  }
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// An interrupt from the terminal reaches elemctl directly (one process
// group); passing it on as well would count as a second interrupt, which
// stops elemctl without its clean-up. A termination aimed at this process
// alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));

child.on('error', (err) => {
  process.stderr.write(`elemctl: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
