//go:build !linux

package dap

import (
	"fmt"
	"os"
)

// RunReaper is Linux's (see reaper_linux.go); elsewhere the adapter never
// starts under it.
func RunReaper(_ []string, _, _, stderr *os.File) int {
	fmt.Fprintln(stderr, "elemctl dap: the adapter reaper runs on Linux only")
	return 2
}
