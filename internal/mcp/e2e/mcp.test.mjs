// End-to-end test of `elemctl mcp` with the official TypeScript MCP SDK
// client, over both transports: the client spawns the real binary (stdio)
// or connects to it (`elemctl mcp --http`, streamable HTTP with a bearer
// token), and the binary talks to a real emulated stand
// (`elemctl stand --seed demo --write-env FILE`). The same suite runs once
// per transport; MCP_TRANSPORTS=stdio or =http runs one of them.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, copyFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..", "..");
const bin = process.env.ELEMCTL_BIN;
assert.ok(bin && existsSync(bin), "ELEMCTL_BIN must name the built elemctl (run.sh sets it)");
const transports = (process.env.MCP_TRANSPORTS ?? "stdio,http").split(",").map((s) => s.trim());

// A private world for the binary: registry, token cache, no plugins.
function privateEnv(work) {
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
    if (k.startsWith("ELEMENT_") || k === "ELEMCTL_MCP_TOKEN") delete env[k];
  }
  return env;
}

// startJSON runs the binary in the background and resolves with the JSON
// answer it prints on stdout once serving (the stand, the HTTP server).
function startJSON(args, env, cwd, what) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${err}`)), 20000);
    p.stdout.on("data", (chunk) => {
      out += chunk;
      try {
        const info = JSON.parse(out);
        clearTimeout(timer);
        resolve({ process: p, info, log: () => err });
      } catch {
        // not the whole answer yet
      }
    });
    p.stderr.on("data", (chunk) => (err += chunk));
    p.on("exit", (code) => reject(new Error(`${what} exited with ${code}:\n${err}`)));
  });
}

// stopped waits for a process to end after a signal.
function stopped(p, signal = "SIGINT") {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve(p.exitCode);
    p.once("exit", (code) => resolve(code));
    p.kill(signal);
  });
}

function suite(kind) {
  describe(`elemctl mcp over ${kind}`, () => {
    const work = mkdtempSync(path.join(tmpdir(), `elemctl-mcp-e2e-${kind}-`));
    const envFile = path.join(work, "stand.env");
    const envDir = path.join(work, "stands");
    const env = privateEnv(work);
    // The bearer token of the HTTP server (never printed by it).
    const token = "e2e-token-" + Math.random().toString(36).slice(2) + "-0123456789";

    let stand;
    let demo;
    let client;
    let http;
    let url;
    let serverLog = () => "";

    before(async () => {
      const s = await startJSON(["stand", "--seed", "demo", "--speed", "0.01", "--write-env", envFile], env, work, "the stand");
      stand = s.process;
      demo = s.info;
      assert.equal(demo["env-file"], envFile);

      let transport;
      if (kind === "stdio") {
        transport = new StdioClientTransport({
          command: bin,
          args: ["--env-file", envFile, "mcp"],
          env,
          cwd: work,
          stderr: "pipe",
        });
        let log = "";
        transport.stderr.on("data", (chunk) => (log += chunk));
        serverLog = () => log;
      } else {
        mkdirSync(envDir);
        http = await startJSON(
          ["--env-file", envFile, "mcp", "--http", "127.0.0.1:0", "--env-dir", envDir],
          { ...env, ELEMCTL_MCP_TOKEN: token },
          work,
          "the HTTP server",
        );
        url = http.info.url;
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        assert.equal(http.info["token-source"], "env");
        serverLog = http.log;
        transport = new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        });
      }
      client = new Client({ name: "elemctl-e2e", version: "1.0.0" });
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
      if (http) await stopped(http.process);
      if (stand) await stopped(stand, "SIGTERM");
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

    async function hasTool(name) {
      return (await client.listTools()).tools.some((t) => t.name === name);
    }

    test("the server introduces itself with instructions about rollbacks and env_file", () => {
      const info = client.getServerVersion();
      assert.equal(info.name, "elemctl");
      const text = client.getInstructions();
      for (const want of ["откатывает", "Running", "env_file"]) {
        assert.ok(text.includes(want), `instructions lack ${want}`);
      }
      assert.equal(text.includes("--env-dir"), kind === "http", "only HTTP clients hear of --env-dir");
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

    test("the stand's applications and projects are resources", async () => {
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      for (const want of [
        "elemctl://apps",
        "elemctl://projects",
        `elemctl://apps/${demo["app-id"]}`,
        `elemctl://projects/${demo["project-id"]}/builds`,
      ]) {
        assert.ok(uris.includes(want), `no ${want} among ${uris}`);
      }
      const app = resources.find((r) => r.uri === `elemctl://apps/${demo["app-id"]}`);
      assert.equal(app.name, demo["app-name"]);
      assert.equal(app.mimeType, "application/json");

      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
        "elemctl://apps/{id}",
        "elemctl://projects/{id}/builds",
      ]);

      // An application by name, as get_app answers it.
      const byName = await client.readResource({ uri: `elemctl://apps/${encodeURIComponent(demo["app-name"])}` });
      const card = JSON.parse(byName.contents[0].text);
      assert.equal(card.id, demo["app-id"]);
      assert.ok(card["applied-build"], "the card carries the applied build");
      const builds = JSON.parse(
        (await client.readResource({ uri: `elemctl://projects/${demo["project-id"]}/builds` })).contents[0].text,
      );
      assert.ok(builds.builds.length > 0 && builds.summary.includes("показано"), JSON.stringify(builds));
      const listing = JSON.parse((await client.readResource({ uri: "elemctl://apps" })).contents[0].text);
      assert.equal(listing.summary, "живых 1 из 1");

      await assert.rejects(client.readResource({ uri: "elemctl://apps/no-such-application" }), /не найдено/);
    });

    test("the prompts name existing tools and speak the server's language", async () => {
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ["deploy_and_verify", "why_rolled_back"]);
      const tools = new Set((await client.listTools()).tools.map((t) => t.name));
      const got = await client.getPrompt({ name: "why_rolled_back", arguments: { app: demo["app-name"] } });
      const text = got.messages[0].content.text;
      assert.ok(text.startsWith("Выясни"), text);
      assert.ok(text.includes(`"${demo["app-name"]}"`), text);
      const argumentNames = new Set(["app_id", "project_id", "project_dir", "expected_version"]);
      for (const named of text.match(/\b[a-z]+_[a-z_]+\b/g)) {
        if (!argumentNames.has(named)) assert.ok(tools.has(named), `the prompt names ${named}, which is no tool`);
      }
      const deploy = await client.getPrompt({ name: "deploy_and_verify", arguments: { app: "tasks", project_dir: "/p" } });
      assert.match(deploy.messages[0].content.text, /deploy .*project_dir "\/p"/);
      await assert.rejects(client.getPrompt({ name: "why_rolled_back", arguments: {} }), /app/);
    });

    test("the spec's error codes: resource not found -32002, invalid params -32602", async () => {
      await assert.rejects(client.readResource({ uri: "elemctl://apps/no-such-application" }), (err) => err.code === -32002);
      await assert.rejects(client.readResource({ uri: `elemctl://apps/${"x".repeat(1 << 20)}` }), (err) => {
        assert.equal(err.code, -32602);
        assert.ok(err.message.length < 1000, "the refusal does not repeat the id");
        return true;
      });
      await assert.rejects(client.getPrompt({ name: "why_rolled_back", arguments: {} }), (err) => err.code === -32602);
    });

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
      for (let i = 1; i < progress.length; i++) {
        assert.ok(progress[i].progress > progress[i - 1].progress, `progress ${progress.map((p) => p.progress)} must increase`);
      }
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

    if (kind === "http") {
      // raw posts an initialize request with the given headers.
      async function raw(headers) {
        return fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          }),
        });
      }

      test("no token and a wrong token get 401 and nothing else", async () => {
        for (const headers of [{}, { Authorization: "Bearer wrong-token-of-enough-length" }, { Authorization: `Basic ${token}` }]) {
          const res = await raw(headers);
          assert.equal(res.status, 401, JSON.stringify(headers));
          assert.match(res.headers.get("www-authenticate"), /^Bearer/);
          assert.equal(await res.text(), "");
          assert.equal(res.headers.get("mcp-session-id"), null);
        }
        const ok = await raw({ Authorization: `Bearer ${token}` });
        assert.equal(ok.status, 200);
        assert.ok(ok.headers.get("mcp-session-id"), "initialize opens a session");
      });

      test("the SDK client without the token is refused", async () => {
        const stranger = new Client({ name: "stranger", version: "1" });
        await assert.rejects(stranger.connect(new StreamableHTTPClientTransport(new URL(url))), (err) => err.code === 401);
        const wrong = new Client({ name: "stranger", version: "1" });
        const transport = new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}x` } },
        });
        await assert.rejects(wrong.connect(transport), (err) => err.code === 401);
      });

      // watched is a client whose HTTP traffic the test sees: the messages
      // of each stream (the GET stream's and each POST's), as they come.
      async function watched(headers = { Authorization: `Bearer ${token}` }) {
        const seen = { get: [], getOpen: false, posts: [] };
        const fetchAndWatch = async (input, init) => {
          const res = await fetch(input, init);
          if (!res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return res;
          const [mine, theirs] = res.body.tee();
          const post = init?.method === "POST" ? { request: JSON.parse(init.body), messages: [], ended: false } : null;
          if (post) seen.posts.push(post);
          else seen.getOpen = true;
          (async () => {
            const text = new TextDecoder();
            let buffer = "";
            for await (const chunk of mine) {
              buffer += text.decode(chunk, { stream: true });
              let end;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                const event = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                for (const line of event.split("\n")) {
                  if (line.startsWith("data: ")) (post ? post.messages : seen.get).push(JSON.parse(line.slice(6)));
                }
              }
            }
            if (post) post.ended = true;
          })().catch(() => {
            if (post) post.ended = true;
          });
          return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
        };
        const c = new Client({ name: "watched", version: "1" });
        await c.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchAndWatch, requestInit: { headers } }));
        await until(() => seen.getOpen, "the GET stream to open");
        return { client: c, seen };
      }

      async function until(cond, what, ms = 30000) {
        const end = Date.now() + ms;
        while (!cond()) {
          if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }

      test("with the GET stream open a call's progress comes on its own stream, increasing", async () => {
        const { client: c, seen } = await watched();
        try {
          const progress = [];
          const res = await c.callTool(
            {
              name: "deploy",
              arguments: {
                app_id: demo["app-id"],
                project_id: demo["project-id"],
                project_dir: path.join(repo, "examples", "demo", "Acme", "Tasks"),
              },
            },
            undefined,
            { timeout: 120000, onprogress: (p) => progress.push(p.progress) },
          );
          assert.equal(res.isError ?? false, false, JSON.stringify(res.content));
          assert.ok(progress.length > 1, "progress arrived");
          for (let i = 1; i < progress.length; i++) assert.ok(progress[i] > progress[i - 1], `progress ${progress}`);
          const post = seen.posts.find((p) => p.request.method === "tools/call");
          const notes = post.messages.filter((m) => m.method === "notifications/progress");
          assert.deepEqual(notes.map((m) => m.params.progress), progress, "every progress came on the call's POST stream");
          assert.equal(post.messages.at(-1).id, post.request.id, "the response comes last");
          assert.deepEqual(seen.get, [], "the GET stream carried none of it");
        } finally {
          await c.close();
        }
      });

      test("after notifications/cancelled the call is never answered", async () => {
        // A stand ten times slower than the platform, reached through
        // --env-dir: the deploy waits for minutes.
        const slowEnv = path.join(envDir, "slow.env");
        const slow = await startJSON(["stand", "--seed", "demo", "--speed", "10", "--write-env", slowEnv], env, work, "the slow stand");
        const { client: c, seen } = await watched();
        try {
          const abort = new AbortController();
          const progress = [];
          const call = c.callTool(
            {
              name: "deploy",
              arguments: {
                app_id: slow.info["app-id"],
                project_id: slow.info["project-id"],
                project_dir: path.join(repo, "examples", "demo", "Acme", "Tasks"),
                env_file: "slow.env",
              },
            },
            undefined,
            { timeout: 120000, signal: abort.signal, onprogress: (p) => progress.push(p) },
          );
          await until(() => progress.length > 0, "progress of the deploy");
          abort.abort("the user changed their mind");
          await assert.rejects(call);
          const post = seen.posts.find((p) => p.request.method === "tools/call");
          await until(() => post.ended, "the end of the call's stream");
          await until(() => serverLog().includes("вызов deploy отменён клиентом"), "the end of the call in the server log");
          assert.ok(!post.messages.some((m) => m.id === post.request.id), "the cancelled call was answered");
          assert.deepEqual(seen.get, [], "the GET stream carried something of it");
          // The session goes on.
          assert.equal((await c.callTool({ name: "list_apps", arguments: {} })).isError ?? false, false);
        } finally {
          await c.close();
          await stopped(slow.process, "SIGTERM");
        }
      });

      test("a foreign Origin or Host is refused with 403 and one line", async () => {
        const evil = await raw({ Authorization: `Bearer ${token}`, Origin: "http://evil.example" });
        const reason = await evil.text();
        assert.equal(evil.status, 403);
        assert.match(reason, /^[^\n]*evil\.example[^\n]*\n$/);
        const local = await raw({ Authorization: `Bearer ${token}`, Origin: "http://localhost:6274" });
        assert.equal(local.status, 200);
        const { request } = await import("node:http");
        const status = await new Promise((resolve, reject) => {
          const u = new URL(url);
          const req = request(
            { host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { Host: "evil.example", Authorization: `Bearer ${token}`, "Content-Type": "application/json" } },
            (res) => {
              res.resume();
              resolve(res.statusCode);
            },
          );
          req.on("error", reject);
          req.end("{}");
        });
        assert.equal(status, 403);
      });

      test("a body over the limit is 413", async () => {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(5 << 20) } }),
        });
        assert.equal(res.status, 413);
        assert.match(await res.text(), /4 MiB/);
      });

      test("a read token calls read-only tools alone; --read-only serves them alone", async () => {
        const reader = "reader-" + token;
        const tokenFile = path.join(work, "tokens");
        writeFileSync(tokenFile, `${token} full me\n${reader} read dashboard\n`, { mode: 0o600 });
        const team = await startJSON(["--env-file", envFile, "mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile], env, work, "the team server");
        const readOnly = await startJSON(["--env-file", envFile, "mcp", "--http", "127.0.0.1:0", "--read-only"], { ...env, ELEMCTL_MCP_TOKEN: token }, work, "the read-only server");
        const connect = async (where, tok) => {
          const c = new Client({ name: "scoped", version: "1" });
          await c.connect(new StreamableHTTPClientTransport(new URL(where), { requestInit: { headers: { Authorization: `Bearer ${tok}` } } }));
          return c;
        };
        const clients = [];
        try {
          for (const [where, tok, refusal] of [
            [team.info.url, reader, /dashboard.*read|read.*dashboard/],
            [readOnly.info.url, token, /--read-only/],
          ]) {
            const c = await connect(where, tok);
            clients.push(c);
            const { tools } = await c.listTools();
            assert.ok(tools.length > 5 && tools.every((t) => t.annotations.readOnlyHint === true), tools.map((t) => t.name).join(","));
            assert.ok(!tools.some((t) => t.name === "deploy" || t.name === "export_app"));
            const refused = await c.callTool({ name: "delete_app", arguments: { app_id: demo["app-id"] } });
            assert.equal(refused.isError, true);
            assert.match(refused.content[0].text, refusal);
            assert.equal((await c.callTool({ name: "list_apps", arguments: {} })).isError ?? false, false);
            assert.ok((await c.listResources()).resources.length > 0);
          }
          const full = await connect(team.info.url, token);
          clients.push(full);
          assert.ok((await full.listTools()).tools.some((t) => t.name === "deploy"), "the full token sees deploy");
        } finally {
          for (const c of clients) await c.close();
          await stopped(team.process);
          await stopped(readOnly.process);
        }
        assert.ok(!team.log().includes(reader), "the read token never appears in the log");
      });

      test("env_file reaches only the files under --env-dir", async () => {
        // The stand's own .env lies outside --env-dir: refused by the rule.
        const outside = await call("list_apps", { env_file: envFile });
        assert.equal(outside.isError, true);
        assert.match(outside.content[0].text, /--env-dir/);
        const up = await call("list_apps", { env_file: "../stand.env" });
        assert.equal(up.isError, true);
        assert.match(up.content[0].text, /--env-dir/);
        // A copy inside is another stand's .env like any other.
        copyFileSync(envFile, path.join(envDir, "copy.env"));
        const inside = answer(await call("list_apps", { env_file: "copy.env" }));
        assert.equal(inside.applications[0].id, demo["app-id"]);
      });
    }

    test("the server wrote nothing alarming on stderr", () => {
      assert.ok(!serverLog().includes("panic"), serverLog());
      assert.ok(!serverLog().includes(token), "the token never appears in the server log");
    });
  });
}

for (const kind of transports) suite(kind);
