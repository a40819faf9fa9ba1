// Package prefault maps a short-lived program's memory in ahead, at
// start-up: its writable data in one system call, its code in one more
// where a page fault proves dear, and the stretch of Go heap that
// allocation is about to use as one huge page.
// Left alone, the kernel maps them a 4 KiB page at a time as each is first
// touched, and a start of elemctl touches several hundred: on a virtual
// machine that exits to its hypervisor on faults, each costs tens of
// microseconds, and that is milliseconds of every command. Where faults
// cost a few microseconds (nested paging), mapping all code in costs more
// than the faults it spares, so the first touches of a few code pages are
// timed to choose. Read-only data is left alone: most of it
// (type and line tables) is never read by a short run, and mapping it
// costs more than it saves.
//
// Only Linux has the means (madvise MADV_POPULATE_READ/WRITE, Linux 5.14;
// MADV_COLLAPSE, Linux 6.1); elsewhere, and on older kernels, Program does
// nothing. It changes no behaviour either way, only when pages are mapped.
// GODEBUG=disablethp=1, the Go runtime's switch, keeps the heap off huge
// pages here too.
package prefault
