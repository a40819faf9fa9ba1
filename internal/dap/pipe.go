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
