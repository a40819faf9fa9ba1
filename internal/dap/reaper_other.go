//go:build !linux

package dap

import (
	"fmt"
	"os"
)

// RunReaper is Linux's (see reaper_linux.go); elsewhere the adapter never
// starts under it.
func RunReaper([]string) int {
	fmt.Fprintln(os.Stderr, "elemctl dap: the adapter reaper runs on Linux only")
	return 2
}
