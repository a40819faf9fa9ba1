//go:build !linux && !darwin && !windows

package selfupdate

import "time"

// Other systems: holders are not looked for; the update itself works.
func listProcesses() ([]process, error) { return nil, errNoProcessList }

func stopProcess(pid int, grace time.Duration) error { return errNoProcessList }
