//go:build !linux

package versionflag

import "os"

func init() {
	if Asked(os.Args[1:]) {
		os.Stdout.WriteString(Line())
		os.Exit(0)
	}
}
