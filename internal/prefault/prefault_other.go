//go:build !linux

package prefault

// Program does nothing here: only Linux can populate mappings ahead.
func Program() {}
