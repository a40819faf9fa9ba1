// node --test out/vscode/src/binary.test.js (run by scripts/editors.sh).
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureExecutable, resolveElemctl } from './binary';

// Every folder the tests make lives under one, removed when they end.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'elemctl-ext-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function extensionDir(withBinary: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(root, 'extension-'));
  if (withBinary) {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', withBinary), '#!/bin/sh\necho elemctl 0.0.0\n', { mode: 0o644 });
  }
  return dir;
}

test('the setting wins over the bundled binary', () => {
  const dir = extensionDir('elemctl');
  assert.deepEqual(resolveElemctl('/opt/elemctl/elemctl', dir, 'linux'), { command: '/opt/elemctl/elemctl', source: 'setting' });
  assert.deepEqual(resolveElemctl('  elemctl-dev ', dir, 'linux'), { command: 'elemctl-dev', source: 'setting' });
});

test('without a setting the bundled binary of the platform runs', () => {
  const linux = extensionDir('elemctl');
  assert.deepEqual(resolveElemctl('', linux, 'linux'), { command: path.join(linux, 'bin', 'elemctl'), source: 'bundled' });
  assert.deepEqual(resolveElemctl(undefined, linux, 'darwin').source, 'bundled');
  const windows = extensionDir('elemctl.exe');
  assert.deepEqual(resolveElemctl('', windows, 'win32'), { command: path.join(windows, 'bin', 'elemctl.exe'), source: 'bundled' });
  // A Windows package's binary is no binary for Linux.
  assert.equal(resolveElemctl('', windows, 'linux').source, 'path');
});

test('the universal package runs elemctl from PATH', () => {
  assert.deepEqual(resolveElemctl('', extensionDir(undefined), 'linux'), { command: 'elemctl', source: 'path' });
  assert.deepEqual(resolveElemctl('   ', extensionDir(undefined), 'win32'), { command: 'elemctl', source: 'path' });
});

test('a bundled binary that lost its executable bit gets it back', { skip: process.platform === 'win32' }, () => {
  const dir = extensionDir('elemctl');
  const binary = resolveElemctl('', dir, process.platform);
  ensureExecutable(binary);
  fs.accessSync(binary.command, fs.constants.X_OK);
});
