package dap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	godap "github.com/google/go-dap"
)

// The fast fake adapter is this test binary started again by the proxy
// with a JVM argument vector: TestMain recognises it as IsAdapterLaunch
// does (the main class, possibly followed by the adapter's arguments). It is a real process on real pipes, and its
// behaviour is driven by custom requests (fake/...), which also proves that
// unknown commands and events pass the proxy.

// sleeperEnv makes this test binary a process the fake adapter started
// (fake/spawn): it sleeps, ignoring the polite signals, until killed.
const sleeperEnv = "ELEMCTL_TEST_ADAPTER_CHILD"

func runSleeper() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	time.Sleep(time.Hour)
	os.Exit(0)
}

func isFakeAdapterInvocation() bool {
	return IsAdapterLaunch(os.Args[1:])
}

type fakeAdapter struct {
	in  *bufio.Reader
	mu  sync.Mutex
	seq int
	log []map[string]any // every request received, in order
	// reverse maps a reverse request's seq to the fake/reverse request
	// waiting for its answer.
	reverse   map[int]map[string]any
	hangOnEOF bool
	// stubborn answers disconnect without exiting (and ignores stdin EOF
	// and the polite signals): only a kill ends it.
	stubborn bool
	lastRaw  string
}

func runFakeAdapter() int {
	f := &fakeAdapter{in: bufio.NewReader(os.Stdin), reverse: map[int]map[string]any{}}
	for {
		body, err := godap.ReadBaseMessage(f.in)
		if err != nil {
			if f.hangOnEOF {
				time.Sleep(time.Hour)
			}
			return 0
		}
		var msg map[string]any
		if err := json.Unmarshal(body, &msg); err != nil {
			fmt.Fprintf(os.Stderr, "fake adapter: bad frame %q\n", body)
			continue
		}
		switch msg["type"] {
		case "request":
			if code, exit := f.handle(msg, body); exit {
				return code
			}
		case "response":
			seq := int(msg["request_seq"].(float64))
			if waiting, ok := f.reverse[seq]; ok {
				delete(f.reverse, seq)
				f.respond(waiting, true, map[string]any{"got": msg}, "")
			}
		}
	}
}

func (f *fakeAdapter) send(m map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	m["seq"] = f.seq
	body, _ := json.Marshal(m)
	_ = godap.WriteBaseMessage(os.Stdout, body)
}

func (f *fakeAdapter) respond(req map[string]any, ok bool, body any, message string) {
	m := map[string]any{"type": "response", "request_seq": req["seq"], "success": ok, "command": req["command"]}
	if body != nil {
		m["body"] = body
	}
	if message != "" {
		m["message"] = message
	}
	f.send(m)
}

func (f *fakeAdapter) event(name string, body any) {
	f.send(map[string]any{"type": "event", "event": name, "body": body})
}

func variable(name string, ref, named, indexed int) map[string]any {
	v := map[string]any{"name": name, "value": name, "variablesReference": ref, "fakeCustomField": "kept"}
	if named > 0 {
		v["namedVariables"] = named
	}
	if indexed > 0 {
		v["indexedVariables"] = indexed
	}
	return v
}

// The variables tree of the fake:
//
//	ref 1 (a scope): obj→10 (2 named, 3 indexed), arr→11 (4 indexed),
//	                 rec→12 (2 named), broken→13 (1 named, 2 indexed)
//	evaluate gives ref 20 (1 named, 1 indexed)
//	the indexed half of 13 fails; ref 99 is unknown to the proxy.
func (f *fakeAdapter) variables(req map[string]any) {
	args, _ := req["arguments"].(map[string]any)
	ref := int(args["variablesReference"].(float64))
	filter, _ := args["filter"].(string)
	var vars []any
	indexed := func(n int) {
		for i := range n {
			vars = append(vars, variable(fmt.Sprintf("[%d]", i), 0, 0, 0))
		}
	}
	switch {
	case ref == 1:
		vars = []any{variable("obj", 10, 2, 3), variable("arr", 11, 0, 4), variable("rec", 12, 2, 0), variable("broken", 13, 1, 2), variable("leaf", 0, 0, 0)}
	case ref == 13 && filter == "indexed":
		f.respond(req, false, nil, "indexed children are broken")
		return
	case filter == "indexed":
		indexed(map[int]int{10: 3, 11: 4, 20: 1}[ref])
	case filter == "named":
		for i := range map[int]int{10: 2, 12: 2, 13: 1, 20: 1}[ref] {
			vars = append(vars, variable(fmt.Sprintf("n%d", i), 0, 0, 0))
		}
	default:
		vars = []any{variable(fmt.Sprintf("unfiltered-%d", ref), 0, 0, 0)}
	}
	f.respond(req, true, map[string]any{"variables": vars}, "")
}

func (f *fakeAdapter) handle(req map[string]any, raw []byte) (exitCode int, exit bool) {
	f.log = append(f.log, req)
	args, _ := req["arguments"].(map[string]any)
	switch req["command"] {
	case "initialize":
		f.respond(req, true, map[string]any{"supportsConfigurationDoneRequest": true, "supportsFakeExtension": true}, "")
		f.event("initialized", map[string]any{})
	case "attach":
		rawArgs, _ := json.Marshal(args)
		// Like a real adapter that logs its launch arguments.
		fmt.Fprintf(os.Stderr, "fake adapter: attach arguments %s\n", rawArgs)
		f.event("output", map[string]any{"category": "console", "output": "attach args=" + string(rawArgs) + "\n"})
		f.respond(req, true, nil, "")
	case "threads":
		f.respond(req, true, map[string]any{"threads": []any{map[string]any{"id": 1, "name": "main"}}}, "")
	case "evaluate":
		f.respond(req, true, map[string]any{"result": "x", "variablesReference": 20, "namedVariables": 1, "indexedVariables": 1}, "")
	case "variables":
		f.variables(req)
	case "disconnect":
		f.respond(req, true, nil, "")
		if f.stubborn {
			break
		}
		f.event("terminated", map[string]any{})
		return 0, true
	case "fake/stubborn":
		f.stubborn, f.hangOnEOF = true, true
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		f.respond(req, true, nil, "")
	case "fake/spawn":
		// A process of the adapter's own, as the JVM starts them: this
		// binary again, sleeping and deaf to the polite signals.
		exe, _ := os.Executable()
		child := exec.Command(exe)
		child.Env = append(os.Environ(), sleeperEnv+"=1")
		if err := child.Start(); err != nil {
			f.respond(req, false, nil, err.Error())
			break
		}
		f.respond(req, true, map[string]any{"pid": child.Process.Pid}, "")
	case "fake/argv":
		wd, _ := os.Getwd()
		f.respond(req, true, map[string]any{"argv": os.Args[1:], "cwd": wd, "pid": os.Getpid(), "standIn": os.Getenv(StandInEnv)}, "")
	case "fake/log":
		f.respond(req, true, map[string]any{"requests": f.log}, "")
	case "fake/raw-last":
		// the exact bytes of the previous request
		f.respond(req, true, map[string]any{"raw": f.lastRaw}, "")
	case "fake/reverse":
		f.mu.Lock()
		next := f.seq + 1
		f.mu.Unlock()
		f.reverse[next] = req
		f.send(map[string]any{"type": "request", "command": "runInTerminal",
			"arguments": map[string]any{"kind": "integrated", "title": "fake", "cwd": "/", "args": []string{"echo", "hi"}}})
	case "fake/big":
		// built by hand: encoding 10 MiB through encoding/json is slow
		// under the race detector and proves nothing here
		size := int(args["size"].(float64))
		f.mu.Lock()
		f.seq++
		body := fmt.Sprintf(`{"seq":%d,"type":"response","request_seq":%v,"success":true,"command":"fake/big","body":{"data":"%s"}}`,
			f.seq, req["seq"], strings.Repeat("x", size))
		_ = godap.WriteBaseMessage(os.Stdout, []byte(body))
		f.mu.Unlock()
	case "fake/flood":
		for i := range int(args["count"].(float64)) {
			f.event("fake/tick", map[string]any{"n": i})
		}
		f.respond(req, true, nil, "")
	case "fake/garbage":
		// a frame that is not JSON, then a normal answer
		_ = godap.WriteBaseMessage(os.Stdout, []byte("this is not json"))
		f.respond(req, true, map[string]any{"after": "garbage"}, "")
	case "fake/crash":
		os.Exit(3)
	case "fake/hang":
		f.hangOnEOF = true
		f.respond(req, true, nil, "")
	case "fake/echo":
		f.respond(req, true, nil, "")
	default:
		f.respond(req, false, nil, fmt.Sprintf("fake adapter: unknown request %v", req["command"]))
	}
	f.lastRaw = string(raw)
	return 0, false
}
