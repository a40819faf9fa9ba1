package selfupdate

import (
	"bytes"
	"encoding/binary"
	"time"

	"golang.org/x/sys/unix"
)

// listProcesses asks the kernel (sysctl kern.proc.all) for the processes,
// and kern.procargs2 for the file and command line of each; the latter
// answers only for this user's processes, the others are left out.
func listProcesses() ([]process, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	var out []process
	for _, kp := range kps {
		pid := int(kp.Proc.P_pid)
		if pid <= 0 {
			continue
		}
		exe, args, ok := procArgs(pid)
		if !ok {
			continue
		}
		out = append(out, process{PID: pid, PPID: int(kp.Eproc.Ppid), Exe: exe, Args: args})
	}
	return out, nil
}

// procArgs decodes kern.procargs2: argc (int32), the executable's path,
// NUL padding, then argc NUL-terminated arguments.
func procArgs(pid int) (exe string, args []string, ok bool) {
	raw, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(raw) < 4 {
		return "", nil, false
	}
	argc := int(binary.LittleEndian.Uint32(raw[:4]))
	rest := raw[4:]
	end := bytes.IndexByte(rest, 0)
	if end < 0 {
		return "", nil, false
	}
	exe, rest = string(rest[:end]), rest[end:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	for len(args) < argc && len(rest) > 0 {
		end := bytes.IndexByte(rest, 0)
		if end < 0 {
			end = len(rest)
		}
		args = append(args, string(rest[:end]))
		rest = rest[min(end+1, len(rest)):]
	}
	return exe, args, true
}

// running tells whether a process still runs (a zombie does not).
func running(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return false
	}
	const zombie = 5 // SZOMB
	return kp.Proc.P_stat != zombie
}

func stopProcess(pid int, grace time.Duration) error {
	return signalStop(pid, grace, running)
}
