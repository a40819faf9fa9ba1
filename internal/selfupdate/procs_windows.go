package selfupdate

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// listProcesses takes a snapshot of the processes (Toolhelp32) and, for
// those whose image is named like elemctl's, asks for the full path
// (QueryFullProcessImageName) and the command line
// (NtQueryInformationProcess, Windows 8.1 and later). Processes this user
// may not open are left out.
func listProcesses() ([]process, error) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(snap)
	var entry windows.ProcessEntry32
	entry.Size = uint32(unsafe.Sizeof(entry))
	var out []process
	for err = windows.Process32First(snap, &entry); err == nil; err = windows.Process32Next(snap, &entry) {
		p := process{PID: int(entry.ProcessID), PPID: int(entry.ParentProcessID)}
		p.Exe, p.Args = imageOf(entry.ProcessID)
		out = append(out, p)
	}
	return out, nil
}

// imageOf reads a process's image path and command line ("" and nil when
// the process cannot be opened).
func imageOf(pid uint32) (string, []string) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return "", nil
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	size := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &size); err != nil {
		return "", nil
	}
	exe := windows.UTF16ToString(buf[:size])
	return exe, commandLineOf(h)
}

func commandLineOf(h windows.Handle) []string {
	raw := make([]byte, 4096)
	for range 4 {
		var need uint32
		err := windows.NtQueryInformationProcess(h, windows.ProcessCommandLineInformation, unsafe.Pointer(&raw[0]), uint32(len(raw)), &need)
		if err == windows.STATUS_INFO_LENGTH_MISMATCH && int(need) > len(raw) {
			raw = make([]byte, need)
			continue
		}
		if err != nil {
			return nil
		}
		line := (*windows.NTUnicodeString)(unsafe.Pointer(&raw[0])).String()
		args, err := windows.DecomposeCommandLine(line)
		if err != nil {
			return nil
		}
		return args
	}
	return nil
}

// running tells whether a process still runs.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == uint32(windows.WAIT_TIMEOUT)
}

// stopProcess ends a process. A console program of another console gets
// no gentle signal on Windows, so it is terminated (exit code 1) at once;
// the editor or agent starts its server again.
func stopProcess(pid int, grace time.Duration) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		if !running(pid) {
			return nil
		}
		return err
	}
	defer windows.CloseHandle(h)
	if err := windows.TerminateProcess(h, 1); err != nil {
		return err
	}
	_, _ = windows.WaitForSingleObject(h, uint32(grace.Milliseconds()))
	return nil
}
