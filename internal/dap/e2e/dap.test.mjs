// End-to-end test of the elemctl DAP proxy: the VS Code debug client test
// support drives `elemctl dap` through a whole attach session against the
// emulated stand (`elemctl stand`) and the Java fake adapter, all as real
// processes.

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { DebugClient } from '@vscode/debugadapter-testsupport';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const exe = process.platform === 'win32' ? '.exe' : '';
const mainClass = 'com.e1c.g5rt.debugger.adapter.App';

function have(tool) {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const missing = ['javac', 'jar', 'java'].filter((t) => !have(t));
const skip = missing.length ? `the Java fake adapter needs ${missing.join(', ')} (install a JDK 17+)` : false;

let work, proxyBin, adapterDir, projectDir, sourcesRoot, stand, standInfo;

before(async () => {
  if (skip) return;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'elemctl-dap-e2e-'));
  proxyBin = path.join(work, 'elemctl' + exe);
  execFileSync('go', ['build', '-o', proxyBin, './cmd/elemctl'], { cwd: repo, stdio: 'inherit' });

  // The Java fake adapter, packed where the real one lives: <dir>/repo/*.jar
  const classes = path.join(work, 'classes');
  execFileSync('javac', ['-encoding', 'UTF-8', '-d', classes,
    path.join(here, '..', 'testdata', 'javafake', 'com', 'e1c', 'g5rt', 'debugger', 'adapter', 'App.java')], { stdio: 'inherit' });
  adapterDir = path.join(work, 'adapter');
  fs.mkdirSync(path.join(adapterDir, 'repo'), { recursive: true });
  execFileSync('jar', ['cfe', path.join(adapterDir, 'repo', 'com.e1c.g5rt.debugger.adapter-test.jar'), mainClass, '-C', classes, '.'], { stdio: 'inherit' });

  // Sources: <root>/Acme/Tasks/Проект.yaml, debugged from the project dir.
  sourcesRoot = path.join(work, 'src');
  projectDir = path.join(sourcesRoot, 'Acme', 'Tasks');
  fs.mkdirSync(projectDir, { recursive: true });
  fs.writeFileSync(path.join(projectDir, 'Проект.yaml'), 'Имя: Tasks\nПоставщик: Acme\nВерсия: 1.0\n');

  // The emulated stand, with a .env for it in the project dir.
  stand = spawn(proxyBin, ['stand', '--seed', 'demo', '--speed', '0.001', '--write-env', path.join(projectDir, '.env')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  // The stand prints one indented JSON object, then serves.
  standInfo = await new Promise((resolve, reject) => {
    stand.on('error', reject);
    stand.on('exit', (code) => reject(new Error(`the stand exited with ${code}`)));
    let text = '';
    const lines = createInterface({ input: stand.stdout });
    lines.on('line', (line) => {
      text += line + '\n';
      if (line === '}') {
        lines.close();
        resolve(JSON.parse(text));
      }
    });
  });
});

after(() => {
  if (stand) stand.kill('SIGTERM');
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const clients = [];

function startClient(extraEnv = {}) {
  const dc = new DebugClient(proxyBin, 'dap', 'elemctl', {
    cwd: projectDir,
    // The token cache goes with the work directory.
    env: { ...process.env, TMPDIR: work, ELEMCTL_DEBUG_ADAPTER: adapterDir, ELEMCTL_LANG: 'en', ...extraEnv },
  });
  dc.defaultTimeout = 20000;
  clients.push(dc);
  return dc;
}

// A failed test must not leave a proxy running: closing its stdin lets it
// stop the adapter, and the kill makes sure.
afterEach(() => {
  for (const dc of clients.splice(0)) {
    const proc = dc._adapterProcess;
    if (proc && proc.exitCode === null) {
      proc.stdin.end();
      setTimeout(() => proc.kill(), 5000).unref();
    }
  }
});

// collect keeps what the proxy writes on stderr and its exit code.
function collect(dc) {
  const proc = dc._adapterProcess;
  const out = { stderr: '', exit: null };
  proc.stderr.on('data', (d) => { out.stderr += d.toString(); });
  out.exited = new Promise((resolve) => proc.on('exit', (code) => { out.exit = code; resolve(code); }));
  return out;
}

function record() {
  const rec = {};
  for (const line of fs.readFileSync(path.join(adapterDir, 'record.txt'), 'utf8').trimEnd().split('\n')) {
    const [kind, ...rest] = line.split('\t');
    (rec[kind] ||= []).push(rest.join('\t'));
  }
  return rec;
}

test('a whole attach session through elemctl dap', { skip, timeout: 60000 }, async () => {
  const dc = startClient();
  await dc.start();
  const proc = collect(dc);
  const events = [];
  dc.on('output', (e) => events.push(e));

  // The adapter sends initialized right after its initialize response.
  const initialized = dc.waitForEvent('initialized');
  const init = await dc.initializeRequest();
  assert.equal(init.success, true);
  assert.equal(init.body.supportsFakeJavaAdapter, true, 'the adapter answered initialize');

  const urlEvent = dc.waitForEvent('elemctl/debuggeeUrl');
  await dc.attachRequest({ type: 'elemctl', request: 'attach', name: 'Debug', appId: standInfo['app-name'] });
  await initialized;
  const url = new URL((await urlEvent).body.url);
  assert.equal(url.searchParams.get('debug-server-url'), `wss://${new URL(standInfo['base-url']).host}/debug/client`);

  const bps = await dc.setBreakpointsRequest({
    source: { path: path.join(projectDir, 'Основное', 'Задачи.xbsl') },
    breakpoints: [{ line: 2 }],
  });
  assert.equal(bps.body.breakpoints[0].verified, true);

  const stopped = dc.waitForEvent('stopped');
  await dc.configurationDoneRequest();
  await stopped;
  const threads = await dc.threadsRequest();
  assert.deepEqual(threads.body.threads, [{ id: 1, name: 'main' }]);

  // The Java fake refuses a filterless request for ref 10, as the
  // platform would hang on it; the proxy splits and merges.
  await dc.variablesRequest({ variablesReference: 1 });
  const merged = await dc.variablesRequest({ variablesReference: 10 });
  assert.deepEqual(merged.body.variables.map((v) => v.name), ['[0]', '[1]', '[2]', 'a', 'b']);

  const terminated = dc.waitForEvent('terminated');
  await dc.disconnectRequest({});
  await terminated;
  assert.equal(await proc.exited, 0, 'the proxy exits with the adapter\'s code');

  const rec = record();
  for (const opt of ['-Dfile.encoding=UTF-8', '--add-opens=java.base/java.lang=ALL-UNNAMED', '--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED']) {
    assert.ok(rec.jvm.includes(opt), `JVM option ${opt} in ${rec.jvm}`);
  }
  assert.deepEqual(rec.opens, ['java.lang=true', 'jdk.internal.misc=true']);
  const attach = JSON.parse(rec.attach[0]);
  assert.match(attach.debugToken, /^[0-9a-f]{32}$/);
  assert.equal(attach.workspace, sourcesRoot);
  assert.equal(attach.application.id, standInfo['app-id']);
  assert.equal(attach.locale, 'en');
  assert.equal(attach.retryTimeout, '60');

  assert.ok(!proc.stderr.includes(attach.debugToken), 'the debug token is not on stderr');
  assert.ok(proc.stderr.includes('"debugToken":"***"'), 'the adapter log is relayed masked');
  assert.ok(!JSON.stringify(events).includes(attach.debugToken), 'the debug token is in no event');
  assert.ok(events.some((e) => e.body.output.includes(url.href)), 'an output event shows the URL');
});

test('a platform error is the attach error', { skip, timeout: 60000 }, async () => {
  const dc = startClient();
  await dc.start();
  const proc = collect(dc);
  await dc.initializeRequest();
  await assert.rejects(dc.attachRequest({ appId: 'no-such-app' }), /application 'no-such-app' not found/);
  await dc.disconnectRequest({});
  dc.stopAdapter();
  await proc.exited;
});

test('a missing adapter is answered at initialize', { skip, timeout: 60000 }, async () => {
  const lost = startClient({ ELEMCTL_DEBUG_ADAPTER: path.join(work, 'nowhere') });
  await lost.start();
  const proc = collect(lost);
  await assert.rejects(lost.initializeRequest(), /elemctl debug-adapter extract/);
  await lost.stop();
  await proc.exited;
});
