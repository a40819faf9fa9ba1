//go:build linux

package dap

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive tells whether pid runs: a process that is gone, or a zombie no one
// reaped yet (an orphan waits for init), does not.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	fields := strings.Fields(rest)
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// The adapter does not outlive a proxy killed with SIGKILL (nothing of the
// proxy runs then: the reaper it started the adapter under kills the
// adapter's group on its parent-death signal), nor one killed with SIGHUP,
// even an adapter that ignores stdin EOF and SIGTERM – and neither does a
// process the adapter started, which would otherwise be adopted by init.
func TestKilledProxyTakesTheAdapterAlong(t *testing.T) {
	bin := buildElemctl(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startStandIn(t, bin, []string{"dap", "--adapter", fakeAdapterDir(t), "--java", testBinary(t)}, nil)
			p.client.initialize()
			p.client.call("fake/stubborn", nil)
			argv := p.client.call("fake/argv", nil).body()
			pid := int(argv["pid"].(float64))
			child := int(p.client.call("fake/spawn", nil).body()["pid"].(float64))
			for _, q := range []int{pid, child} {
				if !alive(q) {
					t.Fatalf("process %d is not running", q)
				}
			}
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			<-p.exited
			for what, q := range map[string]int{"the adapter": pid, "the adapter's child": child} {
				deadline := time.Now().Add(waitLimit)
				for alive(q) {
					if time.Now().After(deadline) {
						syscall.Kill(q, syscall.SIGKILL)
						t.Fatalf("%s %d outlived elemctl killed by %v", what, q, sig)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}

// The reaper exits with the adapter's code and takes what the adapter left
// running in its group along when the adapter ends by itself.
func TestReaperEndsWithTheAdapter(t *testing.T) {
	bin := buildElemctl(t)
	p := startStandIn(t, bin, []string{"dap", "--adapter", fakeAdapterDir(t), "--java", testBinary(t)}, nil)
	p.client.initialize()
	child := int(p.client.call("fake/spawn", nil).body()["pid"].(float64))
	p.client.request("fake/crash", nil)
	deadline := time.Now().Add(waitLimit)
	for alive(child) {
		if time.Now().After(deadline) {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the adapter's child %d outlived the adapter", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
