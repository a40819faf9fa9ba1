package dap

import (
	"os"
	"os/signal"
	"syscall"
)

// keepWritingOnBrokenPipe makes a write to a stdout the client has closed
// fail with an error instead of killing the process by SIGPIPE, so the
// adapter is still stopped properly. It returns the undo.
func keepWritingOnBrokenPipe() func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}

// onHangup reports SIGHUP (the terminal or the SSH session the proxy ran in
// is gone) on the returned channel, so the adapter is stopped before the
// proxy ends; by default the signal would end the proxy at once and leave
// the adapter to the operating system. It returns the undo.
func onHangup() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	return ch, func() { signal.Stop(ch) }
}
