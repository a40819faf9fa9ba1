// End-to-end test of `elemctl lsp`: vscode-jsonrpc (the JSON-RPC layer of
// VS Code's language client) spawns the built binary and drives it through
// a session against `elemctl stand --seed demo` running in the background.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as rpc from 'vscode-jsonrpc/node.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const exe = process.platform === 'win32' ? '.exe' : '';

let work, bin, ws, project, stand, standInfo, server, conn, serverExit;
const progress = [];
const logs = [];
const shown = [];
const diagnostics = [];
let stderr = '';

function copyTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.isDirectory()) copyTree(src, dst);
    else fs.copyFileSync(src, dst);
  }
}

// startStand runs `elemctl stand` and resolves with its JSON answer.
function startStand(envFile) {
  stand = spawn(bin, ['stand', '--seed', 'demo', '--speed', '0.001', '--write-env', envFile],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    stand.on('error', reject);
    stand.on('exit', (code) => reject(new Error(`the stand exited with ${code}`)));
    stand.stdout.on('data', (chunk) => {
      out += chunk;
      try {
        resolve(JSON.parse(out));
      } catch {
        // the answer is not complete yet
      }
    });
  });
}

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'elemctl-lsp-e2e-'));
  bin = path.join(work, 'elemctl' + exe);
  execFileSync('go', ['build', '-o', bin, './cmd/elemctl'], { cwd: repo, stdio: 'inherit' });
  ws = path.join(work, 'workspace');
  copyTree(path.join(repo, 'examples', 'demo'), ws);
  project = path.join(ws, 'Acme', 'Tasks');
  standInfo = await startStand(path.join(ws, '.env'));

  // The server runs outside the workspace: every command names its cwd.
  server = spawn(bin, ['lsp'], {
    cwd: work,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ELEMCTL_LANG: 'en',
      ELEMCTL_POLL_SCALE: '0.001',
      ELEMCTL_DATA_DIR: path.join(work, 'data'),
      // The token cache goes with the work directory.
      TMPDIR: work,
      ELEMCTL_NO_PLUGINS: '1',
      ELEMCTL_NO_PROXY: '1',
    },
  });
  server.stderr.on('data', (chunk) => { stderr += chunk; });
  serverExit = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  // Anything on stdout that is not a frame breaks the reader.
  conn.onError(([err]) => { throw err; });
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('$/progress', (p) => progress.push(p));
  conn.onNotification('window/logMessage', (p) => logs.push(p));
  conn.onNotification('window/showMessage', (p) => shown.push(p));
  conn.onNotification('textDocument/publishDiagnostics', (p) => diagnostics.push(p));
  conn.listen();
});

after(async () => {
  conn?.dispose();
  server?.kill();
  stand?.kill();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('initialize advertises the catalog and code lenses', async () => {
  const res = await conn.sendRequest('initialize', {
    processId: process.pid,
    clientInfo: { name: 'vscode-jsonrpc e2e' },
    locale: 'en',
    rootUri: pathToFileURL(ws).href,
    workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'workspace' }],
    capabilities: { window: { workDoneProgress: true } },
  });
  await conn.sendNotification('initialized', {});
  const cmds = res.capabilities.executeCommandProvider.commands;
  for (const id of ['elemctl.apps.list', 'elemctl.apps.get', 'elemctl.apps.debug', 'elemctl.deploy', 'elemctl.probe', 'elemctl.verifyDeploy']) {
    assert.ok(cmds.includes(id), `${id} in ${cmds}`);
  }
  assert.ok(res.capabilities.codeLensProvider);
  assert.equal(res.serverInfo.name, 'elemctl');
});

test('apps.list answers like the picker expects', async () => {
  const out = await conn.sendRequest('workspace/executeCommand', {
    command: 'elemctl.apps.list', arguments: [{ cwd: ws, brief: true }],
  });
  assert.equal(out.applications[0].name, standInfo['app-name']);
  assert.equal(out.applications[0].id, standInfo['app-id']);
});

test('deploy reports with progress begin, reports and end', async () => {
  const out = await conn.sendRequest('workspace/executeCommand', {
    command: 'elemctl.deploy', arguments: [{ cwd: ws, projectDir: 'Acme/Tasks' }], workDoneToken: 'e2e-deploy',
  });
  assert.equal(out.ok, true, JSON.stringify(out));
  assert.equal(out['app-id'], standInfo['app-id']);
  const kinds = progress.filter((p) => p.token === 'e2e-deploy').map((p) => p.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds.at(-1), 'end');
  assert.ok(kinds.length >= 3, kinds.join(' '));
  assert.ok(logs.some((l) => l.message.startsWith('[elemctl deploy]')));
  assert.match(shown.at(-1).message, /is applied/);
});

test('a failing probe puts the error on the file and line', async () => {
  const file = path.join(project, 'Основное', 'Задачи.xbsl');
  const good = fs.readFileSync(file, 'utf8');
  const lines = good.split('\n');
  lines.splice(1, 0, '  #error broken on purpose');
  fs.writeFileSync(file, lines.join('\n'));
  try {
    const out = await conn.sendRequest('workspace/executeCommand', {
      command: 'elemctl.probe', arguments: [{ cwd: ws }],
    });
    assert.equal(out.ok, false);
    assert.equal(out.errors[0].line, 2);
    const mine = diagnostics.filter((d) => fileURLToPath(d.uri) === file).at(-1);
    assert.ok(mine, `diagnostics for ${file}: ${JSON.stringify(diagnostics)}`);
    assert.deepEqual(mine.diagnostics[0].range.start, { line: 1, character: 2 });
    assert.match(mine.diagnostics[0].message, /broken on purpose/);
    assert.equal(shown.at(-1).type, 1);
  } finally {
    fs.writeFileSync(file, good);
  }
  const clean = await conn.sendRequest('workspace/executeCommand', { command: 'elemctl.probe', arguments: [{ cwd: ws }] });
  assert.equal(clean.ok, true);
  const last = diagnostics.filter((d) => fileURLToPath(d.uri) === file).at(-1);
  assert.deepEqual(last.diagnostics, []);
});

test('a cancelled request ends with RequestCancelled', async () => {
  const source = new rpc.CancellationTokenSource();
  const pending = conn.sendRequest('workspace/executeCommand', {
    command: 'elemctl.deploy', arguments: [{ cwd: ws }], workDoneToken: 'e2e-cancel',
  }, source.token);
  // Cancel as soon as the deploy has begun.
  while (!progress.some((p) => p.token === 'e2e-cancel' && p.value.kind === 'begin')) {
    await new Promise((r) => setTimeout(r, 2));
  }
  source.cancel();
  await assert.rejects(pending, (err) => err.code === -32800);
});

test('code lenses on the descriptor, method not found elsewhere', async () => {
  const lenses = await conn.sendRequest('textDocument/codeLens', {
    textDocument: { uri: pathToFileURL(path.join(project, 'Проект.yaml')).href },
  });
  assert.deepEqual(lenses.map((l) => l.command.command), ['elemctl.deploy', 'elemctl.probe', 'elemctl.verifyDeploy']);
  assert.equal(lenses[0].command.arguments[0].projectDir, project);
  await assert.rejects(conn.sendRequest('textDocument/hover', {}), (err) => err.code === -32601);
});

test('shutdown and exit end the process with 0', async () => {
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  assert.equal(await serverExit, 0);
  assert.ok(!stderr.includes(standInfo['client-secret']), 'the server log carries the secret');
});
