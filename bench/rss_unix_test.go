//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSKB is the peak resident memory of an ended process, in KiB.
func peakRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024 // bytes there
	}
	return int64(ru.Maxrss)
}
