//go:build !linux && !darwin && !windows

package selfupdate

import (
	"errors"
	"time"
)

// Other systems: holders are not looked for; the update itself works.
// errNoProcessList: this system gives no way to list processes here.
var errNoProcessList = errors.New("listing processes is not supported on this system")

func listProcesses() ([]process, error) { return nil, errNoProcessList }

func stopProcess(pid int, grace time.Duration) error { return errNoProcessList }
