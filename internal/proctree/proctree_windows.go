//go:build windows

package proctree

import (
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Prepare does nothing before the start on Windows: the job object is
// made once the process exists (see Adopt).
func Prepare(*exec.Cmd) {}

// Adopt puts the started command into a job object that kills every
// process in it when its last handle closes: elemctl holds that handle, so
// the program (and whatever it starts from then on) ends with elemctl,
// however elemctl ends. Kill terminates the job; Release closes the
// handle. A job that cannot be made is an error, and the tree's Kill then
// kills the program alone.
func Adopt(cmd *exec.Cmd) (*Tree, error) {
	t := &Tree{cmd: cmd}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return t, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return t, err
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return t, err
	}
	err = windows.AssignProcessToJobObject(job, proc)
	windows.CloseHandle(proc)
	if err != nil {
		windows.CloseHandle(job)
		return t, err
	}
	t.kill = func() error { return windows.TerminateJobObject(job, 1) }
	t.free = func() { windows.CloseHandle(job) }
	return t, nil
}
