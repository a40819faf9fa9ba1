package testio

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// ProcStatusKB reads one kB figure of /proc/PID/status (VmRSS:, VmHWM:);
// Linux only.
func ProcStatusKB(pid int, field string) (int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return strconv.Atoi(f[0])
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// RunPeakKB runs cmd and returns the peak of its resident memory, read
// from its VmHWM while it runs (the last reading before it ends; Linux
// only). A child's rusage is no measure when the parent is large: the
// child shares the parent's memory until it execs, and Linux keeps that
// peak in the child's maxrss.
func RunPeakKB(cmd *exec.Cmd) (int, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	peak := 0
	for {
		if kb, err := ProcStatusKB(cmd.Process.Pid, "VmHWM:"); err == nil {
			peak = max(peak, kb)
		}
		select {
		case err := <-done:
			return peak, err
		case <-time.After(time.Millisecond):
		}
	}
}
