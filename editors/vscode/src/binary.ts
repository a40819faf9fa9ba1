// Which elemctl the extension runs. A platform package of the extension
// (vsce package --target linux-x64, ...) carries the matching binary in
// bin/; the universal package has none. Kept free of the vscode module so
// it is tested with plain node (binary.test.ts).

import * as fs from 'fs';
import * as path from 'path';

export type ElemctlSource = 'setting' | 'bundled' | 'path';

export interface ElemctlBinary {
  /** What to execute: a path, or a bare name looked up on PATH. */
  command: string;
  source: ElemctlSource;
}

/** The file name of the bundled binary on a platform (process.platform). */
export function bundledName(platform: string): string {
  return platform === 'win32' ? 'elemctl.exe' : 'elemctl';
}

/**
 * resolveElemctl chooses the binary: the elemctl.path setting when the user
 * set one, else the binary bundled in the extension's bin/ folder, else
 * `elemctl` on PATH.
 */
export function resolveElemctl(
  setting: string | undefined,
  extensionPath: string,
  platform: string = process.platform,
  isFile: (p: string) => boolean = fileExists,
): ElemctlBinary {
  const own = (setting ?? '').trim();
  if (own) {
    return { command: own, source: 'setting' };
  }
  const bundled = path.join(extensionPath, 'bin', bundledName(platform));
  if (isFile(bundled)) {
    return { command: bundled, source: 'bundled' };
  }
  return { command: 'elemctl', source: 'path' };
}

function fileExists(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * ensureExecutable restores the executable bit of the bundled binary where
 * an unpacker dropped it (not on Windows, which has none). It reports
 * nothing: a binary that still cannot run shows as an error of the server.
 */
export function ensureExecutable(binary: ElemctlBinary, platform: string = process.platform): void {
  if (binary.source !== 'bundled' || platform === 'win32') {
    return;
  }
  try {
    fs.accessSync(binary.command, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(binary.command, 0o755);
    } catch {
      // read-only extension folder: leave it to the error of the start
    }
  }
}
