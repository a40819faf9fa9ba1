package selfupdate

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// listProcesses reads /proc: the file each process runs (/proc/PID/exe,
// readable for the processes of this user), its command line and parent.
func listProcesses() ([]process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := "/proc/" + e.Name()
		p := process{PID: pid}
		p.PPID, _ = statOf(pid)
		exe, err := os.Readlink(dir + "/exe")
		if err != nil {
			// Another user's, or gone: kept for the family tree only.
			out = append(out, p)
			continue
		}
		p.Exe = exe
		if raw, err := os.ReadFile(dir + "/cmdline"); err == nil {
			p.Args = strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		}
		out = append(out, p)
	}
	return out, nil
}

// statOf reads a process's parent and state from /proc/PID/stat.
func statOf(pid int) (ppid int, state byte) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 2 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(fields[1])
	return ppid, fields[0][0]
}

// running tells whether a process still runs (a zombie does not).
func running(pid int) bool {
	_, state := statOf(pid)
	return state != 0 && state != 'Z' && state != 'X'
}

// stopProcess asks a process to end (SIGTERM), and kills it when it has
// not ended within grace.
func stopProcess(pid int, grace time.Duration) error {
	return signalStop(pid, grace, running)
}
