// End-to-end test of `elemctl mcp` with the official TypeScript MCP SDK
// client: the client spawns the real binary, which talks to a real
// emulated stand (`elemctl stand --seed demo --write-env FILE`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..", "..");
const bin = process.env.ELEMCTL_BIN;
assert.ok(bin && existsSync(bin), "ELEMCTL_BIN must name the built elemctl (run.sh sets it)");

const work = mkdtempSync(path.join(tmpdir(), "elemctl-mcp-e2e-"));
const envFile = path.join(work, "stand.env");
// A private world for the binary: registry, token cache, no plugins.
const env = {
  ...process.env,
  HOME: work,
  XDG_STATE_HOME: path.join(work, "state"),
  XDG_DATA_HOME: path.join(work, "data"),
  ELEMCTL_DATA_DIR: path.join(work, "elemctl"),
  TMPDIR: work,
  ELEMCTL_NO_PLUGINS: "1",
  ELEMCTL_LANG: "ru",
  // The stand runs a hundred times faster than the platform; polls follow.
  ELEMCTL_POLL_SCALE: "0.01",
};
for (const k of Object.keys(env)) {
  if (k.startsWith("ELEMENT_")) delete env[k];
}

let stand;
let demo;
let client;
let serverLog = "";

// startStand runs the stand in the background and reads its JSON answer.
function startStand() {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ["stand", "--seed", "demo", "--speed", "0.01", "--write-env", envFile], {
      env,
      cwd: work,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error("the stand did not start:\n" + err)), 20000);
    p.stdout.on("data", (chunk) => {
      out += chunk;
      try {
        const info = JSON.parse(out);
        clearTimeout(timer);
        resolve({ process: p, info });
      } catch {
        // not the whole answer yet
      }
    });
    p.stderr.on("data", (chunk) => (err += chunk));
    p.on("exit", (code) => reject(new Error(`the stand exited with ${code}:\n${err}`)));
  });
}

before(async () => {
  const s = await startStand();
  stand = s.process;
  demo = s.info;
  assert.equal(demo["env-file"], envFile);

  const transport = new StdioClientTransport({
    command: bin,
    args: ["--env-file", envFile, "mcp"],
    env,
    cwd: work,
    stderr: "pipe",
  });
  transport.stderr.on("data", (chunk) => (serverLog += chunk));
  client = new Client({ name: "elemctl-e2e", version: "1.0.0" });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  stand?.kill();
  rmSync(work, { recursive: true, force: true });
});

// call runs a tool and returns the result as the SDK gives it.
async function call(name, args = {}, options = {}) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: 120000, ...options });
}

// answer parses the single text block of an object answer.
function answer(result) {
  assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
  assert.equal(result.content.length, 1);
  const obj = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, obj, "structuredContent mirrors the text");
  return obj;
}

test("the server introduces itself with instructions about rollbacks and env_file", () => {
  const info = client.getServerVersion();
  assert.equal(info.name, "elemctl");
  const text = client.getInstructions();
  for (const want of ["откатывает", "Running", "env_file"]) {
    assert.ok(text.includes(want), `instructions lack ${want}`);
  }
});

test("tools are listed with env_file on every platform tool", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const want of ["list_apps", "get_app", "find_app", "debug_info"]) {
    assert.ok(names.includes(want), `no ${want} among ${names}`);
  }
  const local = new Set(["build_assembly", "inspect_assembly", "debug_adapter"]);
  for (const t of tools) {
    const props = Object.keys(t.inputSchema.properties ?? {});
    if (local.has(t.name)) {
      assert.ok(!props.includes("env_file"), `${t.name} is local`);
    } else {
      assert.equal(props.at(-1), "env_file", `${t.name} ends with env_file`);
    }
    assert.equal(typeof t.annotations?.readOnlyHint, "boolean", `${t.name} annotations`);
  }
});

test("list_apps answers with counters and the summary line", async () => {
  const got = answer(await call("list_apps"));
  assert.equal(got.total, 1);
  assert.equal(got.live, 1);
  assert.equal(got.summary, "живых 1 из 1");
  assert.equal(got.applications[0].id, demo["app-id"]);
});

test("errors come back as tool results with the elemctl message", async () => {
  const missing = await call("get_app", { app_id: "no-such-application" });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /не найдено/);
  const noFile = await call("list_apps", { env_file: "nowhere.env" });
  assert.equal(noFile.isError, true);
  assert.match(noFile.content[0].text, /не найден: nowhere\.env/);
});

test("list tools keep one content block per item", async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  if (!names.includes("list_spaces")) return;
  const res = await call("list_spaces");
  assert.equal(res.isError ?? false, false);
  assert.equal(res.content.length, res.structuredContent.result.length);
  assert.equal(JSON.parse(res.content[0].text).id, demo["space-id"]);
});

async function hasTool(name) {
  return (await client.listTools()).tools.some((t) => t.name === name);
}

test("deploy reports ok with its log and sends progress", async (t) => {
  if (!(await hasTool("deploy"))) {
    t.skip("the catalog has no deploy tool");
    return;
  }
  const progress = [];
  const report = answer(
    await call(
      "deploy",
      {
        app_id: demo["app-name"],
        project_id: demo["project-id"],
        project_dir: path.join(repo, "examples", "demo", "Acme", "Tasks"),
      },
      { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
    ),
  );
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.ok(Array.isArray(report.log) && report.log.length > 0, "deploy carries its log");
  assert.ok(progress.length > 0, "progress notifications arrived");
  assert.equal(progress[0].message, report.log[0]);
});

test("probe compiles in a temporary application and cleans up", async (t) => {
  if (!(await hasTool("probe"))) {
    t.skip("the catalog has no probe tool");
    return;
  }
  const report = answer(await call("probe", { project_dir: path.join(repo, "examples", "demo", "Acme", "Tasks") }));
  assert.ok(Array.isArray(report.log) && report.log.length > 0, "probe carries its log");
  const apps = answer(await call("list_apps")).applications;
  assert.ok(!apps.some((a) => a.name.startsWith("elemctl-probe-")), "the probe application is gone");
});

test("the server wrote nothing alarming on stderr", () => {
  assert.ok(!serverLog.includes("panic"), serverLog);
});
