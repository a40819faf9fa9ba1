"""app-report: an elemctl plugin in Python, standard library only.

elemctl starts this script for every run and speaks JSON-RPC 2.0 with it
over stdin and stdout, one message per line. The script never sees
credentials: it asks elemctl for platform data (the list_apps operation,
or a raw Console API call) and elemctl makes the calls with its own client.
"""
import json
import sys

PROTOCOL = 1
_out = sys.stdout
sys.stdout = sys.stderr  # stray prints must not break the protocol
_next_id = 0


def send(message):
    message["jsonrpc"] = "2.0"
    _out.write(json.dumps(message, ensure_ascii=False) + "\n")
    _out.flush()


def receive():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)  # elemctl closed stdin
    return json.loads(line)


def log(text):
    send({"method": "log", "params": {"message": text}})


class HostError(Exception):
    def __init__(self, error):
        super().__init__(error.get("message", "host call failed"))
        self.error = error


def call(method, params):
    """Ask elemctl to run a core operation (by its MCP tool name) or "console"."""
    global _next_id
    _next_id += 1
    my_id = "py%d" % _next_id
    send({"id": my_id, "method": method, "params": params})
    while True:
        message = receive()
        if message.get("id") == my_id and "method" not in message:
            if "error" in message:
                raise HostError(message["error"])
            return message.get("result")


def app_report(args, surface):
    if args["raw"]:
        body = call("console", {"method": "GET", "path": "/applications"})
        apps = body if isinstance(body, list) else (body or {}).get("items") or (body or {}).get("applications") or []
        apps = [a for a in apps if a.get("status") != "Deleted"]
    else:
        answer = call("list_apps", {"name": args["name"] or "", "brief": True})
        apps = answer["applications"]
    if args["name"]:
        needle = args["name"].lower()
        apps = [a for a in apps if needle in (a.get("name") or a.get("display-name") or "").lower()]
    wanted = [s.lower() for s in args["status"]]
    counts = {}
    for app in apps:
        status = app.get("status") or "Unknown"
        if wanted and status.lower() not in wanted:
            continue
        counts[status] = counts.get(status, 0) + 1
    for status in sorted(counts):
        log("%s: %d" % (status, counts[status]))
    live = sum(n for s, n in counts.items() if s != "Deleted")
    report = {"surface": surface, "source": "console" if args["raw"] else "list_apps",
              "counted": live, "by-status": counts, "ok": live >= args["min_live"]}
    if not report["ok"]:
        report["exit-code"] = 3
    return report


COMMANDS = {"app-report": app_report}


def main():
    while True:
        message = receive()
        method, msg_id = message.get("method"), message.get("id")
        if method == "initialize":
            send({"id": msg_id, "result": {"protocol": PROTOCOL, "name": "app-report"}})
        elif method == "run":
            params = message["params"]
            handler = COMMANDS.get(params["command"])
            try:
                if handler is None:
                    raise ValueError("unknown command " + params["command"])
                send({"id": msg_id, "result": handler(params["arguments"], params.get("surface"))})
            except HostError as e:
                send({"id": msg_id, "error": e.error})
            except Exception as e:  # the error reaches the user as elemctl's error JSON
                send({"id": msg_id, "error": {"code": -32000, "message": "%s: %s" % (type(e).__name__, e)}})
        elif msg_id is not None and method is not None:
            send({"id": msg_id, "error": {"code": -32601, "message": "unknown method " + method}})


if __name__ == "__main__":
    main()
