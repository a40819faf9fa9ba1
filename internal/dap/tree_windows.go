//go:build windows

package dap

import (
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// beforeStart keeps the JVM from opening a console window.
func beforeStart(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
}

// afterStart puts the started adapter into a job object that kills every
// process in it when its last handle closes: the proxy holds that handle,
// so the JVM (and whatever it starts) ends with the proxy, however the
// proxy ends. stop terminates the job; release closes the handle once the
// adapter exited. A job that cannot be made leaves stop to kill the
// adapter alone.
func afterStart(cmd *exec.Cmd) (stop, release func(), err error) {
	plain := func() { _ = cmd.Process.Kill() }
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return plain, func() {}, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return plain, func() {}, err
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return plain, func() {}, err
	}
	err = windows.AssignProcessToJobObject(job, proc)
	windows.CloseHandle(proc)
	if err != nil {
		windows.CloseHandle(job)
		return plain, func() {}, err
	}
	stop = func() {
		if windows.TerminateJobObject(job, 1) != nil {
			plain()
		}
	}
	return stop, func() { windows.CloseHandle(job) }, nil
}
