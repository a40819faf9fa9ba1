//go:build linux

package versionflag

import "unsafe"

// bufAddr is the address of b's first byte, for a system call; b is kept
// alive by its caller for the length of the call.
func bufAddr(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&b[0]))
}
