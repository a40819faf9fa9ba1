// Package prefault maps a program's code and writable data into its address
// space in one system call each, at start-up. Left alone, the kernel maps
// them a page at a time as each is first touched, and a start of elemctl
// touches several hundred: on a virtual machine, where a page fault costs
// tens of microseconds, that is milliseconds of every command. Read-only
// data is left alone: most of it (type and line tables) is never read by a
// short run, and mapping it costs more than it saves.
//
// Only Linux has the means (madvise MADV_POPULATE_READ/WRITE, Linux 5.14);
// elsewhere, and on older kernels, Program does nothing. It changes no
// behaviour either way, only when pages are mapped.
package prefault
