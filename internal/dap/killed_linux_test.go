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
// proxy runs then: the kernel's parent-death signal does it), nor one
// killed with SIGHUP, even an adapter that ignores stdin EOF and SIGTERM.
func TestKilledProxyTakesTheAdapterAlong(t *testing.T) {
	bin := buildElemctl(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startStandIn(t, bin, []string{"dap", "--adapter", fakeAdapterDir(t), "--java", testBinary(t)}, nil)
			p.client.initialize()
			p.client.call("fake/stubborn", nil)
			argv := p.client.call("fake/argv", nil).body()
			pid := int(argv["pid"].(float64))
			if !alive(pid) {
				t.Fatal("the adapter is not running")
			}
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			<-p.exited
			deadline := time.Now().Add(waitLimit)
			for alive(pid) {
				if time.Now().After(deadline) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("the adapter %d outlived elemctl killed by %v", pid, sig)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
