package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// A plugin writes to elemctl's stderr itself unless a status line may be
// drawn there (a terminal), where its output goes through the lock that
// clears the line.
func TestPluginStderrChoice(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if got := pluginStderr(&app{stderr: file}); got != file {
		t.Errorf("stderr in a file: plugin gets %T, want the file itself", got)
	}
	if _, ok := pluginStderr(&app{stderr: &bytes.Buffer{}}).(stderrLines); !ok {
		t.Error("stderr not a file: plugin output does not go through stderrLines")
	}
	tty := openTerminal(t)
	if _, ok := pluginStderr(&app{stderr: tty}).(stderrLines); !ok {
		t.Error("stderr a terminal: plugin output does not go through stderrLines")
	}
}

// openTerminal opens the far side of a new pseudo-terminal.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlock pseudo-terminal: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("pseudo-terminal number: %v", e)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	if !isTerminal(tty) {
		t.Fatal("the pseudo-terminal is not taken for a terminal")
	}
	return tty
}
