//go:build linux

package dap

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// RunReaper runs the adapter (argv: the JVM and its arguments) on the
// reaper's stdio (main's stdin, stdout and stderr), in the process group the reaper leads, and returns its
// exit code. It is the proxy's stand-in for the adapter's tree:
//
//   - the proxy gives it SIGTERM as its parent-death signal: when the
//     proxy dies, however it dies, the reaper kills the whole group – the
//     JVM and whatever the JVM started – and itself with it;
//   - when the JVM exits, what it left in the group is killed, and the
//     reaper exits with the JVM's code;
//   - it is a child subreaper, so what the JVM leaves orphaned is its own
//     to wait for, not init's.
//
// A signal that comes before the handler is in place ends the reaper
// before the JVM exists: nothing is left either way.
func RunReaper(argv []string, stdin, stdout, stderr *os.File) int {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	if os.Getppid() == 1 {
		return 1 // the proxy is gone already
	}
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "elemctl dap: %v\n", err)
		return 127
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case <-signals:
		_ = syscall.Kill(0, syscall.SIGKILL) // the whole group, the reaper included
		return 1
	case err = <-exited:
	}
	killGroupButSelf()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if st, ok := exit.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal())
		}
		return exit.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}

// killGroupButSelf kills every other process of the reaper's group: what
// the JVM left running.
func killGroupButSelf() {
	self := os.Getpid()
	group := syscall.Getpgrp()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name (in parentheses): state,
		// parent, group.
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) > 2 && fields[2] == strconv.Itoa(group) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
